"""The race itself: the start, each game's progress, give-up, and the end with its places.

The end comes three ways, all through ``do_finish_race`` (idempotent, under the race's
row lock): every player done (won, stuck, gave up or left: checked when a game ends,
once its write has committed), the time limit (a task at ``ends_at``, a timer in
each open socket, and a lazy check on every read), whichever comes first.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext

from game import actions as game_actions
from game.actions import ActionError, NotAllowedNow, Player
from game.clock import elapsed_ms
from game.events import best_effort
from game.hooks import game_stored, quick_write
from game.models import Game, Status
from patience import rules_of

from .. import events
from ..models import Entry, Race, State
from ..payloads import active, entries_of, room_payload, running_time
from . import pool
from .common import Payload, changed, check_in_race, check_owner, lock_race

log = logging.getLogger(__name__)


# -- the start ----------------------------------------------------------------------

def check_may_start(race: Race, player: Player, entries: list[Entry]) -> None:
    check_owner(race, player)
    if race.state != State.LOBBY:
        raise NotAllowedNow(gettext("this race has started already")
                            if race.state == State.RUNNING else gettext("this race is over"))
    if len(entries) < 2:
        raise NotAllowedNow(gettext("a race needs at least two players"))
    waiting = [entry.name for entry in entries
               if not entry.ready and entry.user_id != race.owner_id]
    if waiting:
        raise NotAllowedNow(gettext("not everyone is ready: %(names)s") % {
            "names": ", ".join(waiting)})


def do_start(code: object, player: Player) -> Payload:
    """Deal every player the same proved deal; their clocks start after the countdown."""
    with transaction.atomic():  # refuse at once, before a deal is looked for
        race = lock_race(code)
        check_may_start(race, player, active(list(race.entries.all())))
    seed = pool.deal_seed(race.variant)
    try:
        with transaction.atomic():
            race = lock_race(code)
            entries = active(list(race.entries.all()))
            check_may_start(race, player, entries)
            _start(race, entries, seed)
            return room_payload(race, player)
    except ActionError:
        pool.do_return_seed(race.variant, seed)
        raise


def _start(race: Race, entries: list[Entry], seed: int) -> None:
    starts = timezone.now() + timedelta(seconds=settings.RACE_COUNTDOWN_SECONDS)
    ends = starts + timedelta(minutes=race.minutes)
    rules = rules_of(race.variant)
    deal = rules.deal_from_seed(seed)
    for entry in entries:
        owner = (Player(user_id=entry.user_id) if entry.user_id is not None
                 else Player(anon_token=entry.anon_token))
        game = game_actions.do_create_game(owner, rules.variants[race.variant], deal, race=True,
                                           closes_at=ends, started_at=starts)
        entry.game_id = game["id"]
        entry.save(update_fields=["game"])
    race.state, race.seed, race.cards = State.RUNNING, seed, " ".join(deal.texts)
    race.starts_at, race.ends_at = starts, ends
    race.save(update_fields=["state", "seed", "cards", "starts_at", "ends_at"])
    changed(race)
    transaction.on_commit(best_effort(partial(_ask_worker, race.code, race.variant, ends)))


def _ask_worker(code: str, variant: str, ends: datetime) -> None:
    """With a worker: end the race at its time limit, and screen a deal for the next.
    The embedded default has none (tasks would run now, inside the request): there the
    sockets' timers and the reads end the race, and Start screens its own deal."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    current_app.send_task("races.finish_race", args=[code], eta=ends)
    current_app.send_task("races.fill_pool", args=[variant])


# -- during the race -------------------------------------------------------------

def do_give_up(code: object, player: Player) -> Payload:
    with transaction.atomic():
        race = lock_race(code)
        entry = check_in_race(race, player)
        if race.state != State.RUNNING or entry.game_id is None:
            raise NotAllowedNow(gettext("there is no race running to give up"))
        if entry.gave_up:
            raise NotAllowedNow(gettext("you have given up already"))
        if Game.objects.filter(pk=entry.game_id, status=Status.WON).exists():
            raise NotAllowedNow(gettext("you have won: there is nothing to give up"))
        now = timezone.now()
        entry.gave_up = True
        entry.save(update_fields=["gave_up"])
        game_actions.do_close_games([entry.game_id], now)
        finish_if_done(race, now)
        changed(race)
        return room_payload(race, player)


# A race game's entry never changes: each process keeps the last few thousand, so a race
# move costs no query of this app's.
_ENTRIES: dict[Any, tuple[int, str]] = {}
_ENTRIES_KEPT = 4096


def entry_of_game(game_id: Any) -> tuple[int, str] | None:
    """(entry id, race code) of a race game; None for a game in no race."""
    found = _ENTRIES.get(game_id)
    if found is None:
        row = Entry.objects.filter(game_id=game_id).values_list("id", "race__code").first()
        if row is None:
            return None
        if len(_ENTRIES) >= _ENTRIES_KEPT:
            _ENTRIES.clear()
        found = _ENTRIES[game_id] = (row[0], row[1])
    return found


@receiver(game_stored, dispatch_uid="races.race_progress")
def race_progress(
    sender: Any, game: Game, action: str, at: datetime, before_home: int, before_status: str,
    **kwargs: Any,
) -> None:
    """A race game was written: once committed, the room hears its figures; a game that
    just ended may end the race. Free play and dailies cost nothing here."""
    if not game.race:
        return
    found = entry_of_game(game.id)
    if found is None:
        return
    entry_id, code = found
    progress = _progress(entry_id, game, at)
    transaction.on_commit(best_effort(partial(events.send_progress, code, progress)))
    if game.status != before_status and game.status != Status.PLAYING:
        # After the commit, in a transaction of its own: the race's lock is never taken
        # under a game's (the one lock order is race, then game).
        transaction.on_commit(best_effort(partial(end_if_done, code)))


def _progress(entry_id: int, game: Game, at: datetime) -> dict[str, Any]:
    # The game's version orders a player's figures: the room's sockets drop older ones
    # that arrive late (the browser never sees it: races.consumers).
    return {"player": entry_id, "home": game.home, "moves": game.moves,
            "status": {"won": "won", "lost": "stuck"}.get(game.status, "playing"),
            "time_ms": elapsed_ms(game.started_at, at), "version": game.version}


def _quick_allowed(game: Game) -> bool:
    """A quick move (game.hooks) needs no query here: a race game's entry is kept
    already (its first move in this process takes the locked path, which keeps it)."""
    return not game.race or game.id in _ENTRIES


def race_moved_quickly(game: Game, at: datetime, **kwargs: Any) -> None:
    """A race game's quick move committed (on the event loop): the room hears its figures
    (held by the acting socket, coalesced per room: races.events)."""
    found = _ENTRIES.get(game.id) if game.race else None
    if found is not None:
        events.send_progress(found[1], _progress(found[0], game, at))


def _read_entry(game: Game) -> None:
    """A board opens on a race game: its entry is read now, so its first move is quick."""
    if game.race:
        entry_of_game(game.id)


quick_write("races.race_progress", _quick_allowed, race_moved_quickly, _read_entry)


# -- the end ---------------------------------------------------------------------

def all_done(entries: list[Entry]) -> bool:
    return all(entry.left_at is not None or entry.gave_up
               or entry.game is None or entry.game.status != Status.PLAYING
               for entry in entries if entry.game_id is not None)


def finish_if_done(race: Race, now: datetime) -> bool:
    """Inside a race action (race locked): end it if every player is done."""
    if race.state != State.RUNNING:
        return False
    entries = entries_of(race)
    if not all_done(entries):
        return False
    _finish(race, entries, now)
    return True


def do_finish_race(code: object) -> bool:
    """End the race if it is due (time limit) or everyone is done; True if it ended now.
    Idempotent: safe from the task, the sockets' timers and every read at once."""
    with transaction.atomic():
        race = lock_race(code)
        now = timezone.now()
        if race.state != State.RUNNING:
            return False
        if race.ends_at is not None and now >= race.ends_at:
            _finish(race, entries_of(race), race.ends_at)
            return True
        return finish_if_done(race, now)


def end_if_done(code: str) -> None:
    """After a race game ended: the race too, if that was its last player."""
    do_finish_race(code)


def finish_if_due(race: Race) -> Race:
    """The lazy check of every read: a race past its time limit ends now."""
    if race.state == State.RUNNING and race.ends_at is not None and \
            timezone.now() >= race.ends_at:
        do_finish_race(race.code)
        race.refresh_from_db()
    return race


NO_TIME = 2**31  # a player who never moved has no time: after those who did


def rank_key(entry: Entry) -> tuple[int, int, int, int]:
    """Won before not won, then cards home (more first), then time, then moves."""
    game = entry.game
    assert game is not None
    time_ms = running_time(game) if game.moves else NO_TIME
    return (0 if game.status == Status.WON else 1, -game.home, time_ms, game.moves)


def _finish(race: Race, entries: list[Entry], at: datetime) -> None:
    playing = [entry for entry in entries if entry.game_id is not None]
    for place, entry in enumerate(sorted(playing, key=rank_key), start=1):
        entry.place, entry.time_ms = place, running_time(entry.game)
        entry.save(update_fields=["place", "time_ms"])
    race.state, race.finished_at = State.FINISHED, at
    race.save(update_fields=["state", "finished_at"])
    game_actions.do_close_games([entry.game_id for entry in playing], at)
    changed(race)
