"""The fair-play attacks of issue 25, each played end to end against a running stack
whose worker runs the fair-play judge (FAIR_PLAY_REVIEW=task).

Each returns an Outcome (attacks.Outcome): held or not, and how long from the attack's
first request until its result was held (seen by the cheat in /api/daily/: the judge
runs on the worker once the game ends). tests/service/test_attacks_fair_play.py
asserts each is held; bench/attacks.py prints the times.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from patience import rules_of
from solver_worker.fairplay_measure import first_pass_line

from .attacks import ATTACK_ENV, PLAY, Outcome, Timer, sign_up, sql, today
from .lines import seeded_line
from .stack import Stack, Visitor

FAIR_PLAY_ENV = {**ATTACK_ENV, "FAIR_PLAY_REVIEW": "task"}
HUMAN_PLACEMENT_S = (0.35, 0.5)  # just over the floors: what the pace rules let through
HELD_WITHIN_S = 60.0


def todays_seed(stack: Stack) -> int:
    (seed,) = sql(stack, "SELECT seed FROM leaderboards_daily WHERE date = %s "
                         "AND variant = 'three-card'", today())[0]
    return int(seed)


def play(visitor: Visitor, game_id: str, moves: Any, placement_s: tuple[float, float],
         rng: random.Random) -> None:
    """The moves at a pace: each placement after a pause drawn from ``placement_s``,
    stock turns at once (a held key)."""
    for move in moves:
        if move not in ("D", "R"):
            time.sleep(rng.uniform(*placement_s))
        answer = visitor.post(f"/api/games/{game_id}/moves/", {"move": move})
        assert answer.status_code == 200, answer.text[:300]


def turn_the_stock(visitor: Visitor, game_id: str) -> int:
    """Turn cards until the stock is empty (the scout's whole look); returns the turns."""
    for turns in range(1, 60):
        answer = visitor.post(f"/api/games/{game_id}/moves/", {"move": "D"}).json()
        if answer["state"]["stock_count"] == 0:
            return turns
    raise AssertionError("the stock never ran out")


def wait_until_held(visitor: Visitor, seconds: float = HELD_WITHIN_S) -> dict[str, Any]:
    """The cheat's own view of its result, once held (or after ``seconds``), with
    ``after_win_s``: how long after its winning move the result was seen held."""
    won_at = time.perf_counter()
    deadline = time.monotonic() + seconds
    while True:
        me = dict(visitor.get("/api/daily/three-card/").json()["me"])
        if me["under_review"] or time.monotonic() > deadline:
            return {**me, "after_win_s": round(time.perf_counter() - won_at, 2)}
        time.sleep(0.1)


def public_players(visitor: Visitor) -> set[str]:
    board = visitor.get(f"/api/daily/three-card/{today()}/board/").json()["entries"]
    field = visitor.get("/api/daily/three-card/field/").json()["entries"]
    return {row["player"] for row in board + field}


def flags_of(stack: Stack, name: str) -> tuple[str, Any, Any]:
    found = sql(stack, "SELECT a.flags, a.clairvoyance, a.evidence FROM leaderboards_attempt a "
                       "JOIN auth_user u ON u.id = a.user_id WHERE u.username = %s", name)
    return found[0]


def scout_on_another_address(stack: Stack) -> Outcome:
    """Issue 25's scout: an older account on its own address and device turns the whole
    stock of its ranked attempt and stops; the main account, on another network, then
    plays the solver's line at a person's pace."""
    timer = Timer()
    scout = sign_up(stack, "lookout")
    spied = scout.post(PLAY).json()
    turn_the_stock(scout, spied["id"])
    main = sign_up(stack, "marshal")
    game = main.post(PLAY).json()
    play(main, game["id"], seeded_line(todays_seed(stack)), HUMAN_PLACEMENT_S,
         random.Random(25))
    me = wait_until_held(main)
    seconds = timer.seconds()
    flags, bits, evidence = flags_of(stack, "marshal")
    links = [link["player"] for link in (evidence or {}).get("scouts", [])]
    held = (me["status"] == "won" and me["under_review"] and "scout" in flags.split()
            and links == ["lookout"] and "marshal" not in public_players(main))
    scout.close()
    main.close()
    return Outcome("a scout on another address, the line at a person's pace", held, seconds,
                   f"held {me['after_win_s']} s after the win; flags: {flags}; "
                   f"clairvoyance {bits} bits; scouts linked: {links}")


def first_pass_then_the_line(stack: Stack) -> Outcome:
    """Issue 25's single account on the 3-card daily: the first pass turns every card,
    then (the order now known) a solver's line at a person's pace."""
    rules = rules_of("three-card")
    start = rules.replay(rules.deal_from_seed(todays_seed(stack)),
                         rules.variants["three-card"], [])
    line = first_pass_line(start)
    assert line is not None
    timer = Timer()
    cheat = sign_up(stack, "memoriser")
    game = cheat.post(PLAY).json()
    play(cheat, game["id"], line, HUMAN_PLACEMENT_S, random.Random(26))
    me = wait_until_held(cheat)
    seconds = timer.seconds()
    flags, _, _ = flags_of(stack, "memoriser")
    held = me["status"] == "won" and me["under_review"] and "first-pass" in flags.split()
    cheat.close()
    return Outcome("one account: the whole stock first, then a solver's line", held, seconds,
                   f"held {me['after_win_s']} s after the win; flags: {flags}")


def the_paced_line(stack: Stack) -> Outcome:
    """Issue 25's paced script: the solver's line at 150-300 ms a placement."""
    timer = Timer()
    cheat = sign_up(stack, "metronome")
    game = cheat.post(PLAY).json()
    play(cheat, game["id"], seeded_line(todays_seed(stack)), (0.15, 0.3), random.Random(27))
    me = wait_until_held(cheat)
    seconds = timer.seconds()
    flags, _, _ = flags_of(stack, "metronome")
    held = me["status"] == "won" and me["under_review"] and "pace" in flags.split()
    cheat.close()
    return Outcome("the solver's line at 150-300 ms a placement", held, seconds,
                   f"held {me['after_win_s']} s after the win; flags: {flags}")


def every_attack(stack: Stack) -> list[Callable[[], Outcome]]:
    """Each on its own accounts; the scout's first, as its timing link looks back over
    the day (a later attack's winner would be linked to it too)."""
    return [
        lambda: scout_on_another_address(stack),
        lambda: first_pass_then_the_line(stack),
        lambda: the_paced_line(stack),
    ]
