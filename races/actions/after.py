"""After the race: the rematch (a new room, the same players) and the replays."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from game.actions import NotAllowedNow, NotYours, Player
from game.payloads import table_of
from patience import rules_of

from ..models import Entry, Race, State
from ..payloads import room_payload
from .common import Payload, RaceNotFound, changed, get_race, lock_race, my_entry


def do_rematch(code: object, player: Player) -> Payload:
    """A new race on a new deal with the players who stayed, none ready, the same owner
    (the caller if the owner left). The first call makes it; later ones return it."""
    with transaction.atomic():
        old = lock_race(code)
        mine = my_entry(old, player)
        if mine is None:
            raise NotYours(gettext("you were not in this race"))
        if old.finished_at is None:
            raise NotAllowedNow(gettext("a rematch comes after the race"))
        if old.rematch_id is not None:
            return room_payload(Race.objects.get(pk=old.rematch_id), player)
        new = Race.objects.create(owner_id=_next_owner(old, player), variant=old.variant,
                                  minutes=old.minutes, visitors=old.visitors)
        Entry.objects.bulk_create([
            Entry(race=new, user_id=entry.user_id, anon_token=entry.anon_token, name=entry.name)
            for entry in old.entries.filter(left_at=None, game__isnull=False)])
        if player.user_id is not None and not new.entries.filter(user_id=player.user_id).exists():
            Entry.objects.create(race=new, user_id=player.user_id, name=mine.name)
        old.rematch = new
        old.save(update_fields=["rematch"])
        changed(old)
        return room_payload(new, player)


def _next_owner(old: Race, player: Player) -> int:
    """The old owner, unless they left the room; then the caller, if logged in."""
    if old.entries.filter(user_id=old.owner_id, left_at=None).exists():
        return old.owner_id
    if player.user_id is None:
        raise NotAllowedNow(gettext("the race's owner left: a logged-in player can "
                                    "open the rematch"))
    return player.user_id


def replay_of(code: object, entry_id: object, player: Player) -> Payload:
    """A player's game move by move, with the whole deal: only after the race, and
    only to its players."""
    race = get_race(code)
    if my_entry(race, player) is None:
        raise NotYours(gettext("only the race's players can watch its replays"))
    if race.finished_at is None or race.state not in (State.FINISHED, State.CLOSED):
        raise NotAllowedNow(gettext("the replays open when the race is over"))
    entry = _entry(race, entry_id)
    game = entry.game
    if game is None:
        raise RaceNotFound(gettext("that player has no game in this race"))
    return {"player": entry.name, "moves": game.log.split(), "frames": frames_of(game),
            "deal": game.cards.split(), "table": table_of(game.variant)}


def _entry(race: Race, entry_id: object) -> Entry:
    number = int(entry_id) if isinstance(entry_id, int) or (
        isinstance(entry_id, str) and entry_id.isascii() and entry_id.isdigit()
        and len(entry_id) < 12) else None
    entry = None if number is None else (
        race.entries.select_related("game").filter(pk=number).first())
    if entry is None:
        raise RaceNotFound(gettext("there is no such player in this race"))
    return entry


def frames_of(game: Any) -> list[dict[str, Any]]:
    """The visible view at the start and after each move of the game's line."""
    rules = rules_of(game.variant)
    deal = rules.deal_from_texts(game.cards.split(), game.deal, game.seeded)
    position = rules.new_game(deal, rules.variants[game.variant])
    frames = [rules.visible_view(position)]
    for move in rules.parse_moves(game.log):
        position.apply(move)
        frames.append(rules.visible_view(position))
    return frames
