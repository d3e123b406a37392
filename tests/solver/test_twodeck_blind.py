"""The two-deck Tomb's blind knowledge: the moves it plays unsampled are the search's
safe home moves only, and the win-finding pass it lends the sampling player finds
lines that win in the engine."""

from __future__ import annotations

from test_twodeck_search import late_position  # the search tests' made-up positions

from patience.cards import parse_card
from patience.twodeck import Kind, new_game, parse_moves
from solver_worker.games.twodeck.blind import (
    TWO_DECK_BLIND,
    careful_move,
    find_line,
    real_choices,
)


def test_only_a_card_home_at_its_second_place_is_played_unsampled() -> None:
    checked = 0
    for seed in range(30):
        position = late_position(seed, 8)
        for move in real_choices(position):
            safe = TWO_DECK_BLIND.safe_move(position, move)
            home_late = (move.kind is Kind.CARD and move.to_base
                         and len(position.bases[move.target]) >= 13
                         and (move.source <= 8 or position.round >= 4))
            assert safe == home_late
            checked += safe
    assert checked > 0
    fresh = new_game(1)
    assert not any(TWO_DECK_BLIND.safe_move(fresh, move) for move in fresh.legal_moves())


def test_the_win_finding_pass_finds_a_line_that_wins_in_the_engine() -> None:
    position = new_game(1)
    verdict, line = find_line(position, 400_000, 20.0)
    assert verdict == "won"
    replayed = position.copy()
    for move in parse_moves(" ".join(line)):
        replayed.apply(move)
    assert replayed.home == 104


def test_the_careful_player_sends_a_card_home_from_a_working_stack() -> None:
    """5H 6H on the north place, hearts wanting the 6H: a card home is no lateral move
    though it leaves the 5H behind (the players once never played it, and lost every
    game with cards waiting on the stacks)."""
    position = late_position(0, 0)
    hearts = next(b for b in position.bases if b[0] % 52 // 13 == 2)
    del hearts[-6:]
    position.places = [[parse_card("5H") + 52, parse_card("6H") + 52], [], [], []]
    position.waste = [[parse_card(t) + 52 for t in ("AH", "2H", "3H", "4H")], [], [], [],
                      []]
    position.walls, position.stock, position.centre, position.round = [[], [], [], []], [], [], 5
    position.home = sum(map(len, position.bases))
    move = careful_move(position)
    corner = ("nw", "ne", "sw", "se")[position.bases.index(hearts)]
    assert move is not None and move.notation == f"pn-{corner}"
    while (move := careful_move(position)) is not None:
        position.apply(move)
    assert position.home == 104
