"""The solver against a plain exhaustive search on late positions.

A *lost* verdict must never meet a position the plain search wins; every
*won* line must replay to a win in the engine. Late positions (a few cards
left in the stock) are where the plain search finishes, and where the
pruning rules (forced plays, the dead-position test) bite hardest.
"""

from __future__ import annotations

import random

import pytest
from plain import plain_winnable
from plain_relaxation import relaxation_solvable

from patience.tomb import Position, Status, new_game, parse_move
from solver_worker.games.tomb.relaxation import is_dead
from solver_worker.games.tomb.search import (
    Budget,
    Table,
    _core,
    _run_core,
    _run_python,
    solve,
    to_notation,
)

STOCK_LEFT = 9


def late_positions(variant: str, count: int, seed: int) -> list[Position]:
    """Random play (biased toward sensible moves) until few stock cards remain."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        position = new_game(rng.randint(1, 999_999), variant)
        stock_left = rng.randint(0, STOCK_LEFT)
        while position.status is Status.PLAYING and (
            len(position.stock) > stock_left or position.redeals_left
        ):
            legal = position.legal_moves()
            homes = [m for m in legal if m.kind.value == "F"]
            position.apply(rng.choice(homes) if homes and rng.random() < 0.9 else rng.choice(legal))
        if position.status is Status.PLAYING:
            positions.append(position)
    return positions


def assert_line_wins(position: Position, line: list[str]) -> None:
    replay = position.copy()
    for move in line:
        replay.apply(parse_move(move))
    assert replay.status is Status.WON


BACKENDS = [pytest.param(True, id="compiled"), pytest.param(False, id="python")]


@pytest.mark.parametrize("compiled", BACKENDS)
@pytest.mark.parametrize("variant", ["classic", "three-card"])
def test_solver_agrees_with_plain_search(variant: str, compiled: bool) -> None:
    verdicts = {"won": 0, "lost": 0}
    for position in late_positions(variant, 150, seed=7 if variant == "classic" else 8):
        result = solve(position, Budget(nodes=500_000), compiled=compiled)
        truth = plain_winnable(position)
        assert result.verdict != "unknown", position
        assert (result.verdict == "won") == truth, (position, result.verdict)
        if result.verdict == "won":
            assert_line_wins(position, result.line)
        verdicts[result.verdict] += 1
    # Both verdicts occur, so the comparison is not vacuous.
    assert verdicts["won"] > 10 and verdicts["lost"] > 10, verdicts


@pytest.mark.parametrize("variant", ["classic", "three-card"])
def test_restarted_dives_agree_with_plain_search(variant: str) -> None:
    """Restarts (search.py) with very short dives, so that most searches run
    many dives in shuffled orders: every verdict still matches plain search,
    every win replays, and both verdicts occur."""
    assert _core is not None, "the compiled core must be built by the install step"
    verdicts = {"won": 0, "lost": 0}
    restarted = 0
    for position in late_positions(variant, 200, seed=31 if variant == "classic" else 32):
        table = Table.of(position)
        start = (table.stock, table.waste, bytes(table.cells), table.tomb, bytes(table.corners),
                 table.redeals, position.variant.turn)
        outcome: dict[bool, tuple[int, str]] = {}
        for exact in (False, True):
            status, path, _nodes, _checks = _core.search(*start, exact, 0, 0.0, 16, 2, 500)
            outcome[exact] = status, path
        restarted += _core.search(*start, True, 0, 0.0, 16)[2] > 2  # dives of 2 nodes: restarted
        status, path = outcome[True]
        truth = plain_winnable(position)
        assert status == (1 if truth else 0), position  # exhausted means lost, as without dives
        if outcome[False][0] == 1:  # the greedy pass only ever finds real wins
            assert_line_wins(position, to_notation(position, list(outcome[False][1])))
        if truth:
            assert_line_wins(position, to_notation(position, list(path)))
        verdicts["won" if truth else "lost"] += 1
    assert verdicts["won"] > 10 and verdicts["lost"] > 10, verdicts
    assert restarted > 20, restarted  # the dives did happen


# Classic deals the exact search proves lost and wins in 100,000-800,000 nodes:
# far past what a 1-MB table (some 23,000 entries) holds.
LOST_DEALS = (1, 143, 535, 1786, 2299)
WON_DEALS = (2, 5, 7, 8, 14)


def test_a_full_table_forgets_its_cheapest_entries_and_stays_sound() -> None:
    """With a 1-MB table each search fills it early and then forgets (_core.c,
    table_replace): the verdicts stay those of a table with room, every win
    replays, and the lost deals take at most 1.5 times the nodes. (A table that
    stopped remembering once full took 20-160 times the nodes on these deals and
    ran out of 30 s on deal 143.)"""
    assert _core is not None, "the compiled core must be built by the install step"
    for deal in LOST_DEALS + WON_DEALS:
        position = new_game(deal, "classic")
        table = Table.of(position)
        start = (table.stock, table.waste, bytes(table.cells), table.tomb, bytes(table.corners),
                 table.redeals, position.variant.turn, True, 5_000_000, 0.0)
        roomy_status, _line, roomy_nodes, _checks = _core.search(*start, 2048)
        status, path, nodes, _checks = _core.search(*start, 1)
        assert status == roomy_status == (0 if deal in LOST_DEALS else 1), deal
        if deal in LOST_DEALS:
            assert roomy_nodes < nodes <= 1.5 * roomy_nodes, (deal, roomy_nodes, nodes)
        else:
            assert_line_wins(position, to_notation(position, list(path)))


def test_dead_position_test_never_kills_a_winnable_position() -> None:
    dead_seen = 0
    for position in late_positions("classic", 300, seed=11):
        table = Table.of(position)
        counts = [0] * 14
        for rank in table.stock:
            counts[rank] += 1
        if is_dead(table.waste, table.cells, table.tomb, table.corners, counts, limit=100_000):
            dead_seen += 1
            assert not plain_winnable(position), position
    assert dead_seen > 20  # the test prunes something, or this proves nothing


def corner_rule_applies(position: Position) -> bool:
    """Rule 5's case for corners beyond the old one: the top card fits a
    corner, and fewer cards of its rank are left in the stock than corners
    take it, but at least one (none left is the rule's first case)."""
    table = Table.of(position)
    if not table.waste or table.waste[-1] <= 6 or position.redeals_left:
        return False
    top = table.waste[-1]
    return 1 <= table.stock.count(top) < table.corners.count(top - 7)


def corner_rule_positions(count: int, seed: int) -> list[Position]:
    """Positions where rule 5 plays a corner card at once, mostly winnable:
    a random point late on a won classic deal's line, a few random moves,
    then mostly sensible play until the rule applies."""
    rng = random.Random(seed)
    positions: list[Position] = []
    while len(positions) < count:
        position = new_game(rng.randint(1, 999_999), "classic")
        result = solve(position, Budget(nodes=20_000))
        if result.verdict != "won":
            continue
        cut = rng.randint(0, 8)
        for move in result.line:
            if len(position.stock) <= cut:
                break
            position.apply(parse_move(move))
        random_moves = rng.randint(0, 4)
        for step in range(random_moves + 30):
            legal = position.legal_moves()
            if position.status is not Status.PLAYING or not legal:
                break
            if step >= random_moves and corner_rule_applies(position):
                positions.append(position)
                break
            homes = [m for m in legal if m.kind.value == "F"]
            sensible = homes and step >= random_moves and rng.random() < 0.8
            position.apply(rng.choice(homes) if sensible else rng.choice(legal))
    return positions


def test_a_corner_card_played_at_once_keeps_every_win() -> None:
    """Rule 5 for corners (search.py): where fewer cards of its rank are left
    in the stock than corners that take it, playing the top card at once
    loses no win. Plain search from before and after the play agree."""
    verdicts = {True: 0, False: 0}
    for position in corner_rule_positions(60, seed=51):
        played = position.copy()
        played.apply(parse_move("F"))
        winnable = plain_winnable(position)
        assert plain_winnable(played) is winnable, position
        verdicts[winnable] += 1
    assert verdicts[True] > 30, verdicts  # mostly winnable: the check has teeth


def mid_positions(count: int, seed: int) -> list[Position]:
    """Classic positions with 12-36 cards left in the stock, cells in use."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        position = new_game(rng.randint(1, 999_999), "classic")
        stock_left = rng.randint(12, 36)
        while position.status is Status.PLAYING and len(position.stock) > stock_left:
            legal = position.legal_moves()
            homes = [m for m in legal if m.kind.value == "F"]
            parks = [m for m in legal if m.kind.value == "C"]
            roll = rng.random()
            if homes and roll < 0.9:
                position.apply(rng.choice(homes))
            elif parks and roll < 0.35:
                position.apply(rng.choice(parks))
            else:
                position.apply(rng.choice(legal))
        if position.status is Status.PLAYING and position.waste:
            positions.append(position)
    return positions


def test_the_lazy_relaxed_search_answers_as_the_card_at_a_time_one() -> None:
    """The lazy normal form (relaxation.py) loses no relaxed solution: on
    random mid-game and late positions, the dead test (unbounded) says dead
    exactly when the plain relaxed search finds no solution."""
    verdicts = {True: 0, False: 0}
    for position in mid_positions(1200, seed=21) + late_positions("classic", 300, seed=12):
        table = Table.of(position)
        counts = [0] * 14
        for rank in table.stock:
            counts[rank] += 1
        dead = is_dead(table.waste, table.cells, table.tomb, table.corners, counts,
                       limit=10**7)
        solvable = relaxation_solvable(table.waste, table.cells, table.tomb, table.corners,
                                       counts)
        assert dead is not solvable, position
        verdicts[dead] += 1
    assert verdicts[True] > 100 and verdicts[False] > 100, verdicts


@pytest.mark.parametrize("compiled", BACKENDS)
@pytest.mark.parametrize("variant", ["classic", "three-card"])
def test_lines_from_the_start_replay_to_a_win(variant: str, compiled: bool) -> None:
    for deal in (2, 3, 4):
        position = new_game(deal, variant)
        result = solve(position, Budget(seconds=20), compiled=compiled)
        if result.verdict == "won":
            assert_line_wins(position, result.line)
        assert result.verdict != "lost" or variant == "classic"


@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.parametrize("variant", ["classic", "three-card"])
def test_the_compiled_core_searches_exactly_like_the_reference(variant: str, exact: bool) -> None:
    """Same tree, same order, same table: the same outcome, line and node count."""
    rng = random.Random(5)
    positions = late_positions(variant, 40, seed=9) + [
        new_game(rng.randint(1, 999_999), variant) for _ in range(6)
    ]
    turn = positions[0].variant.turn
    for position in positions:
        table = Table.of(position)
        budget = Budget(nodes=20_000)
        assert _run_core(table, turn, budget, exact) == _run_python(table, turn, budget, exact)


def test_the_core_refuses_a_malformed_position() -> None:
    assert _core is not None, "the compiled core must be built by the install step"
    with pytest.raises(ValueError):
        _core.search(b"\x0e", b"", b"", 0, b"\0\0\0\0", 0, 1, True, 10, 0.0, 16)
    with pytest.raises(ValueError):
        _core.search(bytes(53), b"", b"", 0, b"\0\0\0\0", 0, 1, True, 10, 0.0, 16)
