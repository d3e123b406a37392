"""The races' actions: check_* (parse, authorise) and do_* (write), the only writers of
this app's tables, each under the race's row lock, live events on commit.

* ``rooms``: the lobby (``Race`` made, options, closed; ``Entry`` joined, ready, left)
* ``running``: the start, give-up, the end and places; connects ``race_progress`` to
  ``game.hooks.game_stored``
* ``after``: the rematch, the replays
* ``pool``: ``PooledDeal`` (seeds proved winnable, kept ahead)
"""

from game.actions import ActionError, Player

from ..models import Race
from ..payloads import room_payload
from .after import do_rematch, replay_of
from .common import (
    LogInFirst,
    NoDealReady,
    Payload,
    RaceNotFound,
    TooManyRaces,
    check_code,
    get_race,
    my_entry,
)
from .pool import do_fill_pool, pool_variants
from .rooms import (
    check_new_race,
    do_adopt_entries,
    do_close_if_abandoned,
    do_create_race,
    do_join,
    do_leave,
    do_options,
    do_ready,
)
from .running import do_finish_race, do_give_up, do_start, finish_if_due


def fresh(race: Race) -> Race:
    """The race after the lazy checks of a read: past its time limit it ends, a lobby
    nobody has open closes."""
    finish_if_due(race)
    do_close_if_abandoned(race)
    return race


def show_room(code: object, player: Player) -> Payload:
    return room_payload(fresh(get_race(code)), player)


__all__ = [
    "ActionError", "LogInFirst", "NoDealReady", "Player", "RaceNotFound", "TooManyRaces",
    "check_code", "check_new_race", "do_adopt_entries", "do_close_if_abandoned", "do_create_race",
    "do_fill_pool", "do_finish_race", "do_give_up", "do_join", "do_leave", "do_options",
    "do_ready", "do_rematch", "do_start", "fresh", "get_race", "my_entry", "pool_variants",
    "replay_of", "show_room",
]
