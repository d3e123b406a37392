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

from .actions import MAX_MOVE_CHARS, MOVE_FORM

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
        schema["not"] = {"anyOf": [_winnable_with_a_deal(), *variants_of_another_game()]}
        return schema


def _winnable_with_a_deal() -> Schema:
    return {"required": ["deal", "winnable"], "properties": {
        "deal": {"type": "integer"}, "winnable": {"enum": [True]}}}


def variants_of_another_game() -> list[Schema]:
    """For a body's "not": {"anyOf": ...}, one schema for each registered game: its slug
    as "game" with a "variant" that is not one of its own (check_variant refuses the pair:
    400). A blank variant is left out, the game's default, where a body allows one."""
    return [{"required": ["game", "variant"], "properties": {
        "game": {"enum": [rules.slug]},
        "variant": {"type": "string", "not": {"enum": ["", *rules.variants]}}}}
        for rules in GAMES.values()]


class MoveScheme(OpenApiSerializerExtension):
    """A move's text as check_move takes it: one word of MOVE_FORM, at most MAX_MOVE_CHARS.
    Which words are moves is each game's notation, and the body names no game: a word the
    game has no move for is refused as an illegal move is, 409 (do_move)."""

    target_class = "game.serializers.MoveSerializer"

    def map_serializer(self, auto_schema: Any, direction: Any) -> Schema:
        schema: Schema = auto_schema._map_serializer(self.target_class, direction,
                                                     bypass_extensions=True)
        schema["properties"]["move"].update(
            minLength=1, maxLength=MAX_MOVE_CHARS, pattern=f"^(?:{MOVE_FORM})$",
            description="a move in the game's notation (RULES.md: D R F F@nw.. C C@n..), "
            "one word of letters, digits, @ and -; a word that is no move of this game, or "
            "a move its rules refuse now, is refused with 409")
        return schema
