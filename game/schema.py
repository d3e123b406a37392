"""OpenAPI: describe the project's session authentication like DRF's own, and say in
the schema what the game API's own checks (game.actions.check_*) refuse, where the
serializers alone would allow it: a request the schema calls valid is one the server
takes (tests/service/test_schema_fuzz.py holds the two to each other).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.authentication import SessionScheme
from drf_spectacular.extensions import OpenApiSerializerExtension

from patience import GAMES

from .actions import MAX_MOVE_CHARS

Schema = dict[str, Any]


class SessionCsrfScheme(SessionScheme):
    target_class = "game.authentication.SessionCsrfAuthentication"


class NewGameScheme(OpenApiSerializerExtension):
    """A new game's body: a game and a variant named together must be the game's own
    (check_variant), and "winnable": true deals its own deal (check_new_free_game)."""

    target_class = "game.serializers.NewGameSerializer"

    def map_serializer(self, auto_schema: Any, direction: Any) -> Schema:
        schema: Schema = auto_schema._map_serializer(self.target_class, direction,
                                                     bypass_extensions=True)
        # The default variant is the named game's, not one for every game.
        schema["properties"]["variant"].pop("default", None)
        # Said as what is refused, under "not": drf-spectacular's enum hook would make a
        # component of every enum found in an anyOf's properties.
        schema["not"] = {"anyOf": [_winnable_with_a_deal(), *_variants_of_another_game()]}
        return schema


def _winnable_with_a_deal() -> Schema:
    return {"required": ["deal", "winnable"], "properties": {
        "deal": {"type": "integer"}, "winnable": {"enum": [True]}}}


def _variants_of_another_game() -> list[Schema]:
    return [{"required": ["game", "variant"], "properties": {
        "game": {"enum": [rules.slug]},
        "variant": {"type": "string", "not": {"enum": list(rules.variants)}}}}
        for rules in GAMES.values()]


class MoveScheme(OpenApiSerializerExtension):
    """A move's text as check_move takes it: some non-blank text, at most MAX_MOVE_CHARS."""

    target_class = "game.serializers.MoveSerializer"

    def map_serializer(self, auto_schema: Any, direction: Any) -> Schema:
        schema: Schema = auto_schema._map_serializer(self.target_class, direction,
                                                     bypass_extensions=True)
        schema["properties"]["move"].update(
            minLength=1, maxLength=MAX_MOVE_CHARS, pattern=r"\S",
            description="the game's notation (RULES.md: D R F F@nw.. C C@n..); text the "
            "game's notation does not read is refused with 400")
        return schema
