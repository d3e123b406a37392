"""Reading the daily challenge: day boards, all-time boards, statistics, the field, share text.

Every page is a fixed number of queries, whatever the number of results:
the day's board reads one page off the ``day_board`` index (fetching one row
more than the page to know whether another follows, instead of counting),
and the all-time boards read PlayerStats, which the writes keep up to date.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils import dateformat
from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy

from game.actions import Player
from game.clock import game_time_ms
from game.models import Game, Status
from game.names import game_name, variant_name
from patience import rules_of
from solver_worker import rating

from .days import day_end, is_over, today
from .models import Attempt, Daily, PlayerStats, Review

Payload = dict[str, Any]
BOARD_ORDER = ("-home", "assisted", "time_ms", "moves", "id")
FIELD_LIMIT = 200  # the field shows the leading players; the board has them all
ALL_TIME_BOARDS = ("wins", "win-rate", "streak")
# Players an admin marked unranked (leaderboards.models.Standing) are on no board:
# a LEFT JOIN in the board's own query, so a page still costs one query.
UNRANKED_PLAYER = Q(user__standing__unranked=True)
# A flagged result awaiting an admin's review (leaderboards.fairplay) is on no day
# board and not in the field: a condition on the row itself, no extra query.
UNDER_REVIEW = Q(review=Review.PENDING)


def names(variant: str) -> Payload:
    """Who a variant's figures belong to, from the registry: its game's slug and name,
    its own name, and the cards that go home in a won game (52, 104, ...)."""
    rules = rules_of(variant)
    return {"game": rules.slug, "game_name": game_name(rules),
            "variant_name": variant_name(rules.variants[variant]), "card_count": rules.card_count}


def clock(ms: int) -> str:
    """4:12, or 1:04:12 past an hour."""
    minutes, seconds = divmod(ms // 1000, 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


# -- a day -----------------------------------------------------------------

def daily_info(daily: Daily) -> Payload:
    """A daily as anyone may see it: its order only once its day is over."""
    archived = is_over(daily.date)
    return {
        "date": daily.date.isoformat(),
        "variant": daily.variant,
        **names(daily.variant),
        "archived": archived,
        "closes": day_end(daily.date).isoformat(),
        "difficulty": daily.difficulty,
        "sampling_win_rate": daily.sampling_win_rate,
        **rating_info(daily),
        "cards": daily.deal().texts if archived else None,
    }


def is_rated(variant: str) -> bool:
    """The variant has calibrated difficulty bands (solver_worker/data/bands.json); a
    variant without them has its dailies screened winnable and shown "not rated"."""
    return variant in rating.shipped_bands().get("variants", {})


def rating_info(daily: Daily) -> Payload:
    """The daily's band and the measured win rate it stands for, in figures and words;
    ``rated`` says whether its variant has bands at all."""
    return {"band": daily.band or None, "rating": daily.rating,
            "rating_games": daily.rating_games, "rating_text": rating_text(daily),
            "rated": is_rated(daily.variant)}


# The difficulty bands (solver_worker.rating.BANDS) as players read them.
BAND_NAMES = {
    "easy": pgettext_lazy("difficulty", "easy"),
    "medium": pgettext_lazy("difficulty", "medium"),
    "hard": pgettext_lazy("difficulty", "hard"),
    "expert": pgettext_lazy("difficulty", "expert"),
}


def rating_text(daily: Daily) -> str | None:
    """"hard: our graded blind players won 12% of 124 games"; None until rated.

    A rate is never written as "0%": no win reads "none", a rate that rounds to
    0 reads "under 1%".
    """
    if daily.rating is None or not daily.band or not daily.rating_games:
        return None
    games = daily.rating_games
    wins = round(daily.rating * games)
    band = BAND_NAMES.get(daily.band)
    words = {"band": daily.band if band is None else str(band), "games": games,
             "share": round(100 * daily.rating)}
    if wins == 0:
        return ngettext("%(band)s: our graded blind players won none of %(games)s game",
                        "%(band)s: our graded blind players won none of %(games)s games",
                        games) % words
    if daily.rating < 0.005:
        return ngettext("%(band)s: our graded blind players won under 1%% of %(games)s game",
                        "%(band)s: our graded blind players won under 1%% of %(games)s games",
                        games) % words
    return ngettext("%(band)s: our graded blind players won %(share)s%% of %(games)s game",
                    "%(band)s: our graded blind players won %(share)s%% of %(games)s games",
                    games) % words


def field_entry(attempt: Attempt) -> Payload:
    """One player's progress: figures only, never a card."""
    return {
        "player": attempt.user.get_username() if attempt.user else "",
        "home": attempt.home,
        "status": attempt.status,
        "finished": attempt.finished,
        "time": clock(attempt.time_ms),
        "time_ms": attempt.time_ms,
        "moves": attempt.moves,
        "undos": attempt.undos,
        "hints": attempt.hints,
        "assisted": attempt.assisted,
    }


def _ranked(daily: Daily) -> QuerySet[Attempt]:
    return (
        Attempt.objects.filter(daily=daily, ranked=True)
        .exclude(UNRANKED_PLAYER).exclude(UNDER_REVIEW).select_related("user")
        .order_by(*BOARD_ORDER)
    )


def day_board(daily: Daily, page: int = 1) -> Payload:
    """A page of the day's board: cards home, unassisted first, time, moves."""
    size = settings.BOARD_PAGE_SIZE
    start = (page - 1) * size
    rows = list(_ranked(daily)[start:start + size + 1])
    return {
        "date": daily.date.isoformat(),
        "variant": daily.variant,
        "card_count": rules_of(daily.variant).card_count,
        "page": page,
        "next": page + 1 if len(rows) > size else None,
        "entries": [
            {"rank": start + number, **field_entry(attempt)}
            for number, attempt in enumerate(rows[:size], start=1)
        ],
    }


def field(variant: str) -> Payload:
    """Today's field: the live view's first picture (updates follow on the socket)."""
    day = today()
    return field_of(Daily.objects.filter(date=day, variant=variant).first(), day, variant)


def field_of(daily: Daily | None, day: date, variant: str) -> Payload:
    rows = [] if daily is None else list(_ranked(daily)[:FIELD_LIMIT])
    return {"date": day.isoformat(), "variant": variant,
            "card_count": rules_of(variant).card_count,
            "entries": [field_entry(attempt) for attempt in rows]}


def archive(variant: str, before: date | None = None, limit: int = 60) -> list[Payload]:
    """Past dailies, newest first."""
    dailies = Daily.objects.filter(variant=variant, date__lt=min(before or today(), today()))
    return [{"date": daily.date.isoformat(), "variant": daily.variant,
             "difficulty": daily.difficulty, **rating_info(daily)}
            for daily in dailies.order_by("-date")[:limit]]


def my_results(user_id: int | None, variant: str, days: list[str]) -> dict[str, Payload]:
    """The player's ranked results on the given days (ISO dates), by day: one query."""
    if user_id is None or not days:
        return {}
    rows = Attempt.objects.filter(
        user_id=user_id, ranked=True, daily__variant=variant, daily__date__in=days
    ).values("daily__date", "status", "home", "time_ms", "review")
    return {row["daily__date"].isoformat(): {
        "status": row["status"], "home": row["home"], "time": clock(row["time_ms"]),
        "under_review": row["review"] == Review.PENDING,
    } for row in rows}


# -- my game on a day ----------------------------------------------------------

def site_url(request: HttpRequest) -> str:
    """The site's public address for links that leave it: settings.SITE_URL, else the
    request's own scheme and host (behind a proxy, as its forwarded headers say)."""
    return settings.SITE_URL or request.build_absolute_uri("/").rstrip("/")


def day_link(daily: Daily, site: str) -> str:
    return site + reverse("daily-day", kwargs={
        "game": rules_of(daily.variant).slug, "variant": daily.variant,
        "day": daily.date.isoformat()})


def board_place(attempt: Attempt) -> tuple[int, int] | None:
    """(rank, players) of a ranked result on its day's board, in one query; None while it
    is under review or its player is unranked (they are on no board)."""
    if not attempt.ranked or attempt.under_review:
        return None
    same = Q(home=attempt.home)
    ahead = (Q(home__gt=attempt.home) | same & Q(assisted__lt=attempt.assisted)
             | (same & Q(assisted=attempt.assisted)) & (
                 Q(time_ms__lt=attempt.time_ms) | Q(time_ms=attempt.time_ms) & (
                     Q(moves__lt=attempt.moves) | Q(moves=attempt.moves, id__lt=attempt.pk))))
    counts = (Attempt.objects.filter(daily_id=attempt.daily_id, ranked=True)
              .exclude(UNRANKED_PLAYER).exclude(UNDER_REVIEW)
              .aggregate(ahead=Count("id", filter=ahead), players=Count("id"),
                         me=Count("id", filter=Q(pk=attempt.pk))))
    if not counts["me"]:  # an unranked player
        return None
    return counts["ahead"] + 1, counts["players"]


def my_attempt(daily: Daily, player: Player, site: str = "") -> Payload | None:
    """The player's game on the daily (the ranked one if logged in) with its share text:
    ``site`` (site_url) makes its link absolute."""
    attempts = Attempt.objects.filter(daily=daily).select_related("game")
    if player.user_id is not None:
        attempt = attempts.filter(user_id=player.user_id, ranked=True).first()
    elif player.anon_token:
        attempt = attempts.filter(game__owner=None, game__anon_token=player.anon_token).last()
    else:
        attempt = None
    if attempt is None:
        return None
    game = attempt.game
    time_ms = attempt_time_ms(attempt, game)
    checking = being_judged(attempt, game)  # no rank to share until the judge has read it
    return {
        "game": str(game.id), "ranked": attempt.ranked, "status": game.status,
        "home": game.home, "card_count": rules_of(daily.variant).card_count,
        "moves": game.moves, "hints": game.hints, "time": clock(time_ms),
        "share": share_text(daily, game, attempt.ranked, day_link(daily, site),
                            board_place(attempt)
                            if game.status != Status.PLAYING and not checking else None,
                            time_ms=time_ms),
        "under_review": attempt.under_review,
        "checking": checking,
    }


def being_judged(attempt: Attempt, game: Game) -> bool:
    """A ranked win the fair-play judge (leaderboards.judging) has not read yet."""
    return (attempt.ranked and game.status == Status.WON and attempt.clairvoyance is None
            and settings.FAIR_PLAY_REVIEW != "off" and not attempt.under_review)


def attempt_time_ms(attempt: Attempt, game: Game) -> int:
    """The one clock (game.clock): a ranked attempt keeps it move by move (up to its
    last move while still played); an unranked game's is its game's once finished."""
    return attempt.time_ms if attempt.ranked else game_time_ms(game)


def share_text(
    daily: Daily, game: Game, ranked: bool = True, link: str = "",
    place: tuple[int, int] | None = None, time_ms: int | None = None,
) -> str | None:
    """One line to paste, in words a screen reader reads well (no emoji), naming the game
    and variant: "Napoleon's Tomb classic daily 2026-12-01: won in 4:12, ..."; the rank
    once the result has one on the board, and a link to the day's board. None until
    finished. ``time_ms`` defaults to the game's own clock (game.clock)."""
    if game.status == Status.PLAYING:
        return None
    rules = rules_of(daily.variant)
    time = clock(game_time_ms(game) if time_ms is None else time_ms)
    if game.status == Status.WON:
        result = gettext("won in %(time)s") % {"time": time}
    else:
        result = ngettext("%(home)s of %(total)s card home in %(time)s",
                          "%(home)s of %(total)s cards home in %(time)s", rules.card_count) % {
            "home": game.home, "total": rules.card_count, "time": time}
    hints = gettext("no hints") if not game.hints else ngettext(
        "%(count)s hint", "%(count)s hints", game.hints) % {"count": game.hints}
    moves = ngettext("%(count)s move", "%(count)s moves", game.moves) % {"count": game.moves}
    # The date as the language writes it; English keeps the ISO date players already share.
    date_text = dateformat.format(daily.date, pgettext("share line date", "Y-m-d"))
    words = {"game": game_name(rules), "variant": variant_name(rules.variants[daily.variant]),
             "date": date_text, "result": result, "moves": moves, "hints": hints}
    text = _share_sentence(ranked, len(rules.variants) > 1) % words
    if place is not None:
        text = gettext("%(text)s, rank %(rank)s of %(size)s") % {
            "text": text, "rank": place[0], "size": place[1]}
    return f"{text}." + (" " + gettext("Board: %(link)s") % {"link": link} if link else "")


def _share_sentence(ranked: bool, named_variant: bool) -> str:
    """The share line's sentence: a game of one variant is named alone."""
    if named_variant:
        return (gettext("%(game)s %(variant)s daily %(date)s: %(result)s, %(moves)s, %(hints)s")
                if ranked else gettext("%(game)s %(variant)s daily %(date)s, unranked: "
                                       "%(result)s, %(moves)s, %(hints)s"))
    return (gettext("%(game)s daily %(date)s: %(result)s, %(moves)s, %(hints)s")
            if ranked else gettext("%(game)s daily %(date)s, unranked: "
                                   "%(result)s, %(moves)s, %(hints)s"))


# -- all-time boards -----------------------------------------------------------

def won_streak(stats: PlayerStats) -> int:
    """Days won in a row up to now: it goes on while yesterday's or today's daily was won,
    and ends on a missed day or a lost one (today's, once lost; unfinished, it may still
    be won)."""
    if stats.last_won is None or stats.last_won < today() - timedelta(days=1):
        return 0
    if stats.last_lost is not None and stats.last_lost > stats.last_won:
        return 0
    return stats.current_streak


def played_streak(stats: PlayerStats) -> int:
    """Days played in a row up to now: yesterday's or today's daily was played."""
    if stats.last_played is None or stats.last_played < today() - timedelta(days=1):
        return 0
    return stats.played_streak


def _stats_entry(stats: PlayerStats) -> Payload:
    return {
        "player": stats.user.get_username(),
        "games": stats.games,
        "wins": stats.wins,
        "win_rate": round(stats.win_rate, 4),
        "best_streak": stats.best_streak,
        "current_streak": won_streak(stats),
        "played_streak": played_streak(stats),
        "best_played_streak": stats.best_played_streak,
    }


def _all_time(variant: str, board: str) -> QuerySet[PlayerStats]:
    # A player with a result under review is held off this variant's boards until it
    # is decided (their figures count it already): a subquery in the same query.
    reviewed = Attempt.objects.filter(UNDER_REVIEW, daily__variant=variant).values("user_id")
    rows = (
        PlayerStats.objects.filter(variant=variant).exclude(UNRANKED_PLAYER)
        .exclude(user_id__in=reviewed).select_related("user")
    )
    if board == "wins":
        return rows.filter(wins__gt=0).order_by("-wins", "games", "user_id")
    if board == "win-rate":
        return rows.filter(games__gte=settings.BOARD_MIN_GAMES).order_by(
            "-win_rate", "-games", "user_id")
    return rows.filter(best_streak__gt=0).order_by("-best_streak", "user_id")


def all_time_board(variant: str, board: str, page: int = 1) -> Payload:
    size = settings.BOARD_PAGE_SIZE
    start = (page - 1) * size
    rows = list(_all_time(variant, board)[start:start + size + 1])
    return {
        "variant": variant, **names(variant), "board": board, "page": page,
        "next": page + 1 if len(rows) > size else None,
        "min_games": settings.BOARD_MIN_GAMES if board == "win-rate" else None,
        "entries": [{"rank": start + number, **_stats_entry(stats)}
                    for number, stats in enumerate(rows[:size], start=1)],
    }


# -- my statistics ------------------------------------------------------------

def month_bounds(month: date) -> tuple[date, date]:
    first = month.replace(day=1)
    return first, (first + timedelta(days=32)).replace(day=1)


def my_stats(user_id: int, variants: list[str], month: date) -> list[Payload]:
    """Per variant: ranked daily figures, free-play wins apart, and the month's calendar.

    Three queries whatever the number of variants or games.
    """
    rows = {row.variant: row for row in PlayerStats.objects.filter(user_id=user_id)}
    free = {row["variant"]: row for row in (
        Game.objects.filter(owner_id=user_id, seeded=False).values("variant")
        .annotate(games=Count("id"), wins=Count("id", filter=Q(status=Status.WON)))
    )}
    calendar = _calendar(user_id, month)
    return [
        _variant_stats(variant, rows.get(variant), free.get(variant, {}), calendar[variant])
        for variant in variants
    ]


def _variant_stats(
    variant: str, stats: PlayerStats | None, free: dict[str, int], days: list[Payload]
) -> Payload:
    stats = stats or PlayerStats(variant=variant)
    best = stats.best_time_ms
    return {
        "variant": variant,
        **names(variant),
        "games": stats.games,
        "wins": stats.wins,
        "win_rate": round(stats.win_rate, 4),
        "current_streak": won_streak(stats),
        "best_streak": stats.best_streak,
        "played_streak": played_streak(stats),
        "best_played_streak": stats.best_played_streak,
        "best_time": None if best is None else clock(best),
        "best_time_ms": best,
        "fewest_moves": stats.fewest_moves,
        "free_play_games": free.get("games", 0),
        "free_play_wins": free.get("wins", 0),
        "calendar": days,
    }


def _calendar(user_id: int, month: date) -> dict[str, list[Payload]]:
    first, after = month_bounds(month)
    played = (
        Attempt.objects.filter(user_id=user_id, ranked=True, daily__date__gte=first,
                               daily__date__lt=after)
        .order_by("daily__date")
        .values("daily__date", "daily__variant", "status", "home", "time_ms", "assisted",
                "review")
    )
    days: dict[str, list[Payload]] = defaultdict(list)
    for row in played:
        days[row["daily__variant"]].append({
            "date": row["daily__date"].isoformat(), "status": row["status"],
            "home": row["home"], "time": clock(row["time_ms"]), "assisted": row["assisted"],
            "under_review": row["review"] == Review.PENDING,
        })
    return days
