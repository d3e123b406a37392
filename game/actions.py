"""The only place that writes games.

``check_*`` parse and authorise; ``do_*`` apply with the engine under a row
lock inside a transaction, store, and send the new visible state to the
game's channel group only once the transaction has committed (so no client
ever sees a state that was rolled back). Views and consumers are thin: each
calls one action and turns an ``ActionError`` into a response.
"""

from __future__ import annotations

import math
import re
import secrets
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from functools import partial
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.base import SessionBase
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from kombu.exceptions import OperationalError

from patience import (
    DEFAULT_GAME,
    EngineError,
    IllegalMove,
    Rules,
    all_variants,
    game_named,
    rules_of,
)

from . import arows, events, freeplay, hinting, hooks, limits, rows
from .models import FreePlayStats, Game, Status, group_name
from .names import game_and_variant_name, variant_name
from .payloads import game_payload
from .positions import POSITIONS
from .tasks import answer_hint
from .undoing import undo_refusal

ANON_SESSION_KEY = "game_anon_token"
Payload = dict[str, Any]


# -- errors: each carries the HTTP status and a message a player can read ----

class ActionError(Exception):
    status = 400
    MAX_MESSAGE = 300  # never reflect a huge input back at the client

    def __init__(self, message: str) -> None:
        if len(message) > self.MAX_MESSAGE:
            message = message[: self.MAX_MESSAGE - 3] + "..."
        super().__init__(message)
        self.message = message


class BadRequest(ActionError):
    status = 400


class NotYours(ActionError):
    status = 403


class GameNotFound(ActionError):
    status = 404


class NotAllowedNow(ActionError):
    """A well-formed request the game's state refuses: an illegal move, no undo."""

    status = 409


class Stale(NotAllowedNow):
    """The client acted on a version the game has moved past: refused, nothing changed.
    Carries the current visible state, so the client can redraw without asking."""

    code = "stale"

    def __init__(self, message: str, game: Payload) -> None:
        super().__init__(message)
        self.game = game


class HintUnavailable(ActionError):
    """The hint queue (Celery's broker) cannot be reached: the hint cannot be asked."""

    status = 503


class TooManyHints(ActionError):
    """Past a hint allowance (game.limits): ``wait`` seconds until the next one."""

    status = 429

    def __init__(self, message: str, wait: int) -> None:
        super().__init__(message)
        self.wait = wait


# -- who is acting --------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Player:
    user_id: int | None = None
    anon_token: str = ""

    def owns(self, game: Game) -> bool:
        if game.owner_id is not None:
            return game.owner_id == self.user_id
        return bool(self.anon_token) and secrets.compare_digest(game.anon_token, self.anon_token)


def player_from(
    user: AbstractBaseUser | AnonymousUser, session: SessionBase, *, create: bool = False
) -> Player:
    """The player behind a request or socket; ``create`` gives a visitor a token."""
    if user.is_authenticated:
        return Player(user_id=user.pk)
    token = session.get(ANON_SESSION_KEY, "")
    if not token and create:
        token = secrets.token_urlsafe(24)
        session[ANON_SESSION_KEY] = token
    return Player(anon_token=token)


# -- checks ---------------------------------------------------------------

def check_body(data: object) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise BadRequest("send a JSON object")
    return data


def check_game(value: object) -> Rules:
    """A registered game by its slug; none named: the default game."""
    if value is None or value == "":
        return DEFAULT_GAME
    try:
        return game_named(value)
    except EngineError as error:
        raise BadRequest(str(error)) from error


class NoSuchGame(ActionError):
    """A URL (its path or query) names no registered game: a 404, like any unknown page."""

    status = 404


def check_game_in_url(value: object) -> Rules | None:
    """``?game=<slug>`` of a query: that game, None when absent, NoSuchGame otherwise."""
    if value is None or value == "":
        return None
    try:
        return game_named(value)
    except EngineError as error:
        raise NoSuchGame(str(error)) from error


def check_variant(value: object, game: object = None) -> Any:
    """A registered variant by its slug; none named: the default variant of ``game`` (a
    game's slug; none: the default game). A variant slug names its game, so ``game``
    is needed only to check that the two agree."""
    named = None if game is None or game == "" else check_game(game)
    if value is None or value == "":
        return (named or DEFAULT_GAME).default_variant
    try:
        rules = rules_of(value)
    except EngineError as error:
        raise BadRequest(str(error)) from error
    if named is not None and named.slug != rules.slug:
        raise BadRequest(f"{value} is a variant of {rules.name}, not of {named.name}")
    return rules.variants[str(value)]


MAX_DEAL_CHARS = 12


def check_deal_number(value: object, rules: Rules = DEFAULT_GAME) -> int:
    """A public deal number of ``rules``' game, from a number or digits, in its range."""
    span = f"use {rules.min_deal:,} to {rules.max_deal:,}"
    if isinstance(value, str):
        text = value.strip()
        # ASCII digits only: str.isdigit() also accepts superscripts and other scripts.
        if not (text.isascii() and text.isdigit()) or len(text) > MAX_DEAL_CHARS:
            raise BadRequest(f"{value[:20]!r} is not a deal number ({span})")
        value = int(text)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest(f"a deal number is a whole number ({span}), not {type(value).__name__}")
    if not rules.min_deal <= value <= rules.max_deal:
        shown = value if abs(value) < 10**MAX_DEAL_CHARS else "that big"
        raise BadRequest(gettext("deal %(deal)s is out of range (use %(low)s to %(high)s)") % {
            "deal": shown, "low": f"{rules.min_deal:,}", "high": f"{rules.max_deal:,}"})
    return value


def check_deal(value: object, rules: Rules = DEFAULT_GAME) -> Any:
    """A public deal of ``rules``' game by number; no number (or null) means a random one."""
    if value is None or value == "":
        number = rules.min_deal + secrets.randbelow(rules.max_deal - rules.min_deal + 1)
    else:
        number = check_deal_number(value, rules)
    try:
        return rules.deal_from_number(number)
    except EngineError as error:  # the game refuses a bad number readably
        raise BadRequest(str(error)) from error


def check_new_game(data: object) -> tuple[Any, Any]:
    body = check_body(data)
    variant = check_variant(body.get("variant"), body.get("game"))
    return variant, check_deal(body.get("deal"), rules_of(variant.slug))


def check_new_free_game(data: object) -> tuple[Any, Any, bool]:
    """A free-play game of ``game`` (default: the default game) and ``variant`` (default:
    the game's default): a deal number, a random deal, or with ``"winnable": true`` a
    random deal the solver proved won (no number then: the option picks it)."""
    body = check_body(data)
    winnable = body.get("winnable", False)
    if type(winnable) is not bool:
        raise BadRequest('"winnable" must be true or false')
    # The schema's word: a number or null; an empty string is neither (the fuzz test).
    if "" in (body.get("deal"), body.get("variant"), body.get("game")):
        raise BadRequest('"deal" is a number or null, "game" and "variant" a name or null')
    variant = check_variant(body.get("variant"), body.get("game"))
    rules = rules_of(variant.slug)
    if not winnable:
        return variant, check_deal(body.get("deal"), rules), False
    if body.get("deal") is not None:
        raise BadRequest('"winnable": true deals a proved-won deal itself: send no "deal"')
    number = freeplay.winnable_deal_number(variant)
    if number is None:
        raise NotAllowedNow(gettext(
            "No deal of %(name)s has been proved winnable on this server yet, so "
            "\"Winnable only\" cannot deal one.") % {"name": game_and_variant_name(rules, variant)})
    return variant, rules.deal_from_number(number), True


MAX_MOVE_CHARS = 40
# What a move is written with in every game's notation (D, F@tomb, P@p5@k2, t4-t6x3): one
# word, spaces either side allowed. The request names no game, so this is all the schema
# can say (game.schema): text outside it is no move at all (400); a word of it that the
# game has no move for is refused as an illegal move is (409, _read_move). A test holds
# every registered game's moves to it.
MOVE_FORM = r" *[A-Za-z0-9@-]+ *"


def check_move(data: object) -> str:
    """The move's text; the game's own notation reads it once the game is known (do_move)."""
    body = check_body(data)
    if "move" not in body:
        raise BadRequest('send the move as {"move": "F@tomb"}')
    text = body["move"]
    if not isinstance(text, str) or not text.strip():
        raise BadRequest('a move must be text in the game\'s notation, e.g. "D"')
    if len(text) > MAX_MOVE_CHARS:
        raise BadRequest(f"{len(text)} characters is not a move (at most {MAX_MOVE_CHARS})")
    if not re.fullmatch(MOVE_FORM, text):
        raise BadRequest('a move is one word of letters, digits, "@" and "-" in the game\'s '
                         'notation, e.g. "D"')
    return text


MAX_VERSION = 2**53  # JavaScript's safe integers


def check_version(data: object) -> int | None:
    """The version the client saw, if it sent one: the action then applies only on it."""
    version = check_body(data).get("version")
    if version is None:
        return None
    if type(version) is not int or not 0 <= version <= MAX_VERSION:
        raise BadRequest('"version" must be a whole number from 0 to 2**53')
    return version


def check_game_id(value: object) -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except ValueError as error:
        raise GameNotFound(gettext("there is no such game")) from error


def check_owner(game: Game, player: Player) -> Game:
    if not player.owns(game):
        raise NotYours(gettext("this game belongs to another player"))
    return game


# -- reading --------------------------------------------------------------

def get_game(game_id: object, player: Player) -> Game:
    try:
        game = Game.objects.get(pk=check_game_id(game_id))
    except Game.DoesNotExist as error:
        raise GameNotFound(gettext("there is no such game")) from error
    return check_owner(game, player)


def show_game(game_id: object, player: Player) -> Payload:
    game = get_game(game_id, player)
    return game_payload(game, game.position())


def show_game_to_play(game_id: object, player: Player) -> Payload:
    """show_game for a board's socket: the row read and its position are kept (as a
    write's are) for the board's next move, so that move need not read the row again
    (``amove``). A read names its version's position as a write does (game.positions)."""
    game = get_game(game_id, player)
    position = game.position()
    payload = game_payload(game, position)
    hooks.prepare_quick_writes(game)
    POSITIONS.keep(game.id, game.version, position, game)
    return payload


def my_games(player: Player, limit: int = 50) -> list[Game]:
    return list(_owned_by(player).order_by("-updated_at")[:limit])


def latest_unfinished(player: Player, variant: Any) -> Payload:
    game = (
        _owned_by(player)
        .filter(variant=variant.slug, status=Status.PLAYING, race=False)  # races: their page
        .exclude(closes_at__lte=timezone.now())  # a ranked daily whose day is over
        .order_by("-updated_at")
        .first()
    )
    if game is None:
        raise GameNotFound(gettext("you have no unfinished %(variant)s game") % {
            "variant": variant_name(variant)})
    return game_payload(game, game.position())


def unfinished_ids(player: Player) -> dict[str, str | None]:
    """Per variant, the id of the player's latest unfinished game (None if none): the
    play page is rendered with it, so it never asks to resume a game that does not exist."""
    found: dict[str, str | None] = dict.fromkeys(variant_slugs())
    games = (_owned_by(player).filter(status=Status.PLAYING, race=False)
             .exclude(closes_at__lte=timezone.now()).order_by("-updated_at")
             .values_list("variant", "id"))
    for slug, game_id in games[:200]:
        if found.get(slug) is None:
            found[slug] = str(game_id)
    return found


def wins_by_variant(player: Player, game: Rules | None = None) -> dict[str, int]:
    """Wins per variant (of every game, or of ``game``), free play and dailies alike."""
    counts = dict.fromkeys(variant_slugs(game), 0)
    won = (_owned_by(player).filter(status=Status.WON, variant__in=list(counts))
           .values_list("variant", flat=True))
    for slug in won:
        counts[slug] += 1
    return counts


def variant_slugs(game: Rules | None = None) -> list[str]:
    """Every registered variant's slug, or only ``game``'s, in registration order."""
    return [variant.slug for rules, variant in all_variants()
            if game is None or rules.slug == game.slug]


def free_play_stats(player: Player, game: Rules | None = None) -> list[Payload]:
    """Per variant (of every game, or of ``game``): the player's free-play figures, both
    kinds of records (one query)."""
    rows: Any = FreePlayStats.objects.none()
    if player.user_id is not None:
        rows = FreePlayStats.objects.filter(owner_id=player.user_id)
    elif player.anon_token:
        rows = FreePlayStats.objects.filter(owner=None, anon_token=player.anon_token)
    found = {row.variant: row for row in rows}
    return [freeplay.summary(found.get(slug), slug) for slug in variant_slugs(game)]


def _owned_by(player: Player) -> Any:
    if player.user_id is not None:
        return Game.objects.filter(owner_id=player.user_id)
    if player.anon_token:
        return Game.objects.filter(owner=None, anon_token=player.anon_token)
    return Game.objects.none()


# -- writing --------------------------------------------------------------

def do_create_game(
    player: Player, variant: Any, deal: Any, *, ranked: bool = False,
    closes_at: datetime | None = None, winnable: bool = False, daily_date: date | None = None,
    race: bool = False, started_at: datetime | None = None,
) -> Payload:
    """A new game of any registered variant (its slug names the game) on a deal of that
    game; ``ranked``, ``closes_at`` and ``daily_date`` are for the leaderboards'
    daily attempts and replays, ``winnable`` marks a deal dealt by the "winnable deals
    only" option; ``race`` and ``started_at`` (its clock's start) for the races app."""
    rules = rules_of(variant.slug)
    position = rules.new_game(deal, variant)
    with transaction.atomic():
        game = Game.objects.create(
            variant=variant.slug,
            deal=deal.number,
            seeded=deal.seeded,
            cards=" ".join(deal.texts),
            owner_id=player.user_id,
            anon_token="" if player.user_id is not None else player.anon_token,
            ranked=ranked,
            closes_at=closes_at,
            winnable=winnable,
            daily_date=daily_date,
            race=race,
            started_at=started_at,
            score=rules.score(position),
        )
        if game.free_play:
            _count_abandoned(player, game)
        # Its first move replays an empty log: nothing to keep.
        return game_payload(game, position)


def _count_abandoned(player: Player, new: Game) -> None:
    """A new free-play deal leaves the player's unfinished free-play games of its variant
    that have moves: each counts once, as a game played and not won (freeplay's rules)."""
    left = (_owned_by(player).select_for_update()
            .filter(variant=new.variant, status=Status.PLAYING, seeded=False, ranked=False,
                    tally="").exclude(log="").exclude(pk=new.pk))
    now = timezone.now()
    for game in left:
        stats = _lock_stats(game)
        freeplay.count_abandoned(stats, now)
        stats.save()
        game.tally = "abandoned"
        game.save(update_fields=["tally"])


def do_move(
    game_id: object, player: Player, move: object, *, origin: str = "",
    seq: int | None = None, version: int | None = None,
) -> Payload:
    """Play one move (its text, read with the game's notation, or a move of the game's);
    an illegal move raises NotAllowedNow and changes nothing. With ``version``, the move
    applies only if the game is still at that version (optimistic concurrency: a resent
    move is never played twice)."""
    with transaction.atomic():
        game = check_version_current(_lock(game_id, player), version)
        parsed = _read_move(game.rules, move)
        position = _position_to_write(game)
        try:
            position.apply(parsed)
        except IllegalMove as error:
            raise NotAllowedNow(str(error)) from error
        return _store(game, position, "move", origin=origin, seq=seq)


def _read_move(rules: Rules, move: object) -> Any:
    """The game's move that check_move's word names. A word the game's notation has no
    move for (another game's move, or none) is this game refusing it: 409, as an illegal
    move, since the request was well formed (the schema cannot say which game it is for)."""
    if not isinstance(move, str):
        return move  # a move object already, from a caller that parsed it
    try:
        return rules.parse_move(move)
    except EngineError as error:
        raise NotAllowedNow(str(error)) from error


def _position_to_write(game: Game) -> Any:
    """The position of the locked game: the one this process kept at the game's stored
    version if it has it (game.positions says why that is safe), else the log replayed.
    The caller owns it: it changes it and _store keeps it once committed."""
    kept = POSITIONS.take(game.id, game.version)
    return game.position() if kept is None else kept


def do_undo(
    game_id: object, player: Player, *, origin: str = "", seq: int | None = None,
    version: int | None = None,
) -> Payload:
    with transaction.atomic():
        game = check_version_current(_lock(game_id, player), version)
        position = _position_to_write(game)
        check_undo_allowed(game, position)
        try:
            position.undo()
        except IllegalMove as error:
            raise NotAllowedNow(str(error)) from error
        game.undos += 1
        return _store(game, position, "undo", origin=origin, seq=seq)


def do_finish(
    game_id: object, player: Player, *, origin: str = "", seq: int | None = None,
    version: int | None = None,
) -> Payload:
    """Play the finishing line (the rest of the game, when it plays itself) in one write,
    versioned like a move; refused with NotAllowedNow while the rest is not forced."""
    with transaction.atomic():
        game = check_version_current(_lock(game_id, player), version)
        position = _position_to_write(game)
        line = game.rules.finishing_line(position)
        if line is None:
            raise NotAllowedNow(gettext(
                "the rest of the game does not play itself yet: "
                "Finish is for a game whose every remaining move is forced"))
        for move in line:
            position.apply(move)
        return _store(game, position, "finish", origin=origin, seq=seq)


def do_count_hint(
    game_id: object, player: Player, *, origin: str = "", seq: int | None = None
) -> tuple[Payload, Any]:
    """Count a hint on the game; the caller then asks the solver, outside the lock, about
    the copy of the position this returns (the position itself is kept for the next move)."""
    with transaction.atomic():
        game = _lock(game_id, player)
        if game.race:
            raise NotAllowedNow(gettext("hints are off in a race"))
        if game.status != Status.PLAYING:
            raise NotAllowedNow(gettext("the game is won: there is nothing to hint")
                                 if game.status == Status.WON else
                                 gettext("the game is lost: there is nothing to hint"))
        position = _position_to_write(game)
        game.hints += 1
        return _store(game, position, "hint", origin=origin, seq=seq), position.copy()


def check_hint(data: object) -> bool:
    """Which hint: ``{"fair": true}`` asks the one that does not peek at the stock."""
    # An empty body arrives as {}; a JSON null or string is not an object (schemathesis).
    fair = check_body(data).get("fair", False)
    if type(fair) is not bool:
        raise BadRequest('"fair" must be true or false')
    return fair


def check_hint_allowance(player: Player, address: str) -> None:
    """Refuse a hint past the player's or the address's allowance (before it is counted)."""
    who = f"user:{player.user_id}" if player.user_id is not None else f"anon:{player.anon_token}"
    wait = limits.hint_wait(who, address)
    if wait:
        raise TooManyHints(ngettext("too many hints: try again in %(wait)s second",
                                    "too many hints: try again in %(wait)s seconds",
                                    wait) % {"wait": wait}, wait)


def do_hint_now(
    game_id: object, player: Player, *, fair: bool = False, address: str = ""
) -> Payload:
    """REST: count the hint, ask the solver in this request, return game and hint."""
    check_hint_allowance(player, address)
    payload, position = do_count_hint(game_id, player)
    hint = hinting.ask_fair_solver(position) if fair else hinting.ask_solver(position)
    # The asker gets the hint in this answer: the other boards' copy is best effort.
    events.best_effort(partial(events.send_hint, payload["id"], payload["version"], hint))()
    return {**payload, "hint": hint}


def do_request_hint(
    game_id: object, player: Player, *, fair: bool = False, address: str = "",
    origin: str = "", seq: int | None = None,
) -> Payload:
    """Live play: count the hint; a Celery task answers to the game's group."""
    check_hint_allowance(player, address)
    payload, _ = do_count_hint(game_id, player, origin=origin, seq=seq)
    # Enqueued once committed, so the worker sees the counted hint.
    transaction.on_commit(partial(
        _enqueue_hint, partial(answer_hint.delay, payload["id"], fair=fair),
        partial(do_uncount_hint, game_id, player, origin=origin, seq=seq)))
    return payload


def _enqueue_hint(task: Callable[[], object], uncount: Callable[[], object]) -> None:
    # Celery has already retried the publish by its retry policy (under a second): say
    # plainly that no hint is coming, rather than a bare "the server failed", and take
    # the count back first: a hint no worker ever saw must not mark the result assisted.
    try:
        task()
    except OperationalError as error:
        uncount()
        raise HintUnavailable(gettext(
            "the hint service cannot be reached; try again in a moment")) from error


def do_uncount_hint(
    game_id: object, player: Player, *, origin: str = "", seq: int | None = None
) -> Payload:
    """Undo do_count_hint for a hint that never reached the hint queue (the game's
    other boards, and a ranked attempt's assisted flag, follow the stored count)."""
    with transaction.atomic():
        game = _lock(game_id, player)
        game.hints = max(game.hints - 1, 0)
        return _store(game, game.position(), "hint", origin=origin, seq=seq)


def do_adopt_games(user: AbstractBaseUser, anon_token: str) -> int:
    """A visitor signed up or logged in: their games (unfinished ones too) follow them."""
    if not anon_token:
        return 0
    with transaction.atomic():
        games = Game.objects.select_for_update().filter(owner=None, anon_token=anon_token)
        adopted = games.update(owner=user, anon_token="")
        _adopt_stats(user, anon_token)
        return adopted


def _adopt_stats(user: AbstractBaseUser, anon_token: str) -> None:
    """The visitor's free-play figures join the account's, variant by variant."""
    visiting = FreePlayStats.objects.select_for_update().filter(owner=None, anon_token=anon_token)
    for row in visiting:
        mine = FreePlayStats.objects.select_for_update().filter(
            owner=user, variant=row.variant).first()
        if mine is None:
            row.owner, row.anon_token = user, ""  # type: ignore[assignment]
            row.save()
            continue
        freeplay.merge(mine, row)
        mine.save()
        row.delete()


def _lock_stats(game: Game) -> FreePlayStats:
    """The free-play row of a game's player, made if new, locked till the transaction ends."""
    rows = FreePlayStats.objects.select_for_update()
    if game.owner_id is not None:
        stats, _ = rows.get_or_create(owner_id=game.owner_id, variant=game.variant)
    else:
        stats, _ = rows.get_or_create(owner=None, anon_token=game.anon_token,
                                      variant=game.variant)
    return stats


def _count_first_end(game: Game) -> None:
    """A free-play game's first end (won or lost) counts on its player's row, in the
    write that ended it, under the game's row lock: once, whatever comes after."""
    if not game.free_play or game.tally or game.status == Status.PLAYING:
        return
    stats = _lock_stats(game)
    game.new_best = " ".join(freeplay.count_end(stats, game))
    game.tally = game.status
    stats.save()


def _lock(game_id: object, player: Player) -> Game:
    """The game's row, locked until the transaction ends: one writer per game."""
    game = rows.lock(check_game_id(game_id))
    if game is None:
        raise GameNotFound(gettext("there is no such game"))
    check_owner(game, player)
    return check_open(game)


def check_open(game: Game) -> Game:
    """A game past its closing time (a ranked daily after its day, a race's game after
    the race or its player's give-up) takes no more actions; a race's game none before
    its start either (the countdown)."""
    now = timezone.now()
    if game.race and game.started_at is not None and now < game.started_at:
        wait = max(1, math.ceil((game.started_at - now).total_seconds()))
        raise NotAllowedNow(ngettext("the race starts in %(wait)s second",
                                     "the race starts in %(wait)s seconds", wait) % {"wait": wait})
    if game.closes_at is not None and now >= game.closes_at:
        if game.race:
            raise NotAllowedNow(gettext("this race game is over: the race ended, "
                                        "or you gave up or left"))
        raise NotAllowedNow(gettext("this ranked daily closed at the end of its day (UTC); "
                                    "replay it from the archive"))
    return game


def do_close_games(game_ids: list[Any], at: datetime) -> int:
    """Close race games at ``at`` (a give-up, a player who left, a race over before its
    time limit): no move after it. Never reopens one; returns how many were closed."""
    closing = Game.objects.filter(pk__in=game_ids, race=True)
    with transaction.atomic():
        return (closing.filter(closes_at__gt=at).update(closes_at=at)
                + closing.filter(closes_at=None).update(closes_at=at))


def check_version_current(game: Game, version: int | None) -> Game:
    """Refuse an action sent on a version the game has left (another board acted, or
    this very action was applied before its answer was lost)."""
    if version is not None and version != game.version:
        raise Stale(gettext("the game moved on (version %(now)s, not %(sent)s): "
                            "look again and play on") % {"now": game.version, "sent": version},
                    game_payload(game, game.position()))
    return game


def check_undo_allowed(game: Game, position: Any) -> None:
    """The last move may be taken back (``undoing.undo_refusal`` says why not)."""
    refusal = undo_refusal(game, position)
    if refusal is not None:
        raise NotAllowedNow(refusal)


# What a write (_store) may change: the rest of the row is fixed at creation or written
# by other actions (_count_abandoned's tally, do_adopt_games' owner).
STORED_FIELDS = (
    "log", "status", "home", "score", "moves", "undos", "hints", "version", "finished_at",
    "started_at", "updated_at", "tally", "new_best", "achievements",
)


def _store(
    game: Game, position: Any, action: str, *, origin: str, seq: int | None
) -> Payload:
    """Write the game as ``position`` left it; once committed, keep ``position`` for the
    next write and tell the game's boards."""
    now = timezone.now()
    before_home, before_status = game.home, game.status
    status = Status(position.status.value)
    if status != game.status:
        game.finished_at = None if status == Status.PLAYING else now
    if action in ("move", "finish") and game.started_at is None:
        game.started_at = now
    if status == Status.WON and before_status != Status.WON:
        game.achievements = " ".join(game.rules.achievements(position))
    game.status = status
    game.log = _log_after(game.log, position.moves)
    # The moves on the line as it stands, an undone one not counted: the number the
    # board and the win show, and the one records, boards and share lines keep.
    game.moves = len(position.moves)
    game.home = position.home
    game.score = game.rules.score(position)
    game.version += 1
    if before_status == Status.PLAYING:
        _count_first_end(game)
    game.updated_at = now
    rows.save(game, STORED_FIELDS)
    hooks.game_stored.send(
        sender=Game, game=game, action=action, at=now, before_home=before_home,
        before_status=before_status, position=position,
    )
    payload = game_payload(game, position)
    transaction.on_commit(partial(_committed, game, position, payload, origin, seq))
    return payload


def _log_after(log: str, moves: list[Any]) -> str:
    """The stored log of ``moves``, from the log before them: one move more (the usual
    write) appends its notation instead of writing out every move again."""
    count = log.count(" ") + 1 if log else 0
    if len(moves) == count + 1:
        return f"{log} {moves[-1].notation}" if log else moves[-1].notation
    return " ".join(move.notation for move in moves)


def _committed(
    game: Game, position: Any, payload: Payload, origin: str, seq: int | None
) -> None:
    """The write is in: keep its position for the game's next write, tell its boards."""
    POSITIONS.keep(game.id, game.version, position, game)
    events.best_effort(partial(events.send_state, payload, origin=origin, seq=seq))()


# -- the quick move: on the event loop, one statement --------------------------------

class QuickWriteFailed(Exception):
    """The quick move's statement failed (its connection broke, PostgreSQL restarted, a
    deadlock with another process's batch): whether it committed is unknown. The caller
    plays the move on the locked path at ``version``, the version it was played on: one
    that did commit is then refused as stale, with the stored state, never played twice;
    one that did not is played there (and the other games of its batch with it)."""

    def __init__(self, version: int) -> None:
        super().__init__(f"the quick write failed at version {version}")
        self.version = version


async def amove(
    game_id: object, player: Player, move: object, *, origin: str = "",
    seq: int | None = None, version: int | None = None,
) -> tuple[Payload, list[events.Event]] | None:
    """do_move on the event loop, where it can be had for one round trip: on PostgreSQL,
    in a game this process keeps the row of (game.positions: at ``version``, if the client
    sent one) and no app writes rows for (hooks.allows_quick_write), a legal move that
    leaves the game playing. The row is written by one ``UPDATE ... WHERE version = v``
    (game.arows): stored once it answers. Returns the new state and the live events to
    send (the state to the game's group first), or None, having written nothing, when
    the move must take the locked path (do_move): the caller runs it then, and that
    path gives every refusal (stale, illegal, not yours, closed) its usual answer. Raises
    QuickWriteFailed when the statement failed. The caller has taken the write
    allowance (limits.awrite_wait)."""
    if not arows.available():
        return None
    kept = POSITIONS.take_kept(check_game_id(game_id))
    if kept is None:
        return None
    game, position = kept.row, kept.position
    now = timezone.now()
    if not _may_move_quickly(game, player, version, kept.version, now):
        if game is not None and (version is None or version < kept.version):
            POSITIONS.keep(game.id, kept.version, position, game)  # untouched: still right
        return None
    try:
        position.apply(_read_move(game.rules, move))
    except (IllegalMove, NotAllowedNow):
        return None  # the position may be half changed: dropped; do_move replays and refuses
    if position.status.value != Status.PLAYING:
        return None  # the game ends: its records are written on the locked path
    before_home = game.home
    _moved(game, position, now)
    try:
        written = await arows.update(game, kept.version, now)
    except Exception as error:  # psycopg's own classes, or the batch's sender stopped
        raise QuickWriteFailed(kept.version) from error
    if not written:
        return None  # another writer moved, closed or adopted the game: the locked path
    return _quick_committed(game, position, before_home, now, origin, seq)


def _may_move_quickly(game: Game | None, player: Player, version: int | None,
                      kept: int, now: datetime) -> bool:
    """What do_move would check under the lock, on the row as kept: the version the
    client saw, the owner, the game open now and playing, no app writing with it."""
    return (game is not None and (version is None or version == kept)
            and game.status == Status.PLAYING and player.owns(game)
            and (game.closes_at is None or now < game.closes_at)
            and not (game.race and game.started_at is not None and now < game.started_at)
            and hooks.allows_quick_write(game))


def _moved(game: Game, position: Any, now: datetime) -> None:
    """The kept row as a move that leaves the game playing changes it (as _store would)."""
    game.log = _log_after(game.log, position.moves)
    game.moves = len(position.moves)
    game.home = position.home
    game.score = game.rules.score(position)
    game.version += 1
    if game.started_at is None:
        game.started_at = now
    game.updated_at = now


def _quick_committed(game: Game, position: Any, before_home: int, now: datetime,
                     origin: str, seq: int | None) -> tuple[Payload, list[events.Event]]:
    """The quick move is stored: its state, and the events for the socket to send. All
    is made before the row and position go back to the cache, where another thread's
    writer may take them."""
    payload = game_payload(game, position)
    state = {"type": "game.state", "version": game.version, "game": payload,
             "origin": origin, "seq": seq}
    _, held = events.holding(hooks.moved_quickly)(
        game=game, action="move", at=now, before_home=before_home,
        before_status=game.status, position=position)
    POSITIONS.keep(game.id, game.version, position, game)
    return payload, [(group_name(game.id), state, None), *held]
