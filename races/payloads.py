"""What a client may see of a room: who is in, ready, present, and each game's figures.

Built in one place, so every REST answer and socket message carries the same fields
and none carries the race's deal (seed, cards) or a card of any game: a player's own
cards reach them only through their own game (the game app's payloads).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from game.actions import Player
from game.clock import elapsed_ms, game_time_ms
from game.models import Game, Status
from game.payloads import named, table_of
from patience import rules_of

from . import presence
from .models import Entry, Race, State

Payload = dict[str, Any]


def entries_of(race: Race) -> list[Entry]:
    """The race's entries with their games and users, in the order they joined."""
    return list(race.entries.select_related("game", "user").defer("game__cards"))


def active(entries: list[Entry]) -> list[Entry]:
    """The entries still in the race (not left)."""
    return [entry for entry in entries if entry.left_at is None]


def is_mine(entry: Entry, player: Player) -> bool:
    if entry.user_id is not None:
        return entry.user_id == player.user_id
    return bool(player.anon_token) and entry.anon_token == player.anon_token


def left_during(race: Race, entry: Entry) -> bool:
    """Left before the race ended (a player who leaves the results keeps their result)."""
    return entry.left_at is not None and (
        race.finished_at is None or entry.left_at <= race.finished_at)


def status_of(race: Race, entry: Entry) -> str:
    game = entry.game
    if game is None:
        return "left" if entry.left_at is not None else "waiting"
    if game.status == Status.WON:
        return "won"
    if left_during(race, entry):
        return "left"
    if entry.gave_up:
        return "gave-up"
    if game.status == Status.LOST:
        return "stuck"
    return "out-of-time" if race.finished_at is not None else "playing"


def time_of(entry: Entry) -> int:
    """The stored result's time once the race is over; before it, the server's clock from
    the race's start to the game's end (a win or stuck) or its last move."""
    if entry.time_ms is not None:
        return entry.time_ms
    return running_time(entry.game)


def running_time(game: Game | None) -> int:
    # Untouched: no move on the line and none undone (one undone back to the start ran
    # the clock all the same).
    if game is None or (game.moves == 0 and game.undos == 0):
        return 0
    if game.finished_at is not None:
        return game_time_ms(game)
    return elapsed_ms(game.started_at, game.updated_at)


def player_payload(race: Race, entry: Entry, here: set[int]) -> Payload:
    game = entry.game
    return {
        "id": entry.pk,
        "name": entry.name,
        "owner": entry.user_id is not None and entry.user_id == race.owner_id,
        "ready": entry.ready,
        "present": entry.pk in here,
        "home": game.home if game else 0,
        "moves": game.moves if game else 0,
        "status": status_of(race, entry),
        "time_ms": time_of(entry),
        "place": entry.place,
    }


def shown_entries(race: Race, entries: list[Entry]) -> list[Entry]:
    """In the lobby, those in the room; once started, everyone who got a game (a player
    who left stays in the results)."""
    if race.state == State.LOBBY:
        return active(entries)
    return [entry for entry in entries if entry.game_id is not None]


def me_payload(race: Race, entries: list[Entry], player: Player) -> Payload | None:
    mine = next((entry for entry in entries if is_mine(entry, player)), None)
    if mine is None:
        return None
    started = race.state != State.LOBBY and mine.game_id is not None
    return {"id": mine.pk, "owner": mine.user_id is not None and mine.user_id == race.owner_id,
            "game": str(mine.game_id) if started else None, "left": mine.left_at is not None}


def room_payload(race: Race, player: Player, entries: list[Entry] | None = None) -> Payload:
    """The room as ``player`` sees it (their own entry under "me")."""
    entries = entries_of(race) if entries is None else entries
    shown = shown_entries(race, entries)
    here = presence.present(race.pk, [entry.pk for entry in shown])
    game_named, variant_named = named(rules_of(race.variant), race.variant)
    owner = next((entry.name for entry in entries if entry.user_id == race.owner_id), "")
    return {
        "code": race.code,
        "url": f"/race/{race.code}/",
        "game": game_named,
        "variant": variant_named,
        "owner": owner or race.owner.get_username(),
        "state": race.state,
        "minutes": race.minutes,
        "visitors": race.visitors,
        "starts_at": _time(race.starts_at),
        "ends_at": _time(race.ends_at),
        "finished_at": _time(race.finished_at),
        "server_now": _time(timezone.now()),
        "card_count": table_of(race.variant)["card_count"],
        "players": [player_payload(race, entry, here) for entry in _in_order(race, shown)],
        "me": me_payload(race, entries, player),
        "rematch": race.rematch.code if race.rematch_id and race.rematch else None,
    }


def _in_order(race: Race, entries: list[Entry]) -> list[Entry]:
    """By place once the race is over; in the order they joined before."""
    if race.finished_at is None:
        return entries
    return sorted(entries, key=lambda entry: (entry.place or 99, entry.joined_at))


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value else None
