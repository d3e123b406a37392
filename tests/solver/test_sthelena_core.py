"""St. Helena's compiled core against search.py, the reference it must follow node for node.

The positions come from real deals: random play from the deal (a stock and redeals
left), and the greedy pass's own winning lines, stopped part way and then pushed off
course by a few random legal moves (a redeal left, the last stock, the final stage).
On each, the core's greedy and exact passes must give the reference's outcome, line
and node count for the same node budget, with every rule and with none; its restarts
must give the reference restarts' for the same seed. On small late positions each rule
alone, and all of them, must keep the plain search's verdict; every "won" line must
replay in the engine; a malformed state must raise, not crash.
"""

from __future__ import annotations

import random
import time
from dataclasses import replace
from functools import cache

import pytest

from patience.protocol import Status
from patience.sthelena import Position, new_game, parse_move
from solver_worker.driver import Budget, Outcome
from solver_worker.games.sthelena.search import (
    ALL_RULES,
    NO_RULES,
    Pruning,
    State,
    _core,
    core_flags,
    one_pass,
    replay_line,
    restart_pass,
    seed_words,
    solve,
)

pytestmark = pytest.mark.skipif(_core is None, reason="the compiled core is not built")

# Deals whose greedy pass wins within a few hundred nodes: cheap winning lines.
QUICK_DEALS = (5, 6, 8, 10, 14, 15, 20, 27)
EACH_RULE = [replace(NO_RULES, **{rule: True}) for rule in
             ("symmetry", "no_emptying_build", "forced_home", "dead_test", "reach_test")]


def wander(position: Position, rng: random.Random, steps: int) -> Position:
    """``position`` after up to ``steps`` random legal moves (fewer if the game ends)."""
    twin = position.copy()
    for _ in range(steps):
        moves = twin.legal_moves()
        if not moves or twin.status is not Status.PLAYING:
            break
        twin.apply(rng.choice(moves))
    return twin


def greedy_line(deal: int) -> list[str]:
    status, line, _ = one_pass(State.of(new_game(deal)), Budget(nodes=3_000), False,
                               compiled=False)
    assert status == "won"
    return line


def along(deal: int, line: list[str], stop: int) -> Position:
    """The deal after the first ``stop`` moves of ``line``."""
    position = new_game(deal)
    for text in line[:stop]:
        position.apply(parse_move(text))
    return position


def in_play(positions: list[Position]) -> list[Position]:
    return [p for p in positions if p.status is Status.PLAYING]


def sample() -> list[Position]:
    rng = random.Random(2027)
    early = [wander(new_game(deal), rng, rng.randrange(0, 60)) for deal in range(1, 13)]
    later: list[Position] = []
    for deal in QUICK_DEALS:
        line = greedy_line(deal)
        for share in (0.3, 0.55, 0.75, 0.9):
            later.append(wander(along(deal, line, int(len(line) * share)), rng,
                                rng.randrange(0, 4)))
    return in_play(early + later)


def small_late_sample() -> list[Position]:
    """Final-stage positions with few cards left: the last moves of winning lines, then
    a few random moves (some of which lose)."""
    rng = random.Random(4041)
    found: list[Position] = []
    for deal in QUICK_DEALS:
        line = greedy_line(deal)
        for back in (6, 10, 14, 18, 22, 26):
            found += [wander(along(deal, line, len(line) - back), rng, steps)
                      for steps in (1, 3, 5)]
    return [p for p in in_play(found) if not p.stock and not p.redeals_left]


SAMPLE = sample()
SMALL_LATE = small_late_sample()


def both(state: State, budget: Budget, exact: bool, pruning: Pruning = ALL_RULES
         ) -> tuple[Outcome, Outcome]:
    return (one_pass(state, budget, exact, pruning, compiled=True),
            one_pass(state, budget, exact, pruning, compiled=False))


def test_the_sample_reaches_every_stage() -> None:
    """The equality tests below would prove little on one kind of position."""
    states = [State.of(position) for position in SAMPLE]
    assert len(states) > 35
    assert sum(s.redeals == 2 for s in states) >= 5
    assert sum(s.redeals == 1 for s in states) >= 5
    assert sum(s.redeals == 0 and bool(s.stock) for s in states) >= 3
    assert sum(s.final_stage for s in states) >= 8


@pytest.mark.parametrize("exact", [False, True], ids=["greedy", "exact"])
@pytest.mark.parametrize("nodes", [300, 1_500])
def test_the_core_walks_the_reference_graph_node_for_node(exact: bool, nodes: int) -> None:
    outcomes = set()
    for position in SAMPLE:
        core, reference = both(State.of(position), Budget(nodes=nodes), exact)
        assert core == reference, position
        outcomes.add(core[0])
        if core[0] == "won":
            assert replay_line(position, core[1])
    assert {"won", "budget"} <= outcomes


@pytest.mark.parametrize("pruning", [NO_RULES, *EACH_RULE],
                         ids=["none", *(f"only-{i}" for i in range(5))])
def test_each_rule_switch_walks_as_the_reference(pruning: Pruning) -> None:
    for position in SAMPLE[::4] + SMALL_LATE[::3]:
        for exact in (False, True):
            core, reference = both(State.of(position), Budget(nodes=600), exact, pruning)
            assert core == reference, (position, exact)


@pytest.mark.parametrize("pruning", [ALL_RULES, replace(ALL_RULES, reach_test=False)],
                         ids=["all", "no-reach-test"])
def test_the_core_exhausts_as_the_reference_on_small_late_positions(pruning: Pruning) -> None:
    """Whole searches, not only cut ones: the same verdicts after the same nodes."""
    statuses, longest_loss = set(), 0
    for position in SMALL_LATE[::2]:
        core, reference = both(State.of(position), Budget(nodes=20_000), True, pruning)
        assert core == reference, position
        status, _, nodes = core
        statuses.add(status)
        longest_loss = max(longest_loss, nodes if status == "exhausted" else 0)
    assert {"won", "exhausted"} <= statuses and longest_loss > 50


def core_outcome(position: Position, pruning: Pruning) -> tuple[str, int]:
    status, line, nodes = one_pass(State.of(position), Budget(nodes=2_000_000), True,
                                   pruning, compiled=True)
    assert status != "budget", position
    if status == "won":
        assert replay_line(position, line)
    return str(status), nodes


@cache
def plain_verdicts() -> tuple[list[Position], list[str]]:
    """The small late positions whose plain search (no rule) ends within 100,000 nodes,
    and its verdicts."""
    kept, verdicts = [], []
    for position in SMALL_LATE:
        status, nodes = core_outcome(position, NO_RULES)
        if nodes <= 100_000:
            kept.append(position)
            verdicts.append(status)
    return kept, verdicts


@pytest.mark.parametrize("pruning", [*EACH_RULE, ALL_RULES],
                         ids=[*(f"only-{i}" for i in range(5)), "all"])
def test_each_rule_on_the_core_keeps_the_plain_verdict(pruning: Pruning) -> None:
    positions, plain = plain_verdicts()
    assert len(positions) > 100 and {"won", "exhausted"} == set(plain)
    assert [core_outcome(position, pruning)[0] for position in positions] == plain


@pytest.mark.parametrize("seed", [0, 3, -7, 2**40 + 5])
def test_the_core_restarts_are_the_reference_restarts(seed: int) -> None:
    for position in SAMPLE[::9]:
        state = State.of(position)
        core = restart_pass(state, Budget(nodes=4_000), seed=seed, compiled=True)
        assert core == restart_pass(state, Budget(nodes=4_000), seed=seed, compiled=False)


def test_a_seed_past_32_bits_draws_on_its_high_word() -> None:
    """On this position the reference's restarts win at once with seed 2^40 + 5 and not
    with seed 5, so a core that dropped the seed's high word would fail here."""
    state = State.of(SAMPLE[11])
    budget = Budget(nodes=20_000)
    low = restart_pass(state, budget, seed=5, compiled=False)
    high = restart_pass(state, budget, seed=2**40 + 5, compiled=False)
    assert high[0] == "won" and low[0] != "won"
    assert restart_pass(state, budget, seed=2**40 + 5, compiled=True) == high
    assert restart_pass(state, budget, seed=5, compiled=True) == low


def test_a_restart_win_is_the_reference_s_line() -> None:
    """Deal 41 is won by the restarts with seed 0 (the two passes leave it undecided)."""
    state = State.of(new_game(41))
    core = restart_pass(state, Budget(nodes=50_000), seed=0, compiled=True)
    assert core[0] == "won"
    assert core == restart_pass(state, Budget(nodes=50_000), seed=0, compiled=False)
    assert replay_line(new_game(41), core[1])


def test_seed_words_are_the_seed_s_absolute_value_in_32_bit_words() -> None:
    assert seed_words(0) == (0,)
    assert seed_words(-3) == (3,)
    assert seed_words(2**40 + 5) == (5, 256)


def test_solve_on_the_core_gives_the_reference_result() -> None:
    for deal in (6, 41):
        budget = Budget(nodes=8_000)
        core = solve(new_game(deal), budget, greedy_share=0.05, restart_share=0.5,
                     restart_seed=3, compiled=True)
        reference = solve(new_game(deal), budget, greedy_share=0.05, restart_share=0.5,
                          restart_seed=3, compiled=False)
        assert (core.verdict, core.line, core.nodes) == (
            reference.verdict, reference.line, reference.nodes)


def test_a_seconds_budget_stops_the_core() -> None:
    state = State.of(new_game(41))
    began = time.perf_counter()
    status, _, nodes = one_pass(state, Budget(seconds=0.2), True, compiled=True)
    assert status == "budget" and nodes > 0
    status, _, _ = restart_pass(state, Budget(seconds=0.2), seed=1, compiled=True)
    assert status == "budget"
    assert time.perf_counter() - began < 3


def test_a_budget_of_nothing_is_spent_at_once_as_in_the_reference() -> None:
    # The core reads 0 seconds and negative nodes as "no limit"; a caller's must not.
    # Deal 3's greedy pass wins in under 2,000 nodes when nothing stops it.
    state = State.of(new_game(3))
    assert one_pass(state, Budget(nodes=100_000), False, compiled=True)[0] == "won"
    for compiled in (True, False):
        for nothing in (Budget(seconds=0.0), Budget(nodes=0), Budget(nodes=-5)):
            status, _, _ = one_pass(state, nothing, False, compiled=compiled)
            assert status == "budget", (nothing, compiled)


def test_a_table_that_cannot_grow_ends_the_pass_as_budget() -> None:
    """A full failed table must not turn into a verdict: 1 MB holds a few thousand keys."""
    state = State.of(new_game(41))
    status, line, nodes = one_pass(state, Budget(nodes=500_000), True, compiled=True,
                                   table_mb=1)
    assert (status, line) == ("budget", [])
    assert nodes < 500_000


def core_args(state: State, **changes: object) -> list[object]:
    fields = {"stock": state.stock, "piles": state.piles, "wants": state.wants,
              "redeals": state.redeals, "home": state.home}
    fields.update(changes)
    return [*fields.values(), True, core_flags(ALL_RULES), 1_000, 0.0, 64]


@pytest.mark.parametrize("changes", [
    {"piles": (b"",) * 11},
    {"piles": (b"\x40",) + (b"",) * 11},
    {"wants": b"\x00" * 7},
    {"wants": b"\x0e" + b"\x00" * 7},
    {"redeals": -1},
    {"home": 0},
    {"stock": b"\x05" * 3},
    {"piles": ("x",) + (b"",) * 11},
    {"stock": "not bytes"},
], ids=["eleven-piles", "face-64", "seven-wants", "wants-14", "negative-redeals",
        "home-wrong", "third-copy", "pile-not-bytes", "stock-not-bytes"])
def test_a_malformed_state_raises_a_clear_error(changes: dict[str, object]) -> None:
    state = State.of(new_game(1))
    with pytest.raises((ValueError, TypeError)):
        _core.search(*core_args(state, **changes))
    # the same state unchanged is accepted: the error came from the change
    assert _core.search(*core_args(state))[0] in ("won", "exhausted", "budget")
