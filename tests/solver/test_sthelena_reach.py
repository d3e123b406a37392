"""St. Helena's reach test (rule 6 of ``solver_worker.games.sthelena.search``).

A position the test calls dead must be lost: on late positions with no redeal
left (the final stage, and a short stock still to deal), the
plain exhaustive search of ``test_sthelena_search`` must find no win wherever
the test fires, the test must fire on positions that still have legal moves
(or it would be only the rules' own "lost"), and a made-up won position whose
only way on is a build (a card above one that goes home before it) must not be
called dead.
"""

from __future__ import annotations

from test_sthelena_search import plain_winnable, positions  # the search tests' plain search

from patience.protocol import Status
from patience.sthelena import Position, new_game
from patience.sthelena.position import CARD_COUNT, FOUNDATION_SUIT
from solver_worker.driver import Budget
from solver_worker.games.sthelena.search import State, solve, unreachable

SPADES = FOUNDATION_SUIT[0]


def final_position(king_wants: dict[int, int], ace_wants: dict[int, int],
                   piles: list[list[tuple[int, int]]]) -> Position:
    """A final-stage position: the foundations as given (suit -> the rank it wants;
    an unnamed suit complete) and the piles as (suit, rank), bottom first."""
    position = new_game(1)
    table: list[int] = []
    home = 0
    for foundation in range(8):
        suit, king = FOUNDATION_SUIT[foundation], foundation < 4
        wants = (king_wants if king else ace_wants).get(suit, 0)
        ranks = range(13, wants, -1) if king else range(1, wants or 14)
        position.foundations[foundation] = [suit * 13 + rank - 1 for rank in ranks]
        position.wants[foundation] = wants
        home += len(ranks)
        missing = range(1, wants + 1) if king else range(wants or 14, 14)
        table += [(0 if king else 52) + suit * 13 + rank - 1 for rank in missing]
    position.piles = [[] for _ in range(12)]
    for index, cards in enumerate(piles):
        for suit, rank in cards:
            card = next(card for card in table if card % 52 == suit * 13 + rank - 1)
            table.remove(card)
            position.piles[index].append(card)
    assert not table, "every card not home must be on a pile"
    position.stock, position.redeals_left, position.home = [], 0, home
    assert position.home + sum(map(len, position.piles)) == CARD_COUNT
    return position


FINALS = positions(150, seed=3030, twins=True)
WON = [bool(plain_winnable(position)) for position in FINALS]
LOST_FINALS = [position for position, won in zip(FINALS, WON, strict=True) if not won]


def test_every_position_called_dead_is_lost_in_plain_search() -> None:
    called_dead = [won for position, won in zip(FINALS, WON, strict=True)
                   if unreachable(State.of(position))]
    assert not any(called_dead)
    assert len(called_dead) > len(LOST_FINALS) // 2  # it decides most of the lost ones


STOCK_LEFT = [position for position in positions(200, seed=4040)
              if position.stock and not position.redeals_left]


def test_with_a_stock_and_no_redeal_every_position_called_dead_is_lost() -> None:
    called_dead = [position for position in STOCK_LEFT if unreachable(State.of(position))]
    assert not any(plain_winnable(position) for position in called_dead)
    assert len(called_dead) >= 3


def test_it_fires_where_moves_are_left() -> None:
    alive_looking = [position for position in LOST_FINALS
                     if position.legal_moves() and unreachable(State.of(position))]
    assert len(alive_looking) >= 10


def test_a_card_built_out_of_the_way_is_not_dead() -> None:
    # Spades' King foundation wants the 5, which lies under the 3: only a build
    # of the 3 onto the 2 (or the 4) lets the 5 go home.
    position = final_position({SPADES: 5}, {}, [
        [(SPADES, 5), (SPADES, 3)], [(SPADES, 2)], [(SPADES, 4)], [(SPADES, 1)],
    ])
    assert position.status is Status.PLAYING
    assert plain_winnable(position)
    assert not unreachable(State.of(position))
    assert solve(position, Budget(nodes=10_000)).verdict == "won"


def test_a_lock_beside_builds_is_dead() -> None:
    # The 3 of spades covers the 2 of hearts, which the 1 of hearts (over the
    # 4 of spades) waits for; the 3's neighbours lie under that 1 and under the
    # 1 of spades, which waits for the 2 beneath it. The diamonds can still be
    # built on each other, so the position has moves, and none of them helps.
    hearts, diamonds = FOUNDATION_SUIT[1], FOUNDATION_SUIT[3]
    position = final_position({SPADES: 4, hearts: 2, diamonds: 3}, {}, [
        [(hearts, 2), (SPADES, 3)], [(SPADES, 4), (hearts, 1)],
        [(SPADES, 2), (SPADES, 1)], [(diamonds, 3), (diamonds, 1)], [(diamonds, 2)],
    ])
    assert position.legal_moves()
    assert plain_winnable(position) is False
    assert unreachable(State.of(position))
    assert solve(position, Budget(nodes=10_000)).verdict == "lost"
