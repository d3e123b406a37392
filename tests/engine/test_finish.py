"""The finishing line (patience/tomb/finish.py): when the rest of a game plays itself.

Checked against an independent reading of RULES.md (``forced_home`` below works
on ranks and piles, not on the engine's ``wants``), on hand-stacked decks whose
end is known and on random play over near-sorted decks, where finishing
positions actually occur.
"""

from __future__ import annotations

import random

from engine_builders import CORNER_RUN, SUITS, tomb_order
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import playout, rank, wanted

from patience.tomb import (
    CLASSIC,
    THREE_CARD,
    Kind,
    Position,
    Status,
    can_finish,
    deal_from_cards,
    finishing_line,
    parse_moves,
)

# Every card in an order in which each goes home the moment it is turned.
HOME_ORDER = [r + s for r in CORNER_RUN for s in SUITS] + tomb_order()


def forced_home(position: Position) -> bool:
    """RULES.md read directly: with the stock empty, does playing the top waste card
    home again and again (cells following by themselves) bring all 52 home?"""
    if position.stock or position.status is not Status.PLAYING:
        return False
    piles = [list(pile) for pile in position.foundations]
    cells = [card for card in position.cells if card != -1]
    waste = list(position.waste)

    def place(card: int) -> bool:
        for index, pile in enumerate(piles):
            if wanted(index, pile) == rank(card):
                pile.append(card)
                return True
        return False

    while waste:
        if not place(waste.pop()):
            return False
        settled = False
        while not settled:
            settled = True
            for card in cells:
                if place(card):
                    cells.remove(card)
                    settled = False
                    break
    return sum(map(len, piles)) == 52


def check_line(position: Position) -> None:
    before = position.copy()
    line = finishing_line(position)
    assert position == before  # the position is not touched
    assert (line is not None) == forced_home(position) == can_finish(position)
    if line is None:
        return
    assert not position.stock and line and all(move.kind is Kind.FOUNDATION for move in line)
    assert all(move.target is not None for move in line)  # resolved, as the log stores them
    for move in line:
        before.apply(move)
    assert before.status is Status.WON


def test_a_waste_in_home_order_finishes_in_52_moves() -> None:
    position = Position(deal_from_cards(list(reversed(HOME_ORDER))), CLASSIC)
    for move in parse_moves("D " * 51):
        position.apply(move)
    assert finishing_line(position) is None  # one card is still unseen in the stock
    position.apply(parse_moves("D")[0])
    line = finishing_line(position)
    assert line is not None and len(line) == 52
    check_line(position)


def test_a_card_out_of_order_stops_the_finish() -> None:
    cards = list(reversed(HOME_ORDER))
    cards[10], cards[11] = cards[11], cards[10]  # two tomb cards of different ranks
    assert rank(deal_from_cards(cards).cards[10]) != rank(deal_from_cards(cards).cards[11])
    position = Position(deal_from_cards(cards), CLASSIC)
    for move in parse_moves("D " * 52):
        position.apply(move)
    assert finishing_line(position) is None
    check_line(position)


def test_no_finish_on_a_won_or_fresh_game() -> None:
    position = Position(deal_from_cards(HOME_ORDER), CLASSIC)
    assert finishing_line(position) is None
    for _ in range(52):
        position.apply(parse_moves("D")[0])
        position.apply(parse_moves("F")[0])
    assert position.status is Status.WON
    assert finishing_line(position) is None


NEAR_SORTED = st.builds(
    lambda swaps, seed: _swapped(swaps, seed), st.integers(0, 6), st.integers(0, 2**32))


def _swapped(swaps: int, seed: int) -> list[str]:
    cards = list(reversed(HOME_ORDER))
    rng = random.Random(seed)
    for _ in range(swaps):
        i, j = rng.randrange(52), rng.randrange(52)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(NEAR_SORTED, st.sampled_from([CLASSIC, THREE_CARD]), st.integers(0, 52),
       st.lists(st.integers(0, 2**16), max_size=80))
def test_the_line_agrees_with_the_rules_along_random_play(
    cards: list[str], variant: object, turns: int, picks: list[int],
) -> None:
    position = Position(deal_from_cards(cards), variant)  # type: ignore[arg-type]
    for _ in range(turns):  # turn part of the stock first, so the waste builds up
        if position.stock:
            position.apply(parse_moves("D")[0])
    check_line(position)
    for _ in playout(position, picks):
        check_line(position)


@settings(max_examples=60, deadline=None)
@given(NEAR_SORTED, st.integers(0, 2**32))
def test_the_last_move_of_every_win_was_a_finish(cards: list[str], seed: int) -> None:
    """Before a winning game's last move, the rest played itself: Finish was offered."""
    position = Position(deal_from_cards(cards), CLASSIC)
    rng = random.Random(seed)
    while position.status is Status.PLAYING:
        legal = position.legal_moves()
        home = [move for move in legal if move.kind is Kind.FOUNDATION]
        position.apply(home[0] if home and rng.random() < .9 else rng.choice(legal))
    if position.status is Status.WON:
        last = position.undo()
        assert can_finish(position), last
