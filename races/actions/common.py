"""What every race action shares: its errors, finding and locking a race, the player's entry."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import partial
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from game.actions import ActionError, BadRequest, NotAllowedNow, NotYours, Player
from game.events import best_effort

from .. import events
from ..models import Entry, Race

Payload = dict[str, Any]
CODE = re.compile(r"[A-Za-z0-9_-]{1,16}")


class RaceNotFound(ActionError):
    status = 404


class LogInFirst(ActionError):
    status = 403


class TooManyRaces(ActionError):
    """Past the room allowance (races.limits): ``wait`` seconds until the next room."""

    status = 429

    def __init__(self, message: str, wait: int) -> None:
        super().__init__(message)
        self.wait = wait


class NoDealReady(ActionError):
    """No winnable deal could be proved in time (a rare, passing state): try again."""

    status = 503


__all__ = ["BadRequest", "NotAllowedNow", "NotYours"]


def changed(race: Race) -> None:
    """Once committed, every socket of the room reads it afresh."""
    transaction.on_commit(best_effort(partial(events.send_room, race.code)))


def check_code(code: object) -> str:
    if not isinstance(code, str) or not CODE.fullmatch(code):
        raise RaceNotFound(gettext("there is no such race"))
    return code


def get_race(code: object) -> Race:
    race = Race.objects.select_related("owner").filter(code=check_code(code)).first()
    if race is None:
        raise RaceNotFound(gettext("there is no such race"))
    return race


def lock_race(code: object) -> Race:
    """The race's row, locked until the transaction ends: one writer per room. The only
    lock order is race, then its games (never a game, then its race: the game's hook
    defers its race work until the game's write has committed)."""
    race = Race.objects.select_for_update().filter(code=check_code(code)).first()
    if race is None:
        raise RaceNotFound(gettext("there is no such race"))
    return race


def my_entry(race: Race, player: Player) -> Entry | None:
    if player.user_id is not None:
        return race.entries.filter(user_id=player.user_id).first()
    if player.anon_token:
        return race.entries.filter(user=None, anon_token=player.anon_token).first()
    return None


def check_in_race(race: Race, player: Player) -> Entry:
    """The player's entry, still in the race; 403 for anyone else."""
    entry = my_entry(race, player)
    if entry is None or entry.left_at is not None:
        raise NotYours(gettext("you are not in this race"))
    return entry


def check_owner(race: Race, player: Player) -> None:
    if player.user_id is None or player.user_id != race.owner_id:
        raise NotYours(gettext("only the race's owner can do that"))


def check_body(data: object) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise BadRequest(gettext("send a JSON object"))
    return data


def check_bool(data: Mapping[str, Any], key: str, default: bool | None = None) -> bool | None:
    """A true/false field; absent or null: ``default``."""
    value = data.get(key)
    if value is None:
        return default
    if type(value) is not bool:
        raise BadRequest(gettext('"%(key)s" must be true or false') % {"key": key})
    return value
