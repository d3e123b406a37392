"""Shapes of the daily challenge's API, for the OpenAPI schema (input is checked by actions)."""

from __future__ import annotations

from rest_framework import serializers

from solver_worker.rating import BANDS

STATUSES = ["playing", "won", "lost"]


class NamesSerializer(serializers.Serializer):
    """Whose figures these are, from the game registry."""

    variant = serializers.CharField(help_text="the variant's slug (unique across games)")
    game = serializers.CharField(help_text="its game's slug, as in the URLs")
    game_name = serializers.CharField(help_text="e.g. Napoleon's Tomb")
    variant_name = serializers.CharField()
    card_count = serializers.IntegerField(help_text="cards home in a won game (52, 104)")


class DailySerializer(NamesSerializer):
    date = serializers.DateField()
    archived = serializers.BooleanField(help_text="its day is over: replayable, order shown")
    closes = serializers.DateTimeField(help_text="when ranked play on it ends (UTC midnight)")
    difficulty = serializers.FloatField(
        allow_null=True,
        help_text="1 - the blind sampling player's win rate; null until rated (the "
                  "band and rating below are the figures shown)",
    )
    sampling_win_rate = serializers.FloatField(allow_null=True)
    band = serializers.ChoiceField(
        choices=list(BANDS), allow_null=True,
        help_text="easy, medium, hard or expert: where the rating falls among the "
                  "variant's calibrated deals; null until rated",
    )
    rating = serializers.FloatField(
        allow_null=True, help_text="the graded blind players' win rate on the deal"
    )
    rating_games = serializers.IntegerField(allow_null=True,
                                            help_text="games the rating is measured over")
    rating_text = serializers.CharField(allow_null=True, help_text="the band and rate in words")
    rated = serializers.BooleanField(
        help_text="the variant has difficulty bands; false: screened winnable, not rated")
    cards = serializers.ListField(
        child=serializers.CharField(), allow_null=True,
        help_text="the stock order, top first: only once the day is over",
    )


class MyAttemptSerializer(serializers.Serializer):
    game = serializers.UUIDField()
    ranked = serializers.BooleanField()
    status = serializers.ChoiceField(choices=STATUSES)
    home = serializers.IntegerField()
    card_count = serializers.IntegerField(help_text="cards home in a won game")
    moves = serializers.IntegerField()
    hints = serializers.IntegerField()
    time = serializers.CharField(help_text="m:ss by the server's clock, first move to last")
    share = serializers.CharField(
        allow_null=True, help_text="one line to paste, once finished: the result in words, "
        "the rank once ranked (not while under review) and a link to the day's board")
    under_review = serializers.BooleanField(
        help_text="flagged by the fair-play check: off the public boards until an admin "
                  "clears it")
    checking = serializers.BooleanField(
        help_text="a ranked win the fair-play judge has not read yet: ask again shortly")


class ProgressSerializer(serializers.Serializer):
    started = serializers.BooleanField(help_text="the maker has begun screening")
    screened = serializers.IntegerField(help_text="candidate deals screened so far")
    candidates = serializers.IntegerField(help_text="at most this many (DAILY_MAX_CANDIDATES)")
    budget_s = serializers.FloatField(help_text="solver seconds per candidate at most")


class NotReadySerializer(serializers.Serializer):
    error = serializers.CharField()
    progress = ProgressSerializer()


class PlayStatusSerializer(serializers.Serializer):
    allowed = serializers.BooleanField(help_text="may start (or resume) a ranked attempt now")
    reason = serializers.CharField(help_text="why not, in words; empty when allowed")
    opens_at = serializers.DateTimeField(
        allow_null=True, help_text="a new account's first ranked daily opens then"
    )


class TodaySerializer(DailySerializer):
    me = MyAttemptSerializer(allow_null=True)
    play = PlayStatusSerializer()


class EntrySerializer(serializers.Serializer):
    player = serializers.CharField()
    home = serializers.IntegerField(help_text="cards home; card_count of them is a win")
    status = serializers.ChoiceField(choices=STATUSES)
    finished = serializers.BooleanField()
    time = serializers.CharField()
    time_ms = serializers.IntegerField()
    moves = serializers.IntegerField()
    undos = serializers.IntegerField()
    hints = serializers.IntegerField()
    assisted = serializers.BooleanField(help_text="a hint was asked for")


class RankedEntrySerializer(EntrySerializer):
    rank = serializers.IntegerField()


class DayBoardSerializer(serializers.Serializer):
    date = serializers.DateField()
    variant = serializers.CharField()
    card_count = serializers.IntegerField(help_text="cards home in a won game")
    page = serializers.IntegerField()
    next = serializers.IntegerField(allow_null=True)
    entries = RankedEntrySerializer(many=True)


class FieldSerializer(serializers.Serializer):
    date = serializers.DateField()
    variant = serializers.CharField()
    card_count = serializers.IntegerField(help_text="cards home in a won game")
    entries = EntrySerializer(many=True)


class ArchiveDaySerializer(serializers.Serializer):
    date = serializers.DateField()
    variant = serializers.CharField()
    difficulty = serializers.FloatField(allow_null=True)
    band = serializers.ChoiceField(choices=list(BANDS), allow_null=True)
    rating = serializers.FloatField(allow_null=True)
    rating_games = serializers.IntegerField(allow_null=True)
    rating_text = serializers.CharField(allow_null=True)
    rated = serializers.BooleanField()


class StatsEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.CharField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField()
    best_streak = serializers.IntegerField(help_text="most days won in a row")
    current_streak = serializers.IntegerField(help_text="days won in a row, up to now")
    played_streak = serializers.IntegerField(help_text="days played in a row, up to now")
    best_played_streak = serializers.IntegerField()


class AllTimeBoardSerializer(NamesSerializer):
    board = serializers.ChoiceField(choices=["wins", "win-rate", "streak"])
    page = serializers.IntegerField()
    next = serializers.IntegerField(allow_null=True)
    min_games = serializers.IntegerField(allow_null=True)
    entries = StatsEntrySerializer(many=True)


class CalendarDaySerializer(serializers.Serializer):
    date = serializers.DateField()
    status = serializers.ChoiceField(choices=STATUSES)
    home = serializers.IntegerField()
    time = serializers.CharField()
    assisted = serializers.BooleanField(help_text="a hint was asked for")
    under_review = serializers.BooleanField(help_text="held off the boards for review")


class MyStatsSerializer(NamesSerializer):
    games = serializers.IntegerField(help_text="ranked dailies played")
    wins = serializers.IntegerField(help_text="ranked dailies won")
    win_rate = serializers.FloatField()
    current_streak = serializers.IntegerField(
        help_text="days won in a row; a missed or lost day ends it")
    best_streak = serializers.IntegerField(help_text="most days won in a row")
    played_streak = serializers.IntegerField(help_text="days in a row with the daily played")
    best_played_streak = serializers.IntegerField()
    best_time = serializers.CharField(allow_null=True)
    best_time_ms = serializers.IntegerField(allow_null=True)
    fewest_moves = serializers.IntegerField(allow_null=True)
    free_play_games = serializers.IntegerField()
    free_play_wins = serializers.IntegerField(help_text="counted apart from daily wins")
    calendar = CalendarDaySerializer(many=True)
