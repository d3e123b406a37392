"""The fair-play judge, run once a ranked result has ended: how far its choices depended
on unseen cards, what it did with its stock, and which scouts it is linked to.

It reads the finished game and the day's other attempts, spends its solver time
outside any transaction (solver_worker.clairvoyance, bounded by
settings.FAIR_PLAY_JUDGE_SECONDS), and hands its findings to the one writer
(actions.attempts.do_store_judgement), which decides what is held. Running it twice is
harmless: a judged attempt is not judged again.

The judge holds a won result when (fairplay, solver_worker.clairvoyance.limits):

* its choices carry the variant's measured bits (clairvoyant): the sum of the judge's
  bits over the player's last wins of the variant (at most
  clairvoyance.RUNNING_WINS, this one included; a result an admin cleared is left
  out) reaches the bar measured for that many wins (``Limits.bar``), or, with a
  scout in sight, half of it; or
* it is linked to a scout (scout): another ranked attempt on the day that turned
  most of its stock, hardly placed a card and gave up, from the same device or
  address, or by timing (it stopped before this game began, within
  fairplay.SCOUT_WINDOW_S). Honest players hardly ever play so: of 3,600 blind games
  of 3-card deals, 62 turned three quarters of the stock with at most 3 placements
  (and went on playing); of 3,600 classic games, none (docs/figures.md).

A lost result keeps its figures and is never held: it took no place it did not earn.
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from game.models import Status
from solver_worker import clairvoyance

from . import fairplay
from .actions import attempts
from .models import Attempt, Review

SCOUT_BITS_SHARE = 0.5  # with a scout in sight, half the measured bits hold a win


def judge_result(game_id: str) -> bool:
    """Judge the ranked result of a game that has ended; True if it is held now."""
    attempt = (Attempt.objects.select_related("daily", "game")
               .filter(game_id=game_id, ranked=True).first())
    if attempt is None or attempt.clairvoyance is not None or \
            attempt.game.status == Status.PLAYING:
        return False
    position = attempt.game.position()
    evidence = clairvoyance.judge(
        fairplay.from_the_start(position), [move.notation for move in position.moves],
        seconds=settings.FAIR_PLAY_JUDGE_SECONDS)
    found = {**evidence.as_data(), "stock": fairplay.stock_facts(position),
             "limits": limits_data(attempt.daily.variant)}
    reasons: list[str] = []
    if attempt.game.status == Status.WON:
        scouts = scout_links(attempt)
        wins, total = running_bits(attempt, evidence.bits)
        reasons = reasons_to_hold(attempt.daily.variant, wins, total, scouts)
        found.update(scouts=scouts, running={"wins": wins, "bits": round(total, 2)})
    return attempts.do_store_judgement(attempt.pk, evidence.bits, found, reasons)


def limits_data(variant: str) -> dict[str, Any]:
    """The variant's limits as JSON can keep them (no bits, None: the judge holds no win
    for its bits there)."""
    found = asdict(clairvoyance.limits(variant))
    if found["bits"] == float("inf"):
        found["bits"] = None
    return found


def running_bits(attempt: Attempt, bits: float) -> tuple[int, float]:
    """(wins, bits): this win and the player's previous judged wins of the variant (at
    most clairvoyance.RUNNING_WINS in all, newest first; cleared ones left out), and the
    sum of their bits."""
    earlier = (Attempt.objects.filter(user_id=attempt.user_id, ranked=True, status=Status.WON,
                                      daily__variant=attempt.daily.variant,
                                      daily__date__lt=attempt.daily.date)
               .exclude(clairvoyance=None).exclude(review=Review.CLEARED)
               .order_by("-daily__date")
               .values_list("clairvoyance", flat=True)[:clairvoyance.RUNNING_WINS - 1])
    found = list(earlier)
    return 1 + len(found), bits + sum(found)


def reasons_to_hold(variant: str, wins: int, bits: float,
                    scouts: list[dict[str, Any]]) -> list[str]:
    """Why a win is held, with ``bits`` over the player's last ``wins`` wins and these
    scout links (none: it is not)."""
    bar = clairvoyance.limits(variant).bar(wins)
    reasons = []
    if bits >= bar or (scouts and bits >= SCOUT_BITS_SHARE * bar):
        reasons.append(fairplay.CLAIRVOYANT)
    if scouts:
        reasons.append(fairplay.SCOUT)
    return reasons


def scout_links(winner: Attempt, now: datetime | None = None) -> list[dict[str, Any]]:
    """The day's scout attempts linked to ``winner`` by device, address or timing."""
    links = []
    for other in _gave_up_early(winner, now or timezone.now()):
        facts = fairplay.stock_facts(other.game.position())
        if not fairplay.scout_signal(facts, gave_up=True):
            continue
        link = _link(winner, other, facts)
        if link["device"] or link["address"] or link["timing"]:
            links.append(link)
    return links


def _gave_up_early(winner: Attempt, now: datetime) -> list[Attempt]:
    """Other ranked attempts on the day that hardly placed a card and gave up: lost, or
    idle since before the winner began (or for fairplay.SCOUT_IDLE_S)."""
    others = (Attempt.objects.filter(daily_id=winner.daily_id, ranked=True)
              .exclude(user_id=winner.user_id).exclude(status=Status.WON)
              .exclude(last_move_at=None).select_related("game", "user"))
    found = []
    for other in others:
        if len(fairplay.parse_intervals(other.intervals)) > fairplay.SCOUT_PLACEMENTS:
            continue
        idle = (now - other.last_move_at).total_seconds() >= fairplay.SCOUT_IDLE_S
        before = winner.started_at is not None and other.last_move_at <= winner.started_at
        if other.status == Status.LOST or idle or before:
            found.append(other)
    return found


def _link(winner: Attempt, scout: Attempt, facts: dict[str, Any]) -> dict[str, Any]:
    gap = None
    if winner.started_at is not None and scout.last_move_at is not None:
        gap = (winner.started_at - scout.last_move_at).total_seconds()
    return {
        "attempt": scout.pk,
        "player": scout.user.get_username() if scout.user else "",
        "turned_share": facts["turned_share"], "placements": facts["placements"],
        "status": scout.status,
        "device": bool(winner.device_hash) and scout.device_hash == winner.device_hash,
        "address": bool(winner.address_hash) and scout.address_hash == winner.address_hash,
        "seconds_before": None if gap is None else round(gap),
        "timing": gap is not None and 0 <= gap <= fairplay.SCOUT_WINDOW_S,
    }


def judge_missed(hours: int = 48) -> int:
    """Judge the ranked results that ended in the last ``hours`` and were never judged
    (a task lost with its worker); returns how many were judged."""
    since = timezone.now() - timedelta(hours=hours)
    missed = (Attempt.objects.filter(ranked=True, clairvoyance=None, last_move_at__gte=since)
              .exclude(status=Status.PLAYING).values_list("game_id", flat=True))
    count = 0
    for game_id in list(missed):
        judge_result(str(game_id))
        count += 1
    return count
