"""The two-deck Tomb's search: its wins replay in the engine, and its pruning (corners
alike, sides alike, no whole-stack moves, safe home moves, the dead test) gives the plain
search's verdicts on small late positions, where both search the whole space; the
compiled core gives the reference walk's verdicts there too."""

from __future__ import annotations

import random

import pytest

from patience.cards import parse_card
from patience.twodeck import Position, new_game, parse_moves
from solver_worker.driver import Budget
from solver_worker.games.twodeck.blind import careful_move
from solver_worker.games.twodeck.search import (
    PLAIN,
    Pruning,
    TwoDeckSearch,
    _core,
    one_pass,
    pile_dead,
    solve,
    state_of,
)

needs_core = pytest.mark.skipif(_core is None, reason="the compiled core is not built")

RUN = [f"{rank}{suit}" for suit in "CSHD" for rank in "KQJT98765432A"]


def late_position(seed: int, loose: int) -> Position:
    """Every base full but for ``loose`` cards taken back off the tops and laid, in a
    random order, on the walls, the waste piles and the stock."""
    rng = random.Random(seed)
    position = new_game(1)
    decks = [[c + 52 * d for c in range(52)] for d in (0, 1)]
    bases: list[list[int]] = []
    for suit in range(4):
        run = [s * 13 + r for s in (suit,) for r in range(12, -1, -1)]
        bases.append([decks[0][c] for c in run] + [decks[1][c] for c in run])
    taken: list[int] = []
    suits = rng.sample(range(4), 2)  # two suits only, so their cards block each other
    for _ in range(loose):
        taken.append(bases[rng.choice(suits)].pop())
    rng.shuffle(taken)
    position.bases = bases
    position.walls = [[], [], [], []]
    position.places = [[], [], [], []]
    position.centre = []
    position.waste = [[], [], [], [], []]
    position.stock = []
    for card in taken:
        where = min(rng.randrange(4), 2)  # walls most often: their order can block
        if where == 0:
            position.walls[rng.randrange(4)].append(card)
        elif where == 1:
            position.waste[rng.randrange(5)].append(card)
        else:
            position.stock.append(card)
    for i, wall in enumerate(position.walls):
        if wall:
            position.places[i].append(wall.pop())
    position.round = 5 if seed % 2 else rng.randrange(1, 6)
    position.home = sum(map(len, bases))
    return position


def verdict(position: Position, pruning: Pruning | None = None, compiled: bool = False) -> str:
    result = solve(position, Budget(nodes=300_000), greedy_share=0.0,
                   pruning=pruning or Pruning(), compiled=compiled)
    assert result.verdict != "unknown"
    return result.verdict


@pytest.mark.parametrize("seed", range(40))
def test_the_pruning_agrees_with_plain_search(seed: int) -> None:
    position = late_position(seed, 6 + seed % 9)
    assert verdict(position) == verdict(position, PLAIN)


@pytest.mark.parametrize("rule", ["safe", "dead"])
def test_each_new_rule_alone_agrees_with_plain_search(rule: str) -> None:
    only = Pruning(symmetry=False, singles=False, safe=rule == "safe", dead=rule == "dead")
    for seed in range(40, 70):
        position = late_position(seed, 6 + seed % 9)
        assert verdict(position, only) == verdict(position, PLAIN), seed


@needs_core
@pytest.mark.parametrize("seed", range(120))
def test_the_compiled_core_agrees_with_the_reference(seed: int) -> None:
    position = late_position(seed, 6 + seed % 9)
    assert verdict(position, compiled=True) == verdict(position)
    assert verdict(position, PLAIN, compiled=True) == verdict(position, PLAIN)


@needs_core
@pytest.mark.parametrize("seed", range(0, 60, 3))
def test_the_core_walks_the_reference_graph_node_for_node(seed: int) -> None:
    """Not only the verdicts: the same classes in the same order, so the same count."""
    state = state_of(late_position(seed, 6 + seed % 9))
    core = one_pass(state, Budget(nodes=300_000), True, compiled=True)
    reference = one_pass(state, Budget(nodes=300_000), True, compiled=False)
    assert core == reference


@needs_core
def test_the_core_finds_the_reference_greedy_line_on_a_deal() -> None:
    state = state_of(new_game(30))
    core = one_pass(state, Budget(nodes=20_000), False, compiled=True)
    assert core[0] == "won"
    assert core == one_pass(state, Budget(nodes=20_000), False, compiled=False)


def test_the_late_positions_hold_wins_and_losses() -> None:
    """The agreement tests above would prove little if every position went one way."""
    verdicts = {verdict(late_position(seed, 6 + seed % 9)) for seed in range(40)}
    assert verdicts == {"won", "lost"}


def test_the_dead_test_reads_a_twice_bound_card_over_a_higher_one() -> None:
    """Hearts hold 17 (K..A, then K..T): the base wants 9H, and one 7H and one 6H are home.
    A 7H over the 9H, with the other 6H under it too, can only go home, after the 9H."""
    hearts = [0, 0, 17, 0]
    nine, seven, six = (parse_card(t) for t in ("9H", "7H", "6H"))
    assert pile_dead(bytes((nine, six, seven)), hearts)
    assert pile_dead(bytes((six, nine, seven)), hearts)
    assert not pile_dead(bytes((nine, seven, six)), hearts)  # 6H leaves first, 7H onto it
    assert not pile_dead(bytes((nine, seven)), hearts)  # the other 6H may still show
    assert not pile_dead(bytes((seven, nine)), hearts)  # 9H on top leaves first
    assert not pile_dead(bytes((nine, six, seven)), [0, 0, 5, 0])  # 7H's first place open
    assert TwoDeckSearch().dead(state_of(lost_position())) is False


def test_the_dead_test_chains_the_stuck_cards_of_a_suit() -> None:
    """Both 7H lie on both 6H, over a 9H, and no heart is home: the two 7H can only go
    home, at places 6 and 19, so the 9H under them misses both of its own (4 and 17)."""
    nine, seven, six, five = (parse_card(t) for t in ("9H", "7H", "6H", "5H"))
    assert pile_dead(bytes((nine, six, six, seven, seven)), [0, 0, 0, 0])
    assert not pile_dead(bytes((five, six, six, seven, seven)), [0, 0, 0, 0])  # 5H: 21
    assert not pile_dead(bytes((nine, six, seven, six, seven)), [0, 0, 0, 0])  # a 6H free


def parked_position() -> Position:
    """Spades hold 17 (they want 9S); the north wall holds 9S 6S 7S (7S on top), the
    north place 5S, the centre AS-4S, the one waste pile of round 5 the 8S. Read as a
    fixed pile the wall would be dead (7S stuck over the 9S), but 5S onto the centre
    refills the place with the 7S, and then 6S onto the centre, 9S, 8S, 7S home..."""
    position = late_position(0, 0)
    spades = next(b for b in position.bases if b[0] % 52 // 13 == 1)
    del spades[-9:]

    def card(text: str) -> int:
        return parse_card(text) + 52

    position.walls = [[card("9S"), card("6S"), card("7S")], [], [], []]
    position.places = [[card("5S")], [], [], []]
    position.centre = [card(t) for t in ("AS", "2S", "3S", "4S")]
    position.waste = [[card("8S")], [], [], [], []]
    position.round, position.stock = 5, []
    position.home = sum(map(len, position.bases))
    return position


def test_a_wall_is_no_fixed_pile_its_top_card_waits_in_its_place() -> None:
    position = parked_position()
    state = state_of(position)
    assert pile_dead(state[0][0], [26, 17, 26, 26])  # the wall read as a fixed pile
    assert not TwoDeckSearch().dead(state)
    assert solve(position, Budget(nodes=10_000), compiled=False).verdict == "won"
    assert solve(position, Budget(nodes=10_000), pruning=PLAIN, compiled=False).verdict == "won"
    if _core is not None:
        assert solve(position, Budget(nodes=10_000), compiled=True).verdict == "won"


def lost_position() -> Position:
    """Hearts want the 5 (under the 2 and 3 of clubs in the north wall), clubs want the 4
    (under the 5 of hearts); the aces lie under the 4 of hearts on the one waste pile of
    the fifth round: nothing can move."""
    position = late_position(0, 0)
    for suit in ("H", "C"):
        base = next(b for b in position.bases if b[0] % 52 // 13 == "CSHD".index(suit))
        del base[-(5 if suit == "H" else 4):]
    position.walls = [[parse_card(t) + 52 for t in ("4C", "5H", "2C")], [], [], []]
    position.places = [[parse_card("3C") + 52], [], [], []]
    position.waste = [[parse_card(t) + 52 for t in ("AC", "AH", "2H", "3H", "4H")], [], [],
                      [], []]
    position.round, position.stock = 5, []
    position.home = sum(map(len, position.bases))
    return position


def test_a_lost_position_is_proved_lost_by_both_searches() -> None:
    position = lost_position()
    assert position.home == 95
    assert solve(position, Budget(nodes=10_000), compiled=False).verdict == "lost"
    assert solve(position, Budget(nodes=10_000), pruning=PLAIN, compiled=False).verdict == "lost"
    if _core is not None:
        assert solve(position, Budget(nodes=10_000), compiled=True).verdict == "lost"


@pytest.mark.parametrize(("number", "compiled"), [(75, False), (76, False), (1, True),
                                                  (5, True)])
def test_a_won_deal_has_a_line_that_wins_in_the_engine(number: int, compiled: bool) -> None:
    if compiled and _core is None:
        pytest.skip("the compiled core is not built")
    position = new_game(number)
    result = solve(position, Budget(seconds=20), compiled=compiled)
    assert result.verdict == "won"
    replayed = position.copy()
    for move in parse_moves(" ".join(result.line)):
        replayed.apply(move)
    assert replayed.home == 104


def test_the_careful_player_ends_every_game() -> None:
    for number in range(1, 30):
        position = new_game(number)
        plies = 0
        while (move := careful_move(position)) is not None:
            position.apply(move)
            plies += 1
        assert plies < 500
