"""Server-rendered pages of the daily challenge: usable before (and without) the script.

Thin: each reads through actions and boards; an ActionError becomes a small
error page with its status. Today's page renders no card: the stock order
shows only on a past day's page.
"""

from __future__ import annotations

import calendar
from collections.abc import Callable
from datetime import date, timedelta
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.dates import WEEKDAYS, WEEKDAYS_ABBR
from django.utils.formats import get_format
from django.utils.translation import gettext, ngettext
from django.views.decorators.csrf import ensure_csrf_cookie

import patience
from game.actions import ActionError, free_play_stats, player_from
from game.names import game_name, named_game, named_variant, named_variants, variant_name
from races.stats import record_of

from . import actions, boards, chart_data, charts, preparing
from .days import day_end, today

View = Callable[..., HttpResponse]
ARCHIVE_PAGE = 60


def pages(view: View) -> View:
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except ActionError as error:
            context = {"error": error.message, "games": games(),
                       "retry": error.status == 503}  # a daily being screened: soon
            return render(request, "leaderboards/error.html", context, status=error.status)
    return wrapped


def games() -> list[dict[str, Any]]:
    """Every registered game with its variants, for the pages' menus and the daily home."""
    return [{**named_game(game), "variants": named_variants(game.variants.values())}
            for game in patience.GAMES.values()]


def about(game: patience.Rules, variant: Any) -> dict[str, Any]:
    """What every page of a game's variant shows: the game (name from the registry), the
    variant, its game's other variants to switch to, and the cards a win brings home."""
    return {"game": named_game(game), "variant": named_variant(variant),
            "variants": named_variants(game.variants.values()), "card_count": game.card_count,
            "games": games()}


def with_day(payload: dict[str, Any]) -> dict[str, Any]:
    """The payload's ISO "date" also as a date ("day"), for the page to write in the
    reader's language; the ISO text stays for scripts and links."""
    payload["day"] = date.fromisoformat(str(payload["date"]))
    return payload


def daily_home(request: HttpRequest) -> HttpResponse:
    """Every game and variant with a daily: each links to its today's page."""
    return render(request, "leaderboards/daily_home.html", {"games": games()})


def moved(name: str) -> View:
    """An old address that named only the variant: redirect (301) to the same page under
    its game, keeping the query string; an unknown variant is a 404."""
    @pages
    def redirect_to(request: HttpRequest, variant: str, **kwargs: Any) -> HttpResponse:
        game, found = actions.check_game_variant(None, variant)
        target = reverse(name, kwargs={"game": game.slug, "variant": found.slug, **kwargs})
        query = request.META.get("QUERY_STRING", "")
        return HttpResponseRedirect(f"{target}?{query}" if query else target, status=301)
    redirect_to.__name__ = f"moved_{name.replace('-', '_')}"
    return redirect_to


@pages
@ensure_csrf_cookie  # the page's script posts to start the game
def daily(request: HttpRequest, game: str, variant: str) -> HttpResponse:
    rules, chosen = actions.check_game_variant(game, variant)
    try:
        found = preparing.todays_daily(chosen)
    except preparing.DailyNotReady as waiting:
        return being_made(request, rules, chosen, waiting.progress)
    field = boards.field_of(found, found.date, chosen.slug)
    asker = player_from(request.user, request.session)
    return render(request, "leaderboards/daily.html", {
        **about(rules, chosen), "daily": with_day(boards.daily_info(found)),
        "me": boards.my_attempt(found, asker, boards.site_url(request)),
        "play": actions.play_status(asker, found),
        "field": field, "my_rank": rank_in(field["entries"], request.user.get_username()),
    })


def being_made(request: HttpRequest, game: patience.Rules, variant: Any,
               progress: dict[str, Any]) -> HttpResponse:
    """Today's page while its deal is still being made elsewhere: at once, with the
    maker's progress; the script (or, without it, a meta refresh) shows the deal when
    it is ready."""
    day = today()
    return render(request, "leaderboards/daily.html", {
        **about(game, variant), "preparing": progress,
        "daily": {"date": day.isoformat(), "day": day, "closes": day_end(day).isoformat()},
        "field": boards.field_of(None, day, variant.slug), "me": None,
        "play": {"allowed": False},
    })


def rank_in(entries: list[dict[str, Any]], name: str) -> int | None:
    """A player's place in the field, which comes in the board's order."""
    return next((number for number, entry in enumerate(entries, start=1)
                 if name and entry["player"] == name), None)


@pages
@ensure_csrf_cookie
def day(request: HttpRequest, game: str, variant: str, day: str) -> HttpResponse:
    rules, chosen = actions.check_game_variant(game, variant)
    found = preparing.daily_of(actions.check_day(day), chosen)
    return render(request, "leaderboards/day.html", {
        **about(rules, chosen), "daily": with_day(boards.daily_info(found)),
        "board": boards.day_board(found, actions.check_page(request.GET.get("page"))),
        "spread": chart_data.day_charts(found, request.user.pk),
    })


@pages
def archive(request: HttpRequest, game: str, variant: str) -> HttpResponse:
    """Past dailies, newest first, a page at a time: ?before=<day> shows older ones."""
    rules, chosen = actions.check_game_variant(game, variant)
    before = request.GET.get("before")
    days = boards.archive(chosen.slug, actions.check_day(before) if before else None,
                          limit=ARCHIVE_PAGE)
    mine = boards.my_results(request.user.pk, chosen.slug, [past["date"] for past in days])
    for past in days:
        past["mine"] = mine.get(past["date"])
        with_day(past)
    return render(request, "leaderboards/archive.html", {
        **about(rules, chosen), "days": days,
        "older": days[-1]["date"] if len(days) == ARCHIVE_PAGE else None,
    })


@pages
def all_time(request: HttpRequest, game: str, variant: str) -> HttpResponse:
    """Today's leaders and the three all-time boards; ?board=<name>&page=<n> turns the
    pages of one of them."""
    rules, chosen = actions.check_game_variant(game, variant)
    asked = request.GET.get("board")
    paged = boards.ALL_TIME_BOARDS[0] if asked is None else actions.check_board(asked)
    page = actions.check_page(request.GET.get("page"))
    tables = [(name, boards.all_time_board(chosen.slug, name, page if name == paged else 1))
              for name in boards.ALL_TIME_BOARDS]
    return render(request, "leaderboards/boards.html", {
        **about(rules, chosen), "tables": tables,
        "min_games": settings.BOARD_MIN_GAMES, "today": with_day(boards.field(chosen.slug)),
    })


@pages
def my_stats(request: HttpRequest) -> HttpResponse:
    """Free play for everyone (a visitor's figures live with their games); the ranked
    dailies and their calendar for a logged-in player. Both grouped by game, then
    variant, in the registry's order, and only the variants the player has played: a
    player who has played nothing yet gets a welcome that leads to a first game."""
    month = actions.check_month(request.GET.get("month"))
    free = [entry for entry in free_play_stats(player_from(request.user, request.session))
            if entry["games"]]
    for entry in free:
        entry["name"] = variant_name(patience.variant_of(entry["variant"]))
        entry["alone"] = named_by_its_game(entry["variant"])
        for kind in entry["records"].values():
            kind["fastest"] = None if kind["fastest_ms"] is None else boards.clock(
                kind["fastest_ms"])
    stats = []
    rates: dict[str, list[charts.Rate]] = {}
    bests: dict[str, list[charts.Best]] = {}
    if request.user.is_authenticated:
        rates = chart_data.weekly_rates(request.user.pk, today())
        bests = chart_data.monthly_bests(request.user.pk, today())
        stats = [entry for entry in boards.my_stats(request.user.pk, actions.variant_slugs(), month)
                 if played_ranked(entry, rates, bests)]
    for entry in stats:
        entry["weeks"] = month_grid(month, entry["calendar"])
        entry["name"] = entry["variant_name"]  # under its game's heading
        entry["alone"] = named_by_its_game(entry["variant"])
        entry["charts"] = history_charts(entry["variant"], entry["name"], rates, bests)
    races = record_of(request.user.pk) if request.user.is_authenticated else None
    if races is not None and not races["races"]:
        races = None  # no race yet: no panel of zeros
    if races is not None:
        for result in races["recent"]:
            result["time"] = boards.clock(result["time_ms"] or 0)
    return render(request, "leaderboards/my_stats.html", {
        "stats": by_game(stats), "free": by_game(free), "month": month, "games": games(),
        "races": races, "played": bool(free or stats or races),
        "weekdays": weekdays(),
        **month_links(month),
    })


def played_ranked(entry: dict[str, Any], rates: dict[str, list[charts.Rate]],
                  bests: dict[str, list[charts.Best]]) -> bool:
    """A variant whose ranked daily the player has played: counted, on the month shown,
    or in the charts' weeks and months."""
    variant = entry["variant"]
    return bool(entry["games"] or entry["calendar"]
                or any(rate.played for rate in rates.get(variant, []))
                or any(best.ms is not None for best in bests.get(variant, [])))


def named_by_its_game(variant: str) -> bool:
    """A game's only variant, or one named as its game is, goes by the game's name alone:
    "St. Helena" once, not under a heading of the same name."""
    rules = patience.rules_of(variant)
    return len(rules.variants) == 1 or (
        variant_name(rules.variants[variant]) == game_name(rules))


def by_game(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Entries (each naming a variant) grouped under their game, in the registry's order;
    a game with no entry is left out."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        grouped.setdefault(patience.rules_of(entry["variant"]).slug, []).append(entry)
    return [{**named_game(game), "entries": grouped[game.slug]}
            for game in patience.GAMES.values() if game.slug in grouped]


def history_charts(variant: str, name: str, rates: dict[str, list[charts.Rate]],
                   bests: dict[str, list[charts.Best]]) -> list[charts.Chart]:
    return [
        charts.rate_bars(f"chart-{variant}-weeks",
                         gettext("%(name)s: win rate by week") % {"name": name},
                         rates.get(variant, []),
                         empty=ngettext("No ranked %(name)s played in the last %(count)s week.",
                                        "No ranked %(name)s played in the last %(count)s weeks.",
                                        chart_data.WEEKS) % {
                             "name": name, "count": chart_data.WEEKS}),
        charts.best_line(f"chart-{variant}-months",
                         gettext("%(name)s: best time by month") % {"name": name},
                         bests.get(variant, []),
                         empty=ngettext("No ranked %(name)s won in the last %(count)s month.",
                                        "No ranked %(name)s won in the last %(count)s months.",
                                        chart_data.MONTHS) % {
                             "name": name, "count": chart_data.MONTHS}),
    ]


def month_links(month: date) -> dict[str, date | None]:
    """The months either side of the shown one (no next month past this one), and today."""
    first, following = boards.month_bounds(month)
    previous = (first - timedelta(days=1)).replace(day=1)
    return {"previous_month": previous, "today": today(),
            "next_month": following if following <= today() else None}


def first_weekday() -> int:
    """The language's first day of the week as Python's calendar counts (Monday 0): Django's
    FIRST_DAY_OF_WEEK counts from Sunday (0), Monday in Russian and Finnish."""
    return (int(get_format("FIRST_DAY_OF_WEEK")) - 1) % 7


def weekdays() -> list[dict[str, str]]:
    """The calendar's column heads in the language, from its first day of the week."""
    first = first_weekday()
    return [{"name": str(WEEKDAYS[(first + index) % 7]),
             "short": str(WEEKDAYS_ABBR[(first + index) % 7])} for index in range(7)]


def month_grid(month: date, played: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Weeks (from the language's first weekday) of day cells: each a date and the daily
    played on it, if any."""
    by_date = {entry["date"]: entry for entry in played}
    weeks = calendar.Calendar(first_weekday()).monthdatescalendar(month.year, month.month)
    return [[{"day": cell.day if cell.month == month.month else None, "date": cell,
              "played": by_date.get(cell.isoformat()) if cell.month == month.month else None}
             for cell in week] for week in weeks]
