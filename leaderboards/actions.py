"""Daily attempts: check_* (parse, authorise) and do_* (write), as in game.actions.

Games are created through game.actions; an Attempt row ties each to its
daily. A logged-in player's attempt on today's daily is ranked: one per
player, variant and day, which the database's unique constraint guarantees
even when two requests race (the loser's insert fails and it returns the
winner's game). Nobody else plays today's deal until its day is over; then everyone
may replay it unranked from the archive.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Avg, Count, Q
from django.utils import timezone

from game import actions as game_actions
from game.actions import ActionError, BadRequest, GameNotFound, NotAllowedNow, Player
from game.events import best_effort
from game.models import Status
from patience.tomb import VARIANTS, Variant, get_variant
from solver_worker.rating import BANDS

from . import dailies, events, fairplay, preparing
from .boards import ALL_TIME_BOARDS
from .days import day_end, day_start, is_over, parse_day, today
from .fairplay import Client
from .models import Attempt, BandCheck, Daily, PlayerStats, Review, Standing

Payload = dict[str, Any]
MAX_PAGE = 10_000


class DailyNotReady(ActionError):
    """Today's daily is still being screened: try again shortly. ``progress`` says how far
    the maker has got (dailies.progress)."""

    status = 503

    def __init__(self, message: str, progress: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.progress = progress or {}


class LogInFirst(ActionError):
    status = 403


class NotYetEligible(ActionError):
    """An account newer than today's daily: its first ranked daily is tomorrow's."""

    status = 403


VISITORS_REFUSED = (
    "log in to play today's daily: it is played only as your one ranked attempt. "
    "Meanwhile play a free deal, or a past daily from the archive"
)


# -- checks ---------------------------------------------------------------

def check_variant(value: object) -> Variant:
    return game_actions.check_variant(value)


def check_day(value: object) -> date:
    """A day that has a daily to show: today or before (the future stays secret)."""
    try:
        day = parse_day(str(value))
    except ValueError as error:
        raise BadRequest("a day is written YYYY-MM-DD, e.g. 2026-11-29") from error
    if day > today():
        raise GameNotFound("that day's daily is not out yet")
    return day


def check_past_day(value: object) -> date:
    day = check_day(value)
    if not is_over(day):
        raise NotAllowedNow("today's daily opens as an archive deal when its day is over")
    return day


def variant_slugs() -> list[str]:
    return list(VARIANTS)


def check_board(value: object) -> str:
    """One of the all-time boards by name."""
    if value not in ALL_TIME_BOARDS:
        raise BadRequest("the boards are wins, win-rate and streak")
    return str(value)


def check_page(value: object) -> int:
    text = str(value if value is not None else "1")
    # isdigit() alone lets "²" and other Unicode digits through, which int() refuses.
    if not (text.isascii() and text.isdigit() and len(text) <= 5) or not 1 <= int(text) <= MAX_PAGE:
        raise BadRequest(f"page must be a whole number from 1 to {MAX_PAGE}")
    return int(text)


FIRST_MONTH, LAST_MONTH = date(1900, 1, 1), date(2999, 12, 1)


def check_month(value: object) -> date:
    """A month as YYYY-MM (its first day); none means this month."""
    if not value:
        return today()
    try:
        month = parse_day(f"{value}-01")
    except ValueError as error:
        raise BadRequest("month is written YYYY-MM, e.g. 2026-11") from error
    # The calendar links the months either side: year 1 or 9999 would overflow the dates.
    if not FIRST_MONTH <= month <= LAST_MONTH:
        raise BadRequest(f"month must lie between {FIRST_MONTH:%Y-%m} and {LAST_MONTH:%Y-%m}")
    return month


def check_logged_in(player: Player) -> int:
    if player.user_id is None:
        raise LogInFirst("log in to keep daily statistics")
    return player.user_id


# -- the dailies ------------------------------------------------------------

PREPARING = "today's deal is being prepared: the solver is proving it winnable"


def todays_daily(variant: Variant) -> Daily:
    """Today's daily; never screened here: a missing one is handed to the background
    maker (preparing.prepare) and the request answers at once with DailyNotReady."""
    day = today()
    daily = Daily.objects.filter(date=day, variant=variant.slug).first()
    if daily is not None:
        return daily
    preparing.prepare(day, variant.slug)
    # The unit layer's eager task has made it by now; elsewhere it is under way.
    daily = Daily.objects.filter(date=day, variant=variant.slug).first()
    if daily is None:
        raise DailyNotReady(PREPARING, dailies.progress(day, variant.slug))
    return daily


def daily_of(day: date, variant: Variant) -> Daily:
    if day == today():
        return todays_daily(variant)
    daily = Daily.objects.filter(date=day, variant=variant.slug).first()
    if daily is None:
        raise GameNotFound(f"there was no {variant.name} daily on {day}")
    return daily


# -- playing ------------------------------------------------------------------

def do_play_today(
    player: Player, variant: Variant, client: Client | None = None
) -> tuple[Payload, bool]:
    """Start or resume the player's ranked game on today's daily: (game payload, created).

    Today's deal reaches a person only through their own ranked attempt: a visitor, or
    an account made after the day opened (a fresh second account would read the deal
    and feed it to the first), is refused until the day is over and the deal is an
    archive deal. ``client`` (the request's device and address) goes on the attempt for
    the fair-play check.
    """
    daily = todays_daily(variant)
    user_id = check_may_play(player, daily)
    return _play_ranked(user_id, daily, client or Client())


def check_may_play(player: Player, daily: Daily) -> int:
    """The player's user id if they may play ``daily`` ranked; else a 403 that says why."""
    if player.user_id is None:
        raise LogInFirst(VISITORS_REFUSED)
    opens = first_ranked_day_opens(player.user_id, daily)
    if opens is not None:
        raise NotYetEligible(
            f"your account is newer than today's daily: your first ranked daily opens "
            f"at {opens:%Y-%m-%d %H:%M} UTC. Meanwhile play a free deal, or a past daily "
            "from the archive"
        )
    return player.user_id


def play_status(player: Player, daily: Daily) -> Payload:
    """May the player start today's daily, and if not, why and from when (for the pages)."""
    try:
        check_may_play(player, daily)
    except (LogInFirst, NotYetEligible) as refusal:
        opens = None if player.user_id is None else first_ranked_day_opens(player.user_id, daily)
        return {"allowed": False, "reason": refusal.message, "opens_at": opens}
    return {"allowed": True, "reason": "", "opens_at": None}


def first_ranked_day_opens(user_id: int, daily: Daily) -> datetime | None:
    """When a player made after ``daily`` opened may first play ranked; None if they may now.

    A player who has an attempt on it already (made before this rule) keeps it.
    """
    joined = get_user_model().objects.filter(pk=user_id).values_list("date_joined", flat=True)
    opened = day_start(daily.date)
    if (joined and joined[0] < opened) or _ranked_game_id(daily, user_id) is not None:
        return None
    return day_end(daily.date)


def do_replay(player: Player, variant: Variant, day: date) -> Payload:
    """A new unranked game on a past day's deal (the archive)."""
    daily = daily_of(day, variant)
    with transaction.atomic():
        return _new_attempt(player, daily, ranked=False)


def _play_ranked(user_id: int, daily: Daily, client: Client) -> tuple[Payload, bool]:
    player = Player(user_id=user_id)
    found = _ranked_game_id(daily, user_id)
    if found is not None:
        return game_actions.show_game(found, player), False
    try:
        with transaction.atomic():
            payload = _new_attempt(player, daily, ranked=True, client=client)
            _count_start(user_id, daily)
    except IntegrityError:
        # A concurrent request made the attempt first: theirs is the one.
        found = _ranked_game_id(daily, user_id)
        if found is None:
            raise
        return game_actions.show_game(found, player), False
    transaction.on_commit(best_effort(partial(events.send_attempt, payload["id"])))
    return payload, True


def _new_attempt(
    player: Player, daily: Daily, *, ranked: bool, client: Client | None = None
) -> Payload:
    payload = game_actions.do_create_game(
        player, get_variant(daily.variant), daily.deal(), ranked=ranked,
        closes_at=day_end(daily.date) if ranked else None, daily_date=daily.date,
    )
    fields: dict[str, Any] = {}
    if ranked and client is not None:
        fields = _fair_play_start(daily, player.user_id, client)
    Attempt.objects.create(
        daily=daily, game_id=payload["id"], user_id=player.user_id, ranked=ranked, **fields
    )
    return payload


def _fair_play_start(daily: Daily, user_id: int | None, client: Client) -> dict[str, Any]:
    """The hashes a ranked attempt keeps, and its flags when another account already
    played this daily from the same device or address.

    The earlier accounts' results are held too: the scout may start second (the main
    account opens its attempt, makes no move, and waits for the scout's stock), so
    which account came first tells nothing. A result an admin already decided stays."""
    device, address = client.device_hash(), client.address_hash()
    fields: dict[str, Any] = {"device_hash": device, "address_hash": address}
    same = fairplay.same_client(device, address)
    if same is None:
        return fields
    others = list(
        Attempt.objects.filter(same, daily=daily, ranked=True).exclude(user_id=user_id)
        .values("id", "device_hash", "address_hash", "flags", "review")
    )
    pairs = [(other["device_hash"], other["address_hash"]) for other in others]
    reasons = fairplay.shared_reasons(device, address, pairs)
    if reasons:
        fields.update(flags=" ".join(reasons), review=Review.PENDING)
        _hold_the_others(others, device, address, daily.variant)
    return fields


def _hold_the_others(others: list[dict[str, Any]], device: str, address: str,
                     variant: str) -> None:
    """Flag the earlier attempts this start shares a device or an address with."""
    held = 0
    for other in others:
        if other["review"] != Review.NONE:
            continue  # already held, or decided by an admin
        flags = other["flags"]
        for reason in fairplay.shared_reasons(other["device_hash"], other["address_hash"],
                                              [(device, address)]):
            flags = fairplay.add_flag(flags, reason)
        Attempt.objects.filter(pk=other["id"]).update(flags=flags, review=Review.PENDING)
        held += 1
    if held:  # they may be in the live field now: watchers get a fresh picture
        transaction.on_commit(best_effort(partial(events.send_field, variant)))


def _ranked_game_id(daily: Daily, user_id: int) -> Any:
    return (
        Attempt.objects.filter(daily=daily, user_id=user_id, ranked=True)
        .values_list("game_id", flat=True).first()
    )


def _count_start(user_id: int, daily: Daily) -> None:
    """A ranked daily played: a game in the statistics, and the days-played-in-a-row
    streak goes on or restarts (the won streak moves when the game ends: results)."""
    stats, _ = PlayerStats.objects.select_for_update().get_or_create(
        user_id=user_id, variant=daily.variant
    )
    if stats.last_played != daily.date:
        follows = stats.last_played is not None and (daily.date - stats.last_played).days == 1
        stats.played_streak = stats.played_streak + 1 if follows else 1
        stats.best_played_streak = max(stats.best_played_streak, stats.played_streak)
        stats.last_played = daily.date
    stats.games += 1
    stats.win_rate = stats.wins / stats.games
    stats.save()


# -- admin: the fair-play review --------------------------------------------------

def do_review(attempt_ids: list[int], decision: str, by: str = "") -> int:
    """Decide flagged results awaiting review: ``cleared`` puts them on the boards and
    the live field; ``unranked`` marks their players unranked (Standing). Returns how
    many results were decided."""
    if decision not in (Review.CLEARED, Review.UNRANKED):
        raise BadRequest("a review is decided cleared or unranked")
    with transaction.atomic():
        pending = Attempt.objects.select_for_update().filter(
            pk__in=attempt_ids, review=Review.PENDING)
        rows = list(pending.values_list("game_id", "user_id"))
        Attempt.objects.filter(pk__in=attempt_ids, review=Review.PENDING).update(review=decision)
        if decision == Review.UNRANKED:
            users = sorted({user_id for _, user_id in rows if user_id is not None})
            do_set_unranked(users, True, f"fair-play review {by}".strip())
        else:
            for game_id, _ in rows:
                transaction.on_commit(best_effort(partial(events.send_attempt, str(game_id))))
    return len(rows)


def do_forget_addresses(days: int | None = None) -> int:
    """Blank the address hashes of attempts older than the retention (settings
    ATTEMPT_ADDRESS_RETENTION_DAYS); returns how many were blanked."""
    keep = settings.ATTEMPT_ADDRESS_RETENTION_DAYS if days is None else days
    cutoff = timezone.now() - timedelta(days=keep)
    return Attempt.objects.filter(created_at__lt=cutoff).exclude(address_hash="").update(
        address_hash="")


# -- admin: a player's standing ------------------------------------------------

def do_set_unranked(user_ids: list[int], unranked: bool, reason: str = "") -> int:
    """Hide players from (or show them again on) every board and the live field.

    Their games, attempts and statistics stay as they are, so marking them
    ranked again restores their places. Returns how many players were set.
    """
    with transaction.atomic():
        for user_id in user_ids:
            Standing.objects.update_or_create(
                user_id=user_id, defaults={"unranked": unranked, "reason": reason}
            )
    return len(user_ids)


# -- the bands against the real players ----------------------------------------

def do_compare_bands() -> list[BandCheck]:
    """Rewrite the band checks: per variant and band, the dailies' mean rating beside
    the real players' win rate on them (finished ranked attempts, won / played; a
    result held for review counts too: it is a real player's game). Two grouped
    queries and one write, whatever the number of dailies."""
    rated = (Daily.objects.exclude(band="").values("variant", "band")
             .annotate(dailies=Count("id"), mean=Avg("rating")))
    results = {
        (row["daily__variant"], row["daily__band"]): row
        for row in Attempt.objects.filter(ranked=True).exclude(status=Status.PLAYING)
        .values("daily__variant", "daily__band")
        .annotate(played=Count("id"), won=Count("id", filter=Q(status=Status.WON)))
    }
    checks = []
    for row in sorted(rated, key=lambda row: (row["variant"], BANDS.index(row["band"]))):
        played = results.get((row["variant"], row["band"]), {})
        checks.append(BandCheck(
            variant=row["variant"], band=row["band"], dailies=row["dailies"],
            rating=None if row["mean"] is None else round(row["mean"], 4),
            played=played.get("played", 0), won=played.get("won", 0),
        ))
    with transaction.atomic():
        BandCheck.objects.all().delete()
        BandCheck.objects.bulk_create(checks)
    return checks
