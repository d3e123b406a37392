"""The two-deck Tomb's search: its wins replay in the engine, and its pruning (corners
alike, sides alike, no whole-stack moves) gives the plain search's verdicts on small
late positions, where both search the whole space."""

from __future__ import annotations

import random

import pytest

from patience.cards import parse_card
from patience.twodeck import Position, new_game, parse_moves
from solver_worker.driver import Budget
from solver_worker.games.twodeck.blind import careful_move
from solver_worker.games.twodeck.search import PLAIN, solve

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


@pytest.mark.parametrize("seed", range(40))
def test_the_pruning_agrees_with_plain_search(seed: int) -> None:
    position = late_position(seed, 6 + seed % 7)
    pruned = solve(position, Budget(nodes=200_000), greedy_share=0.0)
    plain = solve(position, Budget(nodes=200_000), greedy_share=0.0, pruning=PLAIN)
    assert pruned.verdict != "unknown" and plain.verdict != "unknown"
    assert pruned.verdict == plain.verdict


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
    assert solve(position, Budget(nodes=10_000)).verdict == "lost"
    assert solve(position, Budget(nodes=10_000), pruning=PLAIN).verdict == "lost"


@pytest.mark.parametrize("number", [75, 76])
def test_a_won_deal_has_a_line_that_wins_in_the_engine(number: int) -> None:
    position = new_game(number)
    result = solve(position, Budget(seconds=20))
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
