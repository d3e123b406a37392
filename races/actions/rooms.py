"""The lobby: open a room, join it, say ready, change its options, leave it, close it."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from accounts import actions as accounts
from accounts.skeleton import normal_form, skeleton
from game import actions as game_actions
from game.actions import BadRequest, NotAllowedNow, NotYours, Player

from .. import limits, presence
from ..models import MAX_PLAYERS, MINUTES, Entry, Race, State
from ..payloads import active, room_payload
from .common import (
    LogInFirst,
    Payload,
    TooManyRaces,
    changed,
    check_body,
    check_bool,
    check_in_race,
    check_owner,
    lock_race,
    my_entry,
)
from .running import finish_if_done

MAX_NAME = 24


# -- checks -----------------------------------------------------------------------

def check_logged_in(player: Player) -> int:
    if player.user_id is None:
        raise LogInFirst(gettext("log in to open a race"))
    return player.user_id


def check_minutes(value: object) -> int:
    if isinstance(value, bool) or value not in MINUTES:
        raise BadRequest(gettext("a race lasts 5, 10 or 15 minutes"))
    return int(value)  # type: ignore[call-overload,unused-ignore]


def check_new_race(data: object) -> tuple[Any, int, bool]:
    """(variant, minutes, visitors) of a new room's request."""
    body = check_body(data)
    variant = game_actions.check_variant(body.get("variant"), body.get("game"))
    minutes = check_minutes(body.get("minutes", MINUTES[0]))
    visitors = check_bool(body, "visitors", True)
    return variant, minutes, bool(visitors)


def check_name(value: object, entries: Sequence[Entry] = ()) -> str:
    """A visitor's display name: 1 to 24 printable characters, spaces trimmed, under the
    sign-up's rules (accounts.actions): shown on the race board beside account names, it
    must not pass for the site's staff, for an account, or for anyone in the room."""
    name = check_name_form(value)
    if accounts.is_reserved(name):
        raise BadRequest(gettext("that name is reserved: choose another"))
    if any(skeleton(entry.name) == skeleton(name) for entry in entries):
        raise BadRequest(gettext("someone in this race goes by that name, or one that "
                                 "looks like it: choose another"))
    if is_an_accounts_name(name):
        raise BadRequest(gettext("that name is an account's, or looks like one: choose "
                                 "another, or log in"))
    return name


def check_name_form(value: object) -> str:
    if not isinstance(value, str):
        raise BadRequest(gettext("give a name of 1 to %(max)s characters") % {"max": MAX_NAME})
    name = " ".join(value.split())
    if not 1 <= len(name) <= MAX_NAME or any(
            unicodedata.category(char).startswith("C") for char in name):
        raise BadRequest(gettext("give a name of 1 to %(max)s characters") % {"max": MAX_NAME})
    return name


def is_an_accounts_name(name: str) -> bool:
    # As the sign-up form asks: the handle's skeleton, and the name itself for an account
    # kept without a handle (accounts.signals).
    return accounts.is_taken(name) or get_user_model().objects.filter(
        username__iexact=normal_form(name)).exists()


def check_lobby(race: Race) -> None:
    if race.state == State.RUNNING:
        raise NotAllowedNow(gettext("this race has started"))
    if race.state != State.LOBBY:
        raise NotAllowedNow(gettext("this race is over"))


def check_room_allowance(user_id: int) -> None:
    wait = limits.create_wait(user_id)
    if wait:
        raise TooManyRaces(ngettext("too many races opened: try again in %(wait)s second",
                                    "too many races opened: try again in %(wait)s seconds",
                                    wait) % {"wait": wait}, wait)


# -- writes -----------------------------------------------------------------------

def do_create_race(player: Player, variant: Any, minutes: int, visitors: bool) -> Payload:
    """A new room, its owner in it."""
    user_id = check_logged_in(player)
    check_room_allowance(user_id)
    with transaction.atomic():
        race = Race.objects.create(owner_id=user_id, variant=variant.slug, minutes=minutes,
                                   visitors=visitors)
        Entry.objects.create(race=race, user_id=user_id, name=race.owner.get_username())
        return room_payload(race, player)


def do_join(code: object, player: Player, data: object) -> Payload:
    body = check_body(data)
    with transaction.atomic():
        race = lock_race(code)
        check_lobby(race)
        if my_entry(race, player) is not None:
            raise NotAllowedNow(gettext("you are in this race already"))
        entries = active(list(race.entries.all()))
        if len(entries) >= MAX_PLAYERS:
            raise NotAllowedNow(gettext("this race is full (%(max)s players)") % {
                "max": MAX_PLAYERS})
        Entry.objects.create(race=race, **_joining(race, player, body, entries))
        changed(race)
        return room_payload(race, player)


def _joining(race: Race, player: Player, body: Mapping[str, Any],
             entries: list[Entry]) -> dict[str, Any]:
    """The new entry's fields: a user by their account's name; a visitor by the name
    they give, if the room takes visitors and the name passes check_name."""
    if player.user_id is not None:
        name = get_user_model().objects.get(pk=player.user_id).get_username()
        return {"user_id": player.user_id, "name": name}
    if not race.visitors:
        raise NotYours(gettext("this race is for logged-in players only"))
    if not player.anon_token:
        raise NotYours(gettext("this browser's session is missing: reload the page"))
    return {"anon_token": player.anon_token, "name": check_name(body.get("name"), entries)}


def do_ready(code: object, player: Player, data: object) -> Payload:
    ready = check_bool(check_body(data), "ready")
    if ready is None:
        raise BadRequest(gettext('"ready" must be true or false'))
    with transaction.atomic():
        race = lock_race(code)
        entry = check_in_race(race, player)
        check_lobby(race)
        if entry.ready != ready:
            entry.ready = ready
            entry.save(update_fields=["ready"])
            changed(race)
        return room_payload(race, player)


def do_options(code: object, player: Player, data: object) -> Payload:
    body = check_body(data)
    minutes = None if body.get("minutes") is None else check_minutes(body.get("minutes"))
    visitors = check_bool(body, "visitors")
    with transaction.atomic():
        race = lock_race(code)
        check_owner(race, player)
        check_lobby(race)
        race.minutes = race.minutes if minutes is None else minutes
        race.visitors = race.visitors if visitors is None else visitors
        race.save(update_fields=["minutes", "visitors"])
        changed(race)
        return room_payload(race, player)


def do_leave(code: object, player: Player) -> Payload:
    """Leave the room. In the lobby the entry goes (the owner's room passes to the next
    logged-in player, or closes); in a race the game closes and counts as done."""
    with transaction.atomic():
        race = lock_race(code)
        entry = check_in_race(race, player)
        now = timezone.now()
        if race.state == State.LOBBY:
            _leave_lobby(race, entry)
        else:
            entry.left_at = now
            entry.save(update_fields=["left_at"])
            if entry.game_id is not None and race.state == State.RUNNING:
                game_actions.do_close_games([entry.game_id], now)
                finish_if_done(race, now)
            _close_if_all_left(race)
        changed(race)
        return room_payload(race, player)


def _leave_lobby(race: Race, entry: Entry) -> None:
    entry.delete()
    rest = active(list(race.entries.all()))
    if entry.user_id == race.owner_id:
        heir = next((other for other in rest if other.user_id is not None), None)
        if heir is None:
            _close(race)
            return
        race.owner_id = heir.user_id
        race.save(update_fields=["owner"])
    if not rest:
        _close(race)


def _close_if_all_left(race: Race) -> None:
    """Over and left by everyone: the room closes (its results stay readable)."""
    if race.state == State.FINISHED and not race.entries.filter(left_at=None).exists():
        _close(race)


def _close(race: Race) -> None:
    race.state = State.CLOSED
    race.save(update_fields=["state"])


def do_close_if_abandoned(race: Race, now: datetime | None = None) -> bool:
    """Close a lobby nobody has had open for RACE_LOBBY_EMPTY_SECONDS (or that no socket
    ever opened for RACE_LOBBY_UNSEEN_SECONDS). Lazy (on a read) and by the beat sweep;
    idempotent. True when it closed the room."""
    if race.state != State.LOBBY or not _abandoned(race, now or timezone.now()):
        return False
    with transaction.atomic():
        locked = lock_race(race.code)
        if locked.state != State.LOBBY:
            return False
        _close(locked)
        changed(locked)
    race.state = State.CLOSED
    return True


def _abandoned(race: Race, now: datetime) -> bool:
    empty = presence.empty_for(race.pk)
    if empty is not None:
        return empty >= settings.RACE_LOBBY_EMPTY_SECONDS
    if presence.present(race.pk, race.entries.values_list("id", flat=True)):
        return False
    unseen_s = (now - race.created_at).total_seconds()
    return unseen_s >= settings.RACE_LOBBY_UNSEEN_SECONDS


def do_adopt_entries(user_id: int, anon_token: str) -> int:
    """A visitor logged in or signed up: their places in races follow them (as their
    games do, game.actions.do_adopt_games), under the name they raced by, unless the
    account is in that race already. Returns how many entries were adopted."""
    if not anon_token:
        return 0
    with transaction.atomic():
        visiting = list(Entry.objects.select_related("race").filter(
            user=None, anon_token=anon_token))
        taken = set(Entry.objects.filter(user_id=user_id, race__in=[
            entry.race_id for entry in visiting]).values_list("race_id", flat=True))
        adopted = [entry for entry in visiting if entry.race_id not in taken]
        for entry in adopted:
            entry.user_id, entry.anon_token = user_id, ""
            entry.save(update_fields=["user", "anon_token"])
            changed(entry.race)
        return len(adopted)
