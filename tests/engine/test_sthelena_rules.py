"""St. Helena's rules (RULES-CROSS-AND-ST-HELENA.md, section 2), one restriction at a time.

Foundations: k1..k4 are the Kings of spades, hearts, clubs, diamonds (building
down), a1..a4 the Aces of the same suits (building up).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from patience import Status, game_named, rules_of
from patience.cards import RANK, parse_card, suit_of
from patience.errors import IllegalMove
from patience.sthelena import (
    CARD_COUNT,
    PILES,
    STOCK_SIZE,
    Position,
    deal_from_number,
    new_game,
    parse_move,
    text_of,
)
from patience.sthelena.position import (
    ACE_FOUNDATIONS,
    FOUNDATION_SUIT,
    KING_FOUNDATIONS,
    base_card,
    wants_after,
)

RULES = rules_of("st-helena")


# -- hand-set tables: the rules read only the stock, the piles, the foundations
# and the redeals left, so a test names just the cards that matter to it ------


def cards(texts: str) -> list[int]:
    """Cards from texts (first-deck copies; the rules never tell the twins apart)."""
    return [parse_card(text) for text in texts.split()]


def set_table(
    piles: dict[str, str] | None = None,
    stock: str = "",
    wants: dict[str, int] | None = None,
    redeals_left: int = 2,
) -> Position:
    """A position with the given piles (bottom first), stock (top first) and the
    rank each named foundation wants (the others want their second card)."""
    position = new_game(1)
    position.piles = [cards((piles or {}).get(name, "")) for name in PILES]
    position.stock = list(reversed(cards(stock)))
    position.redeals_left = redeals_left
    names = ("k1", "k2", "k3", "k4", "a1", "a2", "a3", "a4")
    for foundation, name in enumerate(names):
        want = (wants or {}).get(name, wants_after(foundation, RANK[base_card(foundation)]))
        set_foundation(position, foundation, want)
    return position


def set_foundation(position: Position, foundation: int, wants: int) -> None:
    """Fill a foundation so that it wants ``wants`` (0: complete)."""
    suit = FOUNDATION_SUIT[foundation]
    if foundation in KING_FOUNDATIONS:
        ranks: Sequence[int] = range(13, wants, -1)
    else:
        assert foundation in ACE_FOUNDATIONS
        ranks = range(1, (wants or 14))
    pile = [suit * 13 + rank - 1 for rank in ranks]
    old = len(position.foundations[foundation])
    position.foundations[foundation] = pile
    position.wants[foundation] = wants
    position.home += len(pile) - old
    assert all(suit_of(card) == suit for card in pile)


def tops(position: Position) -> dict[str, str | None]:
    return {name: (text_of(pile[-1]) if pile else None)
            for name, pile in zip(PILES, position.piles, strict=True)}




def legal(position) -> set[str]:  # type: ignore[no-untyped-def]
    return {move.notation for move in position.legal_moves()}


def play(position, *texts: str) -> None:  # type: ignore[no-untyped-def]
    for text in texts:
        position.apply(parse_move(text))


# -- the start --------------------------------------------------------------

def test_the_deal_puts_one_card_on_each_pile_in_order() -> None:
    deal = deal_from_number(42)
    position = new_game(deal)
    assert [pile for pile in position.piles] == [[card] for card in deal.cards[:12]]
    assert len(position.stock) == STOCK_SIZE - 12
    assert position.home == 8
    assert [text_of(f[-1]) for f in position.foundations] == [
        "KS", "KH", "KC", "KD", "AS", "AH", "AC", "AD"]
    assert position.status is Status.PLAYING


def test_registry_knows_the_game_and_its_variant() -> None:
    assert rules_of("st-helena") is game_named("st-helena")
    game = game_named("st-helena")
    assert (game.name, game.card_count, game.default_variant.name) == (
        "St. Helena", CARD_COUNT, "St. Helena")


# -- while the stock lasts ----------------------------------------------------

@pytest.mark.parametrize("pile", ["p1", "p2", "p3", "p4"])
def test_top_row_piles_go_only_to_the_kings_while_the_stock_lasts(pile: str) -> None:
    position = set_table({pile: "QS"}, stock="5C", wants={"a1": 12})
    assert legal(position) == {"D", f"P@{pile}@k1"}
    with pytest.raises(IllegalMove, match="only to the King foundations"):
        play(position, f"P@{pile}@a1")


@pytest.mark.parametrize("pile", ["p7", "p8", "p9", "p10"])
def test_bottom_row_piles_go_only_to_the_aces_while_the_stock_lasts(pile: str) -> None:
    position = set_table({pile: "QS"}, stock="5C", wants={"a1": 12})
    assert legal(position) == {"D", f"P@{pile}@a1"}
    with pytest.raises(IllegalMove, match="only to the Ace foundations"):
        play(position, f"P@{pile}@k1")


@pytest.mark.parametrize("pile", ["p5", "p6", "p11", "p12"])
def test_side_piles_go_to_either_row_while_the_stock_lasts(pile: str) -> None:
    position = set_table({pile: "QS"}, stock="5C", wants={"a1": 12})
    assert legal(position) == {"D", f"P@{pile}@k1", f"P@{pile}@a1"}
    play(position, f"P@{pile}@a1")
    assert position.wants[4] == 13


def test_no_building_while_the_stock_lasts() -> None:
    position = set_table({"p1": "5H", "p2": "6H"}, stock="5C")
    assert legal(position) == {"D"}
    with pytest.raises(IllegalMove, match="no building"):
        play(position, "P@p1@p2")


def test_a_card_must_fit_its_foundation() -> None:
    position = set_table({"p5": "JS"}, stock="5C")
    with pytest.raises(IllegalMove, match="does not fit k1"):
        play(position, "P@p5@k1")
    with pytest.raises(IllegalMove, match="p6 is empty"):
        play(position, "P@p6@k1")


# -- D --------------------------------------------------------------------------

def test_deal_fills_the_empty_piles_first_and_nothing_else() -> None:
    piles = {name: "9C" for name in PILES if name not in ("p3", "p8")}
    position = set_table(piles, stock="2C 3C 4C 5C")
    play(position, "D")
    assert tops(position)["p3"] == "2C" and tops(position)["p8"] == "3C"
    assert [len(pile) for pile in position.piles] == [1] * 12
    assert [text_of(card) for card in reversed(position.stock)] == ["4C", "5C"]


def test_deal_with_no_empty_pile_puts_one_card_on_every_pile_in_order() -> None:
    stock = "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC 2D 3D"
    position = set_table({name: "9H" for name in PILES}, stock=stock)
    play(position, "D")
    assert list(tops(position).values()) == stock.split()[:12]
    assert [text_of(card) for card in position.stock] == ["3D"]


def test_deal_stops_when_the_stock_runs_out() -> None:
    position = set_table({name: "9H" for name in PILES}, stock="2C 3C")
    play(position, "D")
    assert [len(pile) for pile in position.piles] == [2, 2] + [1] * 10
    assert not position.stock and "D" not in legal(position)


# -- once the stock is empty -----------------------------------------------------

def test_once_the_stock_is_empty_any_pile_goes_to_any_foundation() -> None:
    position = set_table({"p1": "2S", "p8": "QS"}, wants={"a1": 2})
    assert {"P@p1@a1", "P@p8@k1"} <= legal(position)


def test_builds_are_in_suit_one_rank_above_or_below() -> None:
    position = set_table({"p1": "5H", "p2": "6H", "p3": "4H", "p4": "6D", "p5": "5S"})
    moves = legal(position)
    assert {"P@p1@p2", "P@p1@p3", "P@p2@p1", "P@p3@p1"} <= moves
    assert "P@p1@p4" not in moves and "P@p5@p1" not in moves and "P@p2@p3" not in moves
    play(position, "P@p1@p2")
    assert tops(position)["p2"] == "5H" and tops(position)["p1"] is None
    with pytest.raises(IllegalMove, match="does not go onto"):
        play(position, "P@p4@p2")
    with pytest.raises(IllegalMove, match="p1 is empty"):
        play(position, "P@p3@p1")


# -- R ----------------------------------------------------------------------------

def test_redeal_puts_the_bottom_card_of_p12_on_top_of_the_new_stock() -> None:
    piles = {"p1": "2C 3C", "p2": "4C", "p11": "5D 6D", "p12": "7H 8H 9H"}
    position = set_table(piles, redeals_left=2)
    assert "R" in legal(position)
    play(position, "R")
    assert not any(position.piles) and position.redeals_left == 1
    # Top first: p12 bottom to top, then p11, ... then p1.
    assert [text_of(card) for card in reversed(position.stock)] == [
        "7H", "8H", "9H", "5D", "6D", "4C", "2C", "3C"]
    play(position, "D")  # every pile is empty: D fills them in order, as at the start
    assert list(tops(position).values())[:8] == ["7H", "8H", "9H", "5D", "6D", "4C", "2C", "3C"]


def test_the_first_round_restrictions_return_after_a_redeal() -> None:
    piles = {"p1": "9D 9D 9D 9D 9D 9D 9D 9D 9D 9D 9D 9D", "p12": "2S"}
    position = set_table(piles, redeals_left=1)
    assert "P@p12@a1" in legal(position)  # no stock: any pile to any foundation
    play(position, "R", "D")
    assert tops(position)["p1"] == "2S" and len(position.stock) == 1
    assert "P@p1@a1" not in legal(position)  # p1 goes only to the Kings again
    with pytest.raises(IllegalMove, match="only to the King foundations"):
        play(position, "P@p1@a1")
    play(position, "D")  # the last card goes onto p1, over the two of spades
    assert not position.stock and "P@p1@p2" not in legal(position)


def test_only_two_redeals() -> None:
    position = set_table({"p1": "9C"}, redeals_left=2)
    play(position, "R", "D", "R", "D")
    assert position.redeals_left == 0 and "R" not in legal(position)
    with pytest.raises(IllegalMove, match="both of the 2 redeals are used"):
        play(position, "R")


def test_redeal_needs_an_empty_stock() -> None:
    position = set_table({"p1": "9C"}, stock="2C")
    with pytest.raises(IllegalMove, match="stock still holds cards"):
        play(position, "R")


# -- the end ----------------------------------------------------------------------

def test_all_104_home_is_won() -> None:
    position = set_table({"p1": "QS"}, wants={"k1": 12, "k2": 0, "k3": 0, "k4": 0,
                                               "a1": 0, "a2": 0, "a3": 0, "a4": 0})
    # k1 wants Q: the whole spade run below it is still missing, so fill it too.
    position.foundations[0] = cards("KS")
    position.home = CARD_COUNT - 1
    play(position, "P@p1@k1")
    assert position.status is Status.WON and position.legal_moves() == []
    with pytest.raises(IllegalMove, match="won"):
        play(position, "D")


def test_no_legal_move_is_lost() -> None:
    position = set_table({"p1": "5C", "p2": "9D"}, redeals_left=0)
    assert position.status is Status.LOST


def test_undo_takes_back_each_kind_of_move_exactly() -> None:
    position = set_table({"p1": "5H", "p2": "6H", "p5": "2S"}, wants={"a1": 2}, redeals_left=1)
    before = position.copy()
    for move in ("P@p1@p2", "P@p5@a1", "R", "D"):
        snapshot = position.copy()
        play(position, move)
        position.undo()
        assert position == snapshot
        play(position, move)
    while position.history:
        position.undo()
    assert position == before
    with pytest.raises(IllegalMove, match="no move to undo"):
        position.undo()


def test_a_finishing_line_is_offered_when_the_rest_goes_home() -> None:
    done = {name: 0 for name in ("k2", "k3", "k4", "a2", "a3", "a4")}
    position = set_table({"p1": "AS 2S", "p2": "KS"}, wants={**done, "k1": 2, "a1": 13},
                         redeals_left=0)
    assert position.home == 104 - 3
    line = RULES.finishing_line(position)
    assert line is not None
    assert [move.notation for move in line] == ["P@p1@k1", "P@p1@k1", "P@p2@a1"]
    for move in line:
        position.apply(move)
    assert position.status is Status.WON
    stuck = set_table({"p1": "2S AS", "p2": "KS"}, wants={**done, "k1": 2, "a1": 13})
    assert RULES.finishing_line(stuck) is None  # the ace covers the two: a build is needed
