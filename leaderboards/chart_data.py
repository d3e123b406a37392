"""The figures the charts are drawn from: one query each, whatever the number of players.

The day's spread reads one narrow row (four integers and a flag) per ranked player on
the public board, plus the reader's own row in the same query; its bins are made in
Python because their width follows the day's spread. A player's history is grouped by
week or month in the database (TruncWeek, TruncMonth), one query per chart kind for
every variant at once. Figures only: never a card.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from django.db.models import BooleanField, Case, Count, Min, Q, Value, When
from django.db.models.functions import TruncMonth, TruncWeek
from django.utils.formats import date_format
from django.utils.translation import gettext, gettext_lazy, pgettext

from game.models import Status

from . import charts
from .boards import UNDER_REVIEW, UNRANKED_PLAYER
from .days import is_over
from .models import Attempt, Daily

WEEKS = 12
MONTHS = 12
TIME = charts.Scale(gettext_lazy("time"), charts.clock, charts.TIME_STEPS_MS,
                    beats=gettext_lazy("faster than %(percent)s%% of them"), whole=False)
MOVES = charts.Scale(gettext_lazy("moves"), charts.plain,
                     beats=gettext_lazy("in fewer moves than %(percent)s%% of them"))
HOME = charts.Scale(gettext_lazy("cards home"), charts.plain,
                    beats=gettext_lazy("more cards home than %(percent)s%% of them"),
                    higher_is_better=True)


@dataclass(frozen=True)
class Row:
    status: str
    home: int
    time_ms: int
    moves: int


@dataclass(frozen=True)
class DaySpread:
    """The public field's figures on a day, and the reader's own result (any review)."""

    field: list[Row]
    mine: Row | None


def day_spread(daily: Daily, user_id: int | None) -> DaySpread:
    """One query: the ranked results on the public board, and the reader's ranked one
    even when it is held off the board (under review, or the player unranked)."""
    public = ~UNDER_REVIEW & ~UNRANKED_PLAYER
    mine = Q(user_id=user_id) if user_id is not None else Q(pk__in=[])
    rows = (
        Attempt.objects.filter(Q(daily=daily, ranked=True) & (public | mine))
        .annotate(public=Case(When(public, then=Value(True)), default=Value(False),
                              output_field=BooleanField()))
        .values_list("status", "home", "time_ms", "moves", "user_id", "public")
    )
    field: list[Row] = []
    own: Row | None = None
    for status, home, time_ms, moves, user, is_public in rows:
        row = Row(status, home, time_ms, moves)
        if is_public:
            field.append(row)
        if user_id is not None and user == user_id:
            own = row
    return DaySpread(field, own)


def day_charts(daily: Daily, user_id: int | None) -> dict[str, object]:
    """The day page's charts: shown once the reader has finished their ranked game, or
    for anyone once the day is over. Before that nothing is read (no query)."""
    over = is_over(daily.date)
    if user_id is None and not over:
        return {"shown": False, "charts": []}
    spread = day_spread(daily, user_id)
    mine = spread.mine
    if not over and (mine is None or mine.status == Status.PLAYING):
        return {"shown": False, "charts": []}
    won = [row for row in spread.field if row.status == Status.WON]
    # On a closed day an unfinished game is final; today only finished ones count.
    not_won = [row for row in spread.field if row.status != Status.WON
               and (over or row.status != Status.PLAYING)]
    mine_won = mine is not None and mine.status == Status.WON
    found = [
        charts.histogram("chart-time", gettext("Winners' times"), [r.time_ms for r in won],
                         TIME, mine=mine.time_ms if mine_won and mine else None,
                         mine_words=gettext("Your time"),
                         empty=gettext("Nobody has won this deal yet.")),
        charts.histogram("chart-moves", gettext("Winners' moves"), [r.moves for r in won],
                         MOVES, mine=mine.moves if mine_won and mine else None,
                         mine_words=gettext("Your moves"),
                         empty=gettext("Nobody has won this deal yet.")),
    ]
    if not mine_won:
        found.append(charts.histogram(
            "chart-home", gettext("Cards home, games not won"), [r.home for r in not_won],
            HOME, mine=mine.home if mine is not None else None, mine_words=gettext("Yours"),
            empty=gettext("Every finished game on this deal was won.")))
    return {"shown": True, "charts": found, "mine": mine}


# -- a player's history ------------------------------------------------------------------

def week_starts(today: date, weeks: int = WEEKS) -> list[date]:
    monday = today - timedelta(days=today.weekday())
    return [monday - timedelta(weeks=back) for back in range(weeks - 1, -1, -1)]


def month_starts(today: date, months: int = MONTHS) -> list[date]:
    first = today.replace(day=1)
    found = [first]
    for _ in range(months - 1):
        first = (first - timedelta(days=1)).replace(day=1)
        found.append(first)
    return found[::-1]


def weekly_rates(user_id: int, today: date) -> dict[str, list[charts.Rate]]:
    """Per variant, the ranked dailies played and won in each of the last WEEKS weeks
    (Monday first): one grouped query. A past day's unfinished game counts as not won,
    as in the player's figures; today's only once it is over."""
    starts = week_starts(today)
    rows = (
        Attempt.objects.filter(user_id=user_id, ranked=True, daily__date__gte=starts[0],
                               daily__date__lte=today)
        .exclude(daily__date=today, status=Status.PLAYING)  # today's game may yet be won
        .annotate(week=TruncWeek("daily__date")).values("daily__variant", "week")
        .annotate(played=Count("id"), won=Count("id", filter=Q(status=Status.WON)))
        .order_by()
    )
    found: dict[tuple[str, date], tuple[int, int]] = {
        (row["daily__variant"], _day(row["week"])): (row["won"], row["played"]) for row in rows}
    return {variant: [
        charts.Rate(gettext("week of %(day)s") % {
            "day": date_format(start, pgettext("chart label: a week's first day", "F j"))},
                    date_format(start, pgettext("chart tick: a week's first day", "j/n")),
                    *found.get((variant, start), (0, 0)))
        for start in starts] for variant in {key[0] for key in found}}


def monthly_bests(user_id: int, today: date) -> dict[str, list[charts.Best]]:
    """Per variant, the best winning time of each of the last MONTHS months: one grouped
    query."""
    starts = month_starts(today)
    rows = (
        Attempt.objects.filter(user_id=user_id, ranked=True, status=Status.WON,
                               daily__date__gte=starts[0], daily__date__lte=today)
        .annotate(month=TruncMonth("daily__date")).values("daily__variant", "month")
        .annotate(best=Min("time_ms")).order_by()
    )
    found = {(row["daily__variant"], _day(row["month"])): row["best"] for row in rows}
    return {variant: [charts.Best(date_format(start, "YEAR_MONTH_FORMAT"),
                                  date_format(start, pgettext("chart tick: a month", "M")),
                                  found.get((variant, start)))
                      for start in starts] for variant in {key[0] for key in found}}


def _day(value: date) -> date:
    # TruncWeek/TruncMonth of a DateField give a date; keep it one type for the lookup.
    return value if type(value) is date else value.date()  # type: ignore[attr-defined]
