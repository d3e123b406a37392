"""The one writer of ``Attempt`` rows: started, kept in step with their game, reviewed.

A ranked game's figures reach its attempt through ``game.hooks.game_stored``: the
receiver runs inside the game's write (same transaction, under its row lock), so
an attempt's figures can never disagree with its game, and the client has no say
in them: time and result come from the game's row and the server's one clock
(``game.clock``). Unranked games cost nothing here: the receiver returns at once.
Each placement's interval is kept for the pace check (leaderboards.fairplay); a
result it flags leaves the live field at once.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone

from game import actions as game_actions
from game.actions import BadRequest, Player
from game.clock import elapsed_ms
from game.events import best_effort
from game.hooks import game_stored, quick_write
from game.models import Game, Status
from patience import rules_of, variant_of

from .. import events, fairplay, hooks
from ..days import day_end
from ..fairplay import Client
from ..models import Attempt, Daily, Review
from . import standing, stats

Payload = dict[str, Any]


# -- starting -------------------------------------------------------------------

def new_attempt(
    player: Player, daily: Daily, *, ranked: bool, client: Client | None = None
) -> Payload:
    """A game on the daily's deal (through game.actions) and its attempt row."""
    payload = game_actions.do_create_game(
        player, variant_of(daily.variant), daily.deal(), ranked=ranked,
        closes_at=day_end(daily.date) if ranked else None, daily_date=daily.date,
    )
    fields: dict[str, Any] = {}
    if ranked and client is not None:
        fields = _fair_play_start(daily, player.user_id, client)
    Attempt.objects.create(
        daily=daily, game_id=payload["id"], user_id=player.user_id, ranked=ranked, **fields
    )
    return payload


def ranked_game_id(daily: Daily, user_id: int) -> Any:
    return (
        Attempt.objects.filter(daily=daily, user_id=user_id, ranked=True)
        .values_list("game_id", flat=True).first()
    )


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
        .values("id", "game_id", "device_hash", "address_hash", "flags", "review")
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
        transaction.on_commit(best_effort(partial(events.send_held, str(other["game_id"]))))
        held += 1
    if held:  # they may be in the live field now: watchers get a fresh picture
        transaction.on_commit(best_effort(partial(events.send_field, variant)))


# -- in step with the game ---------------------------------------------------------

@receiver(game_stored, dispatch_uid="leaderboards.record_attempt")
def record_attempt(
    sender: Any, game: Game, action: str, at: datetime, before_home: int, before_status: str,
    position: Any, **kwargs: Any,
) -> None:
    if not game.ranked:
        return
    time_ms, newly_flagged = record(game, action, at, position)
    if game.status == Status.WON and before_status != Status.WON:
        stats.count_win(game, time_ms)
    elif game.status == Status.LOST and before_status != Status.LOST:
        stats.count_loss(game)
    if game.status != before_status and game.status != Status.PLAYING:
        # The fair-play judge reads the finished game (leaderboards.reviewing).
        transaction.on_commit(partial(hooks.ranked_result_ended.send, sender=Attempt,
                                      game_id=str(game.id)))
    if newly_flagged:  # the field showed its progress: watchers get a fresh picture
        transaction.on_commit(best_effort(partial(events.send_field, game.variant)))
    # The field shows progress: a move that brings no card home nor ends the
    # game changes nothing there worth a message to every watcher.
    elif game.home != before_home or game.status != before_status:
        transaction.on_commit(best_effort(partial(events.send_attempt, str(game.id))))


# Only a ranked game has an attempt to write with each of its moves (game.hooks).
quick_write("leaderboards.record_attempt", lambda game: not game.ranked)


def record(game: Game, action: str, at: datetime, position: Any) -> tuple[int, bool]:
    """Copy the game's figures onto its attempt (one read, one UPDATE); returns the
    time in ms and whether the pace check flagged the result just now."""
    fields: dict[str, Any] = {
        "status": game.status, "home": game.home, "moves": game.moves, "undos": game.undos,
        "hints": game.hints, "assisted": game.hints > 0,
    }
    time_ms = elapsed_ms(game.started_at, at)
    newly_flagged = False
    if action != "hint":  # the clock runs from the first move to the last one
        fields.update(started_at=game.started_at, last_move_at=at, time_ms=time_ms)
        newly_flagged = _pace(game, action, at, time_ms, fields, position)
    Attempt.objects.filter(game_id=game.id).update(**fields)
    return time_ms, newly_flagged


def placed_a_card(game: Game, position: Any) -> bool:
    """The move just stored (the last of ``position``, the position the game's write
    stored) put a card somewhere: it showed none (``Rules.reveals``). A move that shows
    a card (a stock turn) needs no decision, so it is not timed. Read on a copy: the
    stored position is kept for the game's next write."""
    if not position.moves:
        return False
    before = position.copy()
    move = before.undo()
    return not rules_of(game.variant).reveals(before, move)


def _pace(
    game: Game, action: str, at: datetime, time_ms: int, fields: dict[str, Any], position: Any
) -> bool:
    """Time a placement from the previous move or undo, and flag a pace no human keeps
    (fairplay.too_fast) or a win after a first pass through the whole stock. A Finish
    adds no interval (the engine played those cards) but its win is judged like any
    other. Adds to ``fields``; True when flagged just now."""
    placing = action == "move" and placed_a_card(game, position)
    if not placing and action != "finish":
        return False
    attempt = (Attempt.objects.filter(game_id=game.id)
               .values("last_move_at", "intervals", "flags", "review").first())
    if attempt is None or attempt["last_move_at"] is None:
        return False
    intervals = fairplay.parse_intervals(attempt["intervals"])
    if placing:
        intervals.append(elapsed_ms(attempt["last_move_at"], at))
        fields["intervals"] = " ".join(map(str, intervals))
    if attempt["review"] == Review.CLEARED:
        return False
    reasons = _pace_reasons(game, intervals, time_ms, position)
    flags = attempt["flags"]
    for reason in reasons:
        flags = fairplay.add_flag(flags, reason)
    if flags == attempt["flags"]:
        return False
    fields["flags"] = flags
    if attempt["review"] == Review.NONE:
        fields["review"] = Review.PENDING
        return True
    return False


def _pace_reasons(game: Game, intervals: list[int], time_ms: int, position: Any) -> list[str]:
    """The pace rules a ranked game breaks now: too fast (fairplay.too_fast) and, at
    its win, the whole stock turned before the first placement."""
    won = game.status == Status.WON
    reasons = []
    if fairplay.too_fast(intervals, won=won, time_ms=time_ms, variant=game.variant):
        reasons.append(fairplay.PACE)
    if won and fairplay.turned_whole_stock_first(position):
        reasons.append(fairplay.FIRST_PASS)
    return reasons


# -- the fair-play judge's findings (leaderboards.judging) -------------------------------

def do_store_judgement(attempt_id: int, bits: float, evidence: dict[str, Any],
                       reasons: list[str]) -> bool:
    """Keep the judge's findings on a ranked attempt and hold it for ``reasons`` (a
    result an admin already cleared stays cleared). True if it is held just now: its
    player's boards are told, and the live field is refreshed for every watcher. The
    scouts linked to a held win are put in the queue beside it (flag scout), so an
    admin can decide on both accounts there."""
    with transaction.atomic():
        attempt = (Attempt.objects.select_for_update().filter(pk=attempt_id)
                   .values("flags", "review", "clairvoyance", "game_id").first())
        if attempt is None or attempt["clairvoyance"] is not None:
            return False
        flags = attempt["flags"]
        for reason in reasons if attempt["review"] != Review.CLEARED else []:
            flags = fairplay.add_flag(flags, reason)
        held = flags != attempt["flags"] and attempt["review"] == Review.NONE
        fields: dict[str, Any] = {"clairvoyance": round(bits, 3), "evidence": evidence,
                                  "flags": flags}
        if held:
            fields["review"] = Review.PENDING
        Attempt.objects.filter(pk=attempt_id).update(**fields)
        if held:
            _tell_held(str(attempt["game_id"]))
            _queue_scouts([link["attempt"] for link in evidence.get("scouts", [])])
    return held


def _queue_scouts(attempt_ids: list[int]) -> None:
    """Flag the scouts' own attempts (a lost or idle game: held off nothing they earned)."""
    for scout in Attempt.objects.select_for_update().filter(pk__in=attempt_ids,
                                                            review=Review.NONE):
        Attempt.objects.filter(pk=scout.pk).update(
            flags=fairplay.add_flag(scout.flags, fairplay.SCOUT), review=Review.PENDING)


def _tell_held(game_id: str) -> None:
    """On commit: the player's open boards hear that the result is held, and watchers of
    the field read it afresh (the result leaves it)."""
    variant = Game.objects.filter(pk=game_id).values_list("variant", flat=True).first()
    transaction.on_commit(best_effort(partial(events.send_held, game_id)))
    if variant:
        transaction.on_commit(best_effort(partial(events.send_field, variant)))


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
            standing.do_set_unranked(users, True, f"fair-play review {by}".strip())
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
