"""Shapes of the API for the OpenAPI schema.

Input is checked by actions.check_* (with the engine's readable messages);
these serializers describe requests and responses for drf-spectacular.
"""

from __future__ import annotations

from rest_framework import serializers

from patience import DEFAULT_GAME, GAMES, all_variants

GAME_SLUGS = list(GAMES)
VARIANT_SLUGS = [variant.slug for _, variant in all_variants()]
# The widest range of any game: each game checks its own (actions.check_deal_number).
LOWEST_DEAL = min(rules.min_deal for rules in GAMES.values())
HIGHEST_DEAL = max(rules.max_deal for rules in GAMES.values())


class NewGameSerializer(serializers.Serializer):
    game = serializers.ChoiceField(
        choices=GAME_SLUGS, required=False, allow_null=True,
        help_text="a game's slug; null or left out: the variant's game, else the default game",
    )
    variant = serializers.ChoiceField(
        choices=VARIANT_SLUGS, default=DEFAULT_GAME.default_variant.slug, allow_null=True,
        help_text="a variant of the game; null: the game's default variant",
    )
    deal = serializers.IntegerField(
        min_value=LOWEST_DEAL, max_value=HIGHEST_DEAL, required=False, allow_null=True,
        help_text="public deal number, within the game's range (the catalog's "
        "min_deal..max_deal); leave out for a random deal",
    )
    winnable = serializers.BooleanField(
        required=False, default=False,
        help_text="true: a random deal the solver has proved won (send no deal with it)",
    )


VERSION_HELP = ("optional: the game's version the client saw; if the game has moved past "
                "it, the action is refused with 409 and code \"stale\" and nothing changes")


class MoveSerializer(serializers.Serializer):
    move = serializers.CharField(help_text="RULES.md notation: D R F F@nw.. C C@n..")
    version = serializers.IntegerField(
        min_value=0, max_value=2**53, required=False, help_text=VERSION_HELP)


class UndoSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        min_value=0, max_value=2**53, required=False, help_text=VERSION_HELP)


class NamedSerializer(serializers.Serializer):
    slug = serializers.CharField(help_text="in URLs and the API")
    name = serializers.CharField(help_text="what a person calls it")


class GameSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    game = NamedSerializer(help_text="the game it is a game of")
    variant = NamedSerializer(help_text="its variant (a variant's slug names its game)")
    deal = serializers.IntegerField(allow_null=True)
    seeded = serializers.BooleanField()
    deal_kind = serializers.ChoiceField(
        choices=["number", "winnable", "daily"],
        help_text="number: a public deal number; winnable: dealt by the winnable-only "
        "option; daily: a seeded daily deal",
    )
    ranked = serializers.BooleanField(
        help_text="a ranked daily attempt: a stock turn (D, R) cannot be undone"
    )
    version = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["playing", "won", "lost"])
    home = serializers.IntegerField(help_text="cards on the foundations")
    score = serializers.IntegerField(
        allow_null=True, help_text="the game's points (Klondike's Windows score); null for a "
        "game that keeps none")
    moves = serializers.IntegerField(help_text="moves on the line, as state.moves: an undone "
                                     "move is not counted (undos counts it)")
    undos = serializers.IntegerField()
    hints = serializers.IntegerField()
    created = serializers.DateTimeField()
    updated = serializers.DateTimeField()
    finished = serializers.DateTimeField(allow_null=True)
    started = serializers.DateTimeField(
        allow_null=True, help_text="the first move, by the server's clock: time runs from here",
    )
    closes = serializers.DateTimeField(
        allow_null=True, help_text="a ranked daily takes no action after this time",
    )
    daily_date = serializers.DateField(
        allow_null=True, help_text="the day whose daily this deal is (ranked or a replay)",
    )


class FreePlayFiguresSerializer(serializers.Serializer):
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(min_value=0, max_value=1)
    streak = serializers.IntegerField(help_text="wins in a row, up to now")
    best_streak = serializers.IntegerField()
    fastest_ms = serializers.IntegerField(
        allow_null=True, help_text="fastest win of this kind of deal (winnable_only or not)")
    fewest_moves = serializers.IntegerField(allow_null=True)
    best_score = serializers.IntegerField(
        allow_null=True, help_text="best score of a won game of this kind (a game that scores)")
    score = serializers.IntegerField(allow_null=True, help_text="this game's score")
    new_best = serializers.ListField(
        child=serializers.ChoiceField(choices=["time", "moves", "score"]),
        help_text="the records this game's win set")
    winnable_only = serializers.BooleanField(
        help_text="the game was dealt by the winnable-only option: its records are apart")


class GameSerializer(GameSummarySerializer):
    table = serializers.JSONField(
        help_text="the variant's table as data: rows, cols, card_count and piles (name, "
        "role, row, col, fan, show, base, and its words: label, accepts, from, to, in, the), "
        "which the board draws")
    can_finish = serializers.BooleanField(
        help_text="the rest of the game plays itself: POST finish/ plays it")
    state = serializers.JSONField(
        help_text="the visible view (docs/view-contract.md): piles as {down, up}, paths as "
        "{from, to, count}, pickable, legal, log, can_undo, status; never an unseen card")
    achievements = serializers.ListField(
        child=serializers.CharField(),
        help_text="what the win earned beyond the win, e.g. grand-tomb; empty otherwise")
    free_play = FreePlayFiguresSerializer(
        allow_null=True,
        help_text="on a free-play game once it has ended and been counted: the player's "
        "free-play figures for its variant; null otherwise")


class HintRequestSerializer(serializers.Serializer):
    fair = serializers.BooleanField(
        required=False, default=False,
        help_text="true: the fair hint, which does not peek at the stock",
    )


class HintSerializer(serializers.Serializer):
    move = serializers.CharField(allow_null=True)
    verdict = serializers.ChoiceField(choices=["winnable", "lost", "unknown"])
    line_length = serializers.IntegerField(allow_null=True)
    fair = serializers.BooleanField(
        required=False, help_text="present and true on the fair hint only",
    )
    chance = serializers.FloatField(
        required=False, min_value=0, max_value=1,
        help_text="fair hint: the share of sampled stock orders its move won",
    )


class HintedGameSerializer(GameSerializer):
    hint = HintSerializer()


class RecordsSerializer(serializers.Serializer):
    fastest_ms = serializers.IntegerField(allow_null=True)
    fewest_moves = serializers.IntegerField(allow_null=True)
    best_score = serializers.IntegerField(allow_null=True)


class KindsOfRecordsSerializer(serializers.Serializer):
    any = RecordsSerializer(help_text="deals off the pack: by number or at random")
    winnable = RecordsSerializer(help_text="deals dealt by the winnable-only option")


class FreePlayStatsSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=GAME_SLUGS)
    game_name = serializers.CharField()
    variant = serializers.ChoiceField(choices=VARIANT_SLUGS)
    variant_name = serializers.CharField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(min_value=0, max_value=1)
    streak = serializers.IntegerField()
    best_streak = serializers.IntegerField()
    scored = serializers.BooleanField(help_text="the game keeps a score: best_score is kept")
    records = KindsOfRecordsSerializer()


class StatsSerializer(serializers.Serializer):
    wins = serializers.DictField(child=serializers.IntegerField())
    free_play = FreePlayStatsSerializer(many=True)


class CatalogVariantSerializer(NamedSerializer):
    table = serializers.JSONField(help_text="the variant's table as data")


class CatalogGameSerializer(NamedSerializer):
    default_variant = serializers.CharField()
    min_deal = serializers.IntegerField()
    max_deal = serializers.IntegerField()
    variants = CatalogVariantSerializer(many=True)


class ErrorSerializer(serializers.Serializer):
    error = serializers.CharField()
    code = serializers.ChoiceField(
        choices=["stale"], required=False,
        help_text="stale: the move or undo named a version the game has left",
    )
    game = GameSerializer(required=False, help_text="with code stale: the game as it is now")


class CsrfSerializer(serializers.Serializer):
    csrf_token = serializers.CharField()
