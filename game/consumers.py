"""Live play over /ws/games/<id>/: a thin consumer that calls one action per message.

Client messages: {"type": "move", "move": "F@tomb", "seq": 17, "version": 12},
{"type": "undo", "version": 12} (``version`` optional: the version the client saw;
if the game has left it the action is refused, nothing changes, and the sender
gets the current state and then {"type": "error", "code": "stale", ...}),
{"type": "finish", "version": 12} (the rest of the game, when it plays itself),
{"type": "hint"} (with "fair": true, the hint that does not peek at the stock),
{"type": "sync"}. Every open board of the game receives
{"type": "state", "version": N, "game": {...}} after each change (the socket
that asked also gets its "seq" back). A socket opened with ``?deltas=1`` (the
board's) gets the whole game only first and on each sync, and after each change
only what changed since the last state it sent ({"type": "delta", "version": N,
"base": B, "game": {...}}: game.deltas), so the table and the unchanged piles are
not encoded and sent again on every move. {"type": "hint", ...} answers
reach every board; the sender alone gets {"type": "error", "error": "...", "seq": ...}.

The socket that acts answers its sender itself as soon as the action has
committed, then sends the new state to the game's other boards through the
channel layer: the player's own round trip does not wait on the layer.
States of one game may then reach a board out of order (two boards acting at
once); clients order them by version and send {"type": "sync"} when they see
a version gap, a delta on a base they do not hold, or when a hidden tab
becomes visible again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy

from accounts.language import alanguage_of_scope

from . import actions, arows, deltas, events, jsonsafe, limits
from .models import group_name

log = logging.getLogger(__name__)

MAX_MESSAGE_CHARS = 4096
STRIKES_BEFORE_CLOSE = 20  # messages refused for speed before the socket is closed
MAX_SEQ = 2**53  # JavaScript's safe integers
CLOSE_NOT_ALLOWED = 4403  # before accept, the handshake gets HTTP 403
CLOSE_TOO_BIG = 1009
CLOSE_POLICY = 1008
CLOSE_TRY_AGAIN = 1013  # the channel layer (Redis) failed: the board reconnects
# A layer call that takes longer has failed (the socket closes with 1013 and the board
# retries): right after a Redis restart the fault test saw a group_add hang 10 s.
LAYER_TIMEOUT = 3.0  # seconds
# How long a socket trusts the members of its game's group it last read. Boards that
# join or leave say so to the group (events.boards_changed), which empties every
# member's copy at once; the age limit only bounds what a lost notice could cost (a
# board missing states: it sees the gap on the next one and syncs).
MEMBERS_FRESH_FOR = 10.0  # seconds
HINT_UNANSWERED = gettext_lazy("the hint service did not answer; try again")


def run_action(function: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    """The database work of a socket, off the event loop. On PostgreSQL it is not
    thread-sensitive: moves on different games run in parallel threads, each with its
    own connection, instead of queueing on one. A file SQLite database (the embedded
    default) waits for its lock (settings: IMMEDIATE, a timeout); its in-memory one (the
    tests') fails a read that meets another thread's write ("table is locked") instead
    of waiting, so there every call shares the one sync thread."""
    connection = connections[DEFAULT_DB_ALIAS]
    shared = connection.vendor == "sqlite" and connection.is_in_memory_db()
    return database_sync_to_async(function, thread_sensitive=shared)


class TokenBucket:
    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.stamp = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def open_game(scope: dict[str, Any], game_id: str) -> tuple[actions.Player, dict[str, Any]]:
    """Who is connecting, and the game if it is theirs (sync: reads the session)."""
    player = actions.player_from(scope["user"], scope["session"])
    return player, actions.show_game_to_play(game_id, player)


class SpeaksTheLanguage:
    """A consumer that speaks its player's language: the one found as it connects (the
    first message it handles, websocket.connect: cookie, account, then the browser's),
    active while it handles each message or group event and in the tasks it starts,
    so every text it sends (errors, names in payloads) is in that language."""

    language = ""

    async def dispatch(self, message: dict[str, Any]) -> None:
        if not self.language:
            self.language = await alanguage_of_scope(self.scope)  # type: ignore[attr-defined]
        with translation.override(self.language):
            await super().dispatch(message)  # type: ignore[misc]


class ClosesItsOwnConnections:
    """A consumer whose every database call closes its own connection (run_action,
    alanguage_of_scope: channels' database_sync_to_async): its messages skip the sweep
    that channels' AsyncConsumer.dispatch makes before each one (aclose_old_connections,
    a hop to the sync thread and back that touches none of this consumer's connections:
    about a tenth of a live move's CPU in issue 15's profile)."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)


class ListensOnly:
    """A read-only socket (the daily's field, a race's room): it ignores every client frame
    but a short {"type": "sync"}, answered with ``resync`` at most once a ``SYNC_INTERVAL``
    whatever a client sends, since a sync reads the database."""

    SYNC_INTERVAL = 1.0  # seconds
    last_sync = 0.0

    async def resync(self) -> None:
        raise NotImplementedError

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        now = time.monotonic()
        if isinstance(content, dict) and content.get("type") == "sync" and (
            now - self.last_sync >= self.SYNC_INTERVAL
        ):
            self.last_sync = now
            await self.resync()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # Only a short sync request is expected; ignore anything else unparsed (an empty
        # frame too: Channels' JSON consumer raises on one, found by the fuzz test).
        if text_data and len(text_data) <= 100:
            await super().receive(text_data=text_data)  # type: ignore[misc]

    async def decode_json(self, text_data: str) -> Any:
        try:
            return jsonsafe.loads(text_data)
        except ValueError:  # malformed or nested too deep: ignored like any other noise
            return None


class GameConsumer(
    SpeaksTheLanguage, ClosesItsOwnConnections, AsyncJsonWebsocketConsumer  # type: ignore[misc]
):
    game_id: str
    group: str
    player: actions.Player
    joined = False
    closing = False
    # When this board last heard a hint answer, and the timers of hints it asked for.
    hint_heard_at = 0.0
    hint_watches: set[asyncio.Task[None]]
    # Whether this socket takes deltas (?deltas=1), and the version and game (without
    # its table) it last sent: its board's state, the next delta's base.
    takes_deltas = False
    sent: tuple[int, dict[str, Any]] | None = None
    # The game's group as last read (its channels), and when: the acting socket sends
    # new states to the other boards without reading the group again on every move.
    members: list[str] | None = None
    members_read_at = 0.0

    async def connect(self) -> None:
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        self.group = group_name(self.game_id)
        self.bucket = TokenBucket(settings.WS_RATE_PER_SECOND, settings.WS_BURST)
        self.strikes = 0
        self.hint_watches = set()
        self.takes_deltas = b"deltas=1" in self.scope.get("query_string", b"").split(b"&")
        # Join before reading the state, so no change can fall between the two.
        await asyncio.wait_for(
            self.channel_layer.group_add(self.group, self.channel_name), LAYER_TIMEOUT)
        self.joined = True
        await self.tell_boards_changed()
        try:
            self.player, game = await run_action(open_game)(self.scope, self.game_id)
        except actions.ActionError:
            await self.disconnect(CLOSE_NOT_ALLOWED)
            await self.close(code=CLOSE_NOT_ALLOWED)
            return
        await self.accept()
        await self.send_state(game)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Run the socket; if the channel layer fails under it (Redis restarting), close it
        with "try again later" so the board reconnects, instead of leaving the handshake
        hanging or dropping the connection without a close frame."""
        sent: set[str] = set()

        async def send_noting(message: dict[str, Any]) -> None:
            sent.add(message["type"])
            await send(message)

        try:
            await super().__call__(scope, receive, send_noting)
        except Exception as error:  # the layer's errors are its backend's own classes
            path = scope.get("path", "")
            log.warning("live play on %s stopped: %s: %s", path, type(error).__name__, error)
            await self.close_for_retry(send, sent)
            await self.leave_quietly()

    async def leave_quietly(self) -> None:
        """After the layer failed, disconnect() never runs: stop the hint timers (they
        would write to a closed socket) and leave the group if the layer lets us."""
        try:
            await asyncio.wait_for(self.disconnect(CLOSE_TRY_AGAIN), LAYER_TIMEOUT)
        except Exception:  # the layer is still down: the group entry expires by itself
            self.joined = False

    @staticmethod
    async def close_for_retry(send: Any, sent: set[str]) -> None:
        if "websocket.close" in sent:
            return
        try:
            if "websocket.accept" not in sent:
                await send({"type": "websocket.accept"})  # so the close code reaches it
            await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN})
        except Exception:  # the client has gone already: nothing to close
            pass

    async def disconnect(self, code: int) -> None:
        for watch in list(getattr(self, "hint_watches", ())):
            watch.cancel()
        if self.joined:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.joined = False
            try:
                await self.tell_boards_changed()
            except Exception as error:  # the layer's own errors: the others' copies age out
                log.warning("game %s: a leaving board could not tell the others: %s: %s",
                            self.game_id, type(error).__name__, error)

    async def tell_boards_changed(self) -> None:
        """The other boards of the game forget the group's members they read."""
        await asyncio.wait_for(
            self.channel_layer.group_send(self.group, events.boards_changed()), LAYER_TIMEOUT)

    async def game_boards(self, event: dict[str, Any]) -> None:
        self.members = None

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.closing:
            return  # frames queued before our close still arrive: answer none of them
        if text_data is None:
            await self.send_error(gettext("send JSON text, not binary frames"))
        elif len(text_data) > MAX_MESSAGE_CHARS:
            await self.send_error(gettext("messages are limited to %(count)s characters") % {
                "count": MAX_MESSAGE_CHARS})
            await self.close(code=CLOSE_TOO_BIG)
        elif not self.bucket.take():
            await self.too_fast()
        else:
            await self.receive_text(text_data)

    async def receive_text(self, text: str) -> None:
        try:
            content = jsonsafe.loads(text)
        except jsonsafe.TooDeep as error:
            await self.send_error(str(error))
            return
        except ValueError:
            await self.send_error(gettext("malformed JSON"))
            return
        if not isinstance(content, dict):
            await self.send_error(gettext('send a JSON object such as {"type": "sync"}'))
            return
        await self.receive_json(content)

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        seq = content.get("seq")
        if seq is not None and (type(seq) is not int or not 0 <= seq < MAX_SEQ):
            await self.send_error(gettext("seq must be a whole number"))
            return
        kind = content.get("type")
        # A list or an object as the type is unhashable: a lookup would raise (fuzzing).
        handler = self.HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            await self.send_error(
                gettext("unknown type (use move, undo, finish, hint or sync)"), seq)
            return
        try:
            await handler(self, content, seq)
        except actions.Stale as error:
            await self.send_state(error.game)
            await self.send_error(error.message, seq, code=error.code)
        except (actions.ActionError, limits.TooManyWrites) as error:
            await self.send_error(error.message, seq)
        except OSError:
            # ASGI: a send on a closed connection raises the server's own IOError. The
            # player left while their answer was on its way (the move is stored; their
            # board takes the state when it reconnects): nothing failed, and the socket
            # is done. __call__ notes it in one line.
            raise
        except Exception:
            # One bad message must not drop the player's socket.
            log.exception("live play failed on game %s", self.game_id)
            await self.send_error(gettext("the server failed; try again"), seq)

    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None:
        # A second close is an ASGI error (uvicorn logs a traceback): close once.
        if not self.closing:
            self.closing = True
            await super().close(code=code, reason=reason)

    async def too_fast(self) -> None:
        self.strikes += 1
        if self.strikes >= STRIKES_BEFORE_CLOSE:
            await self.close(code=CLOSE_POLICY)
        else:
            await self.send_error(gettext("too many messages: slow down"))

    # -- one action per message type -------------------------------------

    # Writes draw on the game's and the player's allowance, shared with REST (game.limits):
    # this socket's bucket alone would let a second socket or REST write as much again.
    async def on_move(self, content: dict[str, Any], seq: int | None) -> None:
        """On PostgreSQL a move is tried on the event loop first (actions.amove: no
        thread, one statement); what that cannot take goes the locked path in a thread.
        The write allowance is taken once, before either."""
        move, version = actions.check_move(content), actions.check_version(content)
        if not arows.available():  # SQLite (the embedded default): the locked path only
            await self.act(limits.limited(partial(actions.do_move, version=version)), seq, move)
            return
        wait = await limits.awrite_wait(self.player, self.game_id)
        if wait:
            raise limits.TooManyWrites(wait)
        try:
            quick = await actions.amove(self.game_id, self.player, move,
                                        origin=self.channel_name, seq=seq, version=version)
        except actions.QuickWriteFailed as failed:
            log.warning("game %s: the quick move failed, played locked: %s: %s", self.game_id,
                        type(failed.__cause__).__name__, failed.__cause__)
            version = failed.version
            quick = None
        if quick is None:
            await self.act(partial(actions.do_move, version=version), seq, move)
            return
        game, held = quick
        await self.send_state(game, seq)
        await self.tell_others(held)

    async def on_undo(self, content: dict[str, Any], seq: int | None) -> None:
        version = actions.check_version(content)
        await self.act(limits.limited(partial(actions.do_undo, version=version)), seq)

    async def on_finish(self, content: dict[str, Any], seq: int | None) -> None:
        version = actions.check_version(content)
        await self.act(limits.limited(partial(actions.do_finish, version=version)), seq)

    async def on_hint(self, content: dict[str, Any], seq: int | None) -> None:
        fair = actions.check_hint({"fair": content.get("fair", False)})
        asked_at = time.monotonic()
        address = (self.scope.get("client") or [""])[0] or ""
        await self.act(partial(actions.do_request_hint, fair=fair, address=address), seq)
        self.watch_hint(asked_at, seq)

    def watch_hint(self, asked_at: float, seq: int | None) -> None:
        """The hint's worker may die or the queue jam: if no answer comes in time, say so
        (a late answer, redelivered to another worker, still reaches the board after)."""
        watch = asyncio.create_task(self.hint_deadline(asked_at, seq))
        self.hint_watches.add(watch)
        watch.add_done_callback(self.hint_watches.discard)

    async def hint_deadline(self, asked_at: float, seq: int | None) -> None:
        await asyncio.sleep(settings.HINT_TIMEOUT_SECONDS)
        if self.hint_heard_at < asked_at:
            await self.send_answer({"type": "hint", "error": str(HINT_UNANSWERED)}, seq)

    async def act(self, do: Callable[..., actions.Payload], seq: int | None, *args: Any) -> None:
        """Run a do_* action; answer this socket first, then tell the game's other boards."""
        game, held = await run_action(events.holding(do))(
            self.game_id, self.player, *args, origin=self.channel_name, seq=seq
        )
        await self.send_state(game, seq)
        await self.tell_others(held)

    async def tell_others(self, held: list[events.Event]) -> None:
        """The events an action held, to the game's other boards and to other groups (a
        race room's progress, coalesced), once its sender has its answer."""
        batches = events.coalescer(self.channel_layer)
        try:
            for group, event, coalesce in held:
                if coalesce is not None:
                    batches.add(group, event, coalesce)
                    continue
                await batches.flush(group)  # what the group was told before this first
                async with asyncio.timeout(LAYER_TIMEOUT):  # no task made, as wait_for's
                    await self.send_to_others(group, event)
        except Exception as error:  # the layer's (Redis's) own error classes
            # Stored and acknowledged already: not the sender's error. Other boards see
            # a version gap on their next state and sync (or reconnect, if the layer is down).
            log.warning("game %s: a state did not reach the other boards: %s: %s",
                        self.game_id, type(error).__name__, error)

    async def send_to_others(self, group: str, event: dict[str, Any]) -> None:
        """``event`` to the group's other boards: to the members last read if still fresh.
        Another group (an app's, a race room's progress) never holds this socket: it gets
        a plain group send, without reading its members first."""
        if group != self.group:
            await self.channel_layer.group_send(group, event)
            return
        if time.monotonic() - self.members_read_at > MEMBERS_FRESH_FOR:
            self.members = None
        known = self.members
        self.members = await events.group_send_except(
            self.channel_layer, group, event, self.channel_name, known)
        if known is None:
            self.members_read_at = time.monotonic()

    async def on_sync(self, content: dict[str, Any], seq: int | None) -> None:
        game = await run_action(actions.show_game_to_play)(self.game_id, self.player)
        await self.send_state(game, seq, whole=True)

    HANDLERS: dict[str, Callable[..., Awaitable[None]]] = {
        "move": on_move, "undo": on_undo, "finish": on_finish, "hint": on_hint, "sync": on_sync,
    }

    # -- what the group sends -----------------------------------------------

    async def game_state(self, event: dict[str, Any]) -> None:
        if event.get("origin") == self.channel_name:
            return  # this socket acted and has already answered its sender
        await self.send_state(event["game"])

    async def game_hint(self, event: dict[str, Any]) -> None:
        self.hint_heard_at = time.monotonic()
        if "error" in event:
            await self.send_json({"type": "hint", "version": event["version"],
                                  "error": event["error"]})
            return
        await self.send_json({"type": "hint", "version": event["version"], "hint": event["hint"]})

    async def game_notice(self, event: dict[str, Any]) -> None:
        """A word about the game from an app built on it (the daily: "held" for review)."""
        await self.send_json({"type": "notice", "notice": event["notice"]})

    async def send_state(
        self, game: dict[str, Any], seq: int | None = None, *, whole: bool = False
    ) -> None:
        """The game's new state: what changed since this socket's last state, or the
        whole game when asked (a sync), for the first state, or when this board holds a
        version as new (it drops an older one: it still gets the seq it waits for)."""
        if not self.takes_deltas:
            await self.send_answer({"type": "state", "version": game["version"], "game": game},
                                   seq)
            return
        version, seen = game["version"], _without_table(game)
        if whole or self.sent is None or version <= self.sent[0]:
            if self.sent is None or version >= self.sent[0]:  # what the board now holds
                self.sent = version, seen
            await self.send_answer({"type": "state", "version": version, "game": game}, seq)
            return
        base, before = self.sent
        self.sent = version, seen
        await self.send_answer({"type": "delta", "version": version, "base": base,
                                "game": deltas.diff(before, seen) or {"{": {}}}, seq)

    async def send_error(self, error: str, seq: int | None = None, code: str = "") -> None:
        message: dict[str, Any] = {"type": "error", "error": error}
        if code:
            message["code"] = code
        await self.send_answer(message, seq)

    async def send_answer(self, message: dict[str, Any], seq: int | None) -> None:
        """``message``, with the ``seq`` of the client message it answers, if it had one."""
        if seq is not None:
            message["seq"] = seq
        await self.send_json(message)


def _without_table(game: dict[str, Any]) -> dict[str, Any]:
    """The game as a delta's base: its table never changes, so it is never compared."""
    return {key: value for key, value in game.items() if key != "table"}
