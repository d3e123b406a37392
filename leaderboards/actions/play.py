"""Playing a daily: the ranked attempt on today's deal, and replays of past ones.

A logged-in player's attempt on today's daily is ranked: one per player, variant
and day, which the database's unique constraint guarantees even when two requests
race (the loser's insert fails and it returns the winner's game). Nobody else plays
today's deal until its day is over; then everyone may replay it unranked from the
archive. The daily itself comes from the caller (``preparing.todays_daily`` reads or
has it made), so writing never waits on the solver.
"""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext, gettext_lazy

from game import actions as game_actions
from game.actions import NotAllowedNow, Player
from game.events import best_effort

from .. import events
from ..days import day_end, day_start, is_over, today
from ..fairplay import Client
from ..models import Daily
from . import attempts, stats
from .checks import LogInFirst, NotYetEligible

Payload = dict[str, Any]

VISITORS_REFUSED = gettext_lazy(
    "log in to play today's daily: it is played only as your one ranked attempt. "
    "Meanwhile play a free deal, or a past daily from the archive"
)


def do_play_today(
    player: Player, daily: Daily, client: Client | None = None
) -> tuple[Payload, bool]:
    """Start or resume the player's ranked game on today's daily: (game payload, created).

    Today's deal reaches a person only through their own ranked attempt: a visitor, or
    an account made after the day opened (a fresh second account would read the deal
    and feed it to the first), is refused until the day is over and the deal is an
    archive deal. ``client`` (the request's device and address) goes on the attempt for
    the fair-play check.
    """
    if daily.date != today():
        raise NotAllowedNow(gettext(
            "only today's daily is played ranked; past ones are replayed"))
    user_id = check_may_play(player, daily)
    return _play_ranked(user_id, daily, client or Client())


def check_may_play(player: Player, daily: Daily) -> int:
    """The player's user id if they may play ``daily`` ranked; else a 403 that says why."""
    if player.user_id is None:
        raise LogInFirst(str(VISITORS_REFUSED))
    opens = first_ranked_day_opens(player.user_id, daily)
    if opens is not None:
        raise NotYetEligible(gettext(
            "your account is newer than today's daily: your first ranked daily opens "
            "at %(opens)s UTC. Meanwhile play a free deal, or a past daily from the archive"
        ) % {"opens": f"{opens:%Y-%m-%d %H:%M}"})
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
    if (joined and joined[0] < opened) or attempts.ranked_game_id(daily, user_id) is not None:
        return None
    return day_end(daily.date)


def do_replay(player: Player, daily: Daily) -> Payload:
    """A new unranked game on a past day's deal (the archive)."""
    if not is_over(daily.date):
        raise NotAllowedNow(gettext(
            "today's daily opens as an archive deal when its day is over"))
    with transaction.atomic():
        return attempts.new_attempt(player, daily, ranked=False)


def _play_ranked(user_id: int, daily: Daily, client: Client) -> tuple[Payload, bool]:
    player = Player(user_id=user_id)
    found = attempts.ranked_game_id(daily, user_id)
    if found is not None:
        return game_actions.show_game(found, player), False
    try:
        with transaction.atomic():
            payload = attempts.new_attempt(player, daily, ranked=True, client=client)
            stats.count_start(user_id, daily)
    except IntegrityError:
        # A concurrent request made the attempt first: theirs is the one.
        found = attempts.ranked_game_id(daily, user_id)
        if found is None:
            raise
        return game_actions.show_game(found, player), False
    transaction.on_commit(best_effort(partial(events.send_attempt, payload["id"])))
    return payload, True
