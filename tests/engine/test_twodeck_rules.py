"""The two-deck Tomb's rules, one by one (RULES-TWO-DECK-TOMB.md), each with its refusals.

Most tests set a small table out by hand (``table``): the rules read only the
piles, so a position need not hold all 104 cards to test one rule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from patience.cards import parse_card
from patience.errors import IllegalMove, InvalidDeal, InvalidNotation
from patience.twodeck import (
    TWO_DECK_TOMB,
    Position,
    Status,
    deal_from_number,
    deal_from_seed,
    deal_from_texts,
    new_game,
    parse_move,
    text_of,
)
from patience.twodeck.deals import CARD_COUNT, Deal
from patience.twodeck.rules import RULES

GOLDEN = json.loads((Path(__file__).parent / "fixtures" / "twodeck_golden_deals.json").read_text())


def card(text: str, deck: int = 0) -> int:
    return parse_card(text) + 52 * deck


def cards(texts: str) -> list[int]:
    """Cards from texts; a trailing ' marks the second deck's twin (7H')."""
    return [card(t.rstrip("'"), 1 if t.endswith("'") else 0) for t in texts.split()]


def table(walls: tuple[str, ...] = ("", "", "", ""), places: tuple[str, ...] = ("", "", "", ""),
          bases: tuple[str, ...] = ("", "", "", ""), centre: str = "",
          waste: tuple[str, ...] = ("", "", "", "", ""), stock: str = "",
          round_number: int = 1) -> Position:
    """A hand-set position (walls and stock top last, the rest bottom first)."""
    position = new_game(1)
    position.walls = [cards(t) for t in walls]
    position.places = [cards(t) for t in places]
    position.bases = [cards(t) for t in bases]
    position.centre = cards(centre)
    position.waste = [cards(t) for t in waste]
    position.stock = cards(stock)
    position.round = round_number
    position.home = sum(len(base) for base in position.bases)
    return position


def legal(position: Position) -> set[str]:
    return {move.notation for move in position.legal_moves()}


def play(position: Position, text: str) -> None:
    position.apply(parse_move(text))


def refused(position: Position, text: str, words: str) -> None:
    before = position.copy()
    with pytest.raises(IllegalMove, match=words):
        play(position, text)
    assert position == before


# -- the deal ---------------------------------------------------------------------


@pytest.mark.parametrize("golden", GOLDEN["deals"], ids=lambda g: str(g["number"]))
def test_golden_deals(golden: dict[str, object]) -> None:
    deal = deal_from_number(golden["number"])
    assert deal.texts == golden["cards"]
    view = RULES.visible_view(new_game(deal))
    assert {name: view["piles"][name]["up"] for name in golden["showing"]} == golden["showing"]


def test_twin_cards_are_distinct_and_the_first_dealt_is_the_first_decks() -> None:
    deal = deal_from_number(5)
    assert sorted(deal.cards) == list(range(CARD_COUNT))
    for index, text in enumerate(deal.texts):
        first = deal.texts.index(text)
        assert (deal.cards[index] < 52) == (index == first)
    assert deal_from_texts(deal.texts, 5).cards == deal.cards


def test_a_deal_that_is_not_two_decks_is_refused() -> None:
    texts = deal_from_number(5).texts
    with pytest.raises(InvalidDeal):
        deal_from_texts([*texts[:-1], texts[0]])
    with pytest.raises(InvalidDeal):
        Deal(cards=tuple(reversed(range(CARD_COUNT))))  # a twin before its first copy
    with pytest.raises(InvalidDeal):
        deal_from_seed(-1)


def test_seeded_deals_differ_from_numbered_ones() -> None:
    assert deal_from_seed(7).cards != deal_from_number(7).cards
    assert deal_from_seed(7).seeded and deal_from_seed(7) == deal_from_seed(7)


def test_the_deal_lays_walls_working_cards_and_the_stock() -> None:
    deal = deal_from_number(2)
    position = new_game(deal)
    assert len(position.stock) == 60 and position.stock[-1] == deal.stock[0]
    on_table = sum(map(len, position.walls)) + sum(map(len, position.places)) + position.home
    assert on_table == 44
    for i in range(4):
        if position.places[i] and not position.home:
            assert position.places[i] == [deal.wall(i)[0]]
            assert position.walls[i][-1] == deal.wall(i)[1]


def _deal_with(showing: list[str]) -> Deal:
    """A deal whose walls' first two cards (working card, then the wall's top) are given."""
    base = deal_from_number(3).texts
    walls = [base[i * 11:(i + 1) * 11] for i in range(4)]
    wanted = list(showing)
    rest = list(base)
    for text in wanted:
        rest.remove(text)
    out: list[str] = []
    for i in range(4):
        out += [wanted[2 * i], wanted[2 * i + 1]]
        out += [rest.pop(0) for _ in range(9)]
    del walls
    return deal_from_texts(out + rest)


def test_the_deals_kings_go_to_the_corners_one_per_suit_and_places_refill() -> None:
    # north: working KH over wall KH'; west: working 5C over wall KS; east, south plain.
    deal = _deal_with(["KH", "KH", "5C", "KS", "2D", "3D", "4D", "6D"])
    position = new_game(deal)
    assert [[text_of(c) for c in base] for base in position.bases] == [["KH"], ["KS"], [], []]
    assert text_of(position.places[0][-1]) == "KH"  # the refill: the second KH stays
    assert text_of(position.places[1][-1]) == "5C"
    assert position.home == 2
    assert len(position.walls[0]) == 9 and len(position.walls[1]) == 9


# -- the bases ----------------------------------------------------------------------


def test_a_base_goes_down_in_suit_then_takes_the_other_king() -> None:
    position = table(places=("7H", "", "", ""), bases=("KH QH JH TH 9H 8H", "", "", ""))
    assert "pn-nw" in legal(position)
    refused(table(places=("6H", "", "", ""), bases=("KH QH JH TH 9H 8H", "", "", "")),
            "pn-nw", "takes only a 7 of hearts")
    refused(table(places=("7C", "", "", ""), bases=("KH QH JH TH 9H 8H", "", "", "")),
            "pn-nw", "takes only a 7 of hearts")
    ace = " ".join(["KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H", "AH"])
    second = table(places=("KH'", "", "", ""), bases=(ace, "", "", ""))
    play(second, "pn-nw")
    assert second.home == 14
    full = ace + " " + " ".join(t + "'" for t in ace.split())
    refused(table(places=("KH", "", "", ""), bases=(full, "", "", ""), walls=("5C", "", "", "")),
            "pn-nw", "complete")


def test_an_empty_corner_takes_a_free_king_whose_suit_has_no_base() -> None:
    position = table(walls=("KS", "", "", ""), bases=("KH", "", "", ""))
    assert {"n-ne", "n-sw", "n-se"} <= legal(position)
    refused(table(walls=("KH'", "", "", ""), bases=("KH", "", "", "")), "n-ne",
            "King whose suit has no base")
    refused(table(walls=("QS", "", "", "")), "n-ne", "King whose suit has no base")


def test_a_whole_working_stack_moves_onto_a_base_as_one() -> None:
    position = table(walls=("9C", "", "", ""), places=("5H 6H 7H", "", "", ""),
                     bases=("KH QH JH TH 9H 8H", "", "", ""))
    assert {"pn-nw", "pn-nwx3"} <= legal(position)
    play(position, "pn-nwx3")
    assert [text_of(c) for c in position.bases[0][-3:]] == ["7H", "6H", "5H"]
    assert [text_of(c) for c in position.places[0]] == ["9C"]  # refilled from its wall
    assert position.walls[0] == [] and position.home == 9
    position.undo()
    assert [text_of(c) for c in position.places[0]] == ["5H", "6H", "7H"]
    assert [text_of(c) for c in position.walls[0]] == ["9C"]


def test_only_the_whole_stack_moves_as_one() -> None:
    position = table(places=("5H 6H 7H", "", "", ""), bases=("KH QH JH TH 9H 8H", "", "", ""))
    refused(position, "pn-nwx2", "only a whole working stack")
    with pytest.raises(InvalidNotation):
        parse_move("x1-nwx2")


# -- the working places --------------------------------------------------------------


def test_working_places_build_up_in_suit_with_any_free_card() -> None:
    position = table(walls=("6H", "", "", ""), places=("", "5H", "", ""),
                     waste=("6H'", "", "", "", ""))
    assert {"n-pw", "x1-pw"} <= legal(position)
    refused(table(walls=("6C", "", "", ""), places=("", "5H", "", "")), "n-pw",
            "takes only a 6 of hearts")
    refused(table(walls=("4H", "", "", ""), places=("", "5H", "", "")), "n-pw",
            "takes only a 6 of hearts")


def test_nothing_goes_on_a_working_ace_or_king() -> None:
    refused(table(walls=("2H", "", "", ""), places=("", "AH", "", "")), "n-pw",
            "working ace or King")
    refused(table(walls=("AH", "", "", ""), places=("", "KH", "", "")), "n-pw",
            "working ace or King")


def test_an_emptied_working_place_is_refilled_from_its_wall_until_the_wall_is_empty() -> None:
    position = table(walls=("3C 9D", "", "", ""), places=("6H", "", "", ""),
                     bases=("KH QH JH TH 9H 8H 7H", "", "", ""))
    play(position, "pn-nw")
    assert [text_of(c) for c in position.places[0]] == ["9D"]
    assert [text_of(c) for c in position.walls[0]] == ["3C"]
    empty = table(places=("6H", "", "", ""), bases=("KH QH JH TH 9H 8H 7H", "", "", ""),
                  walls=("", "5S", "", ""))
    play(empty, "pn-nw")
    assert empty.places[0] == []
    refused(empty, "w-pn", "empty working place takes nothing")


def test_an_empty_place_takes_nothing() -> None:
    refused(table(walls=("5S", "", "", "")), "n-pe", "empty working place takes nothing")


# -- the centre and the walls ----------------------------------------------------------


def test_the_centre_takes_any_free_ace_then_builds_up_in_suit() -> None:
    position = table(walls=("AD", "2D", "", ""), places=("", "", "AS", ""))
    assert {"n-c", "pe-c"} <= legal(position)
    play(position, "n-c")
    assert "w-c" in legal(position) and "pe-c" not in legal(position)
    play(position, "w-c")
    assert [text_of(c) for c in position.centre] == ["AD", "2D"]
    refused(table(walls=("2D", "", "", "")), "n-c", "empty centre takes only an ace")
    refused(table(walls=("3C", "", "", ""), centre="AD 2D"), "n-c", "next diamond up")


def test_the_centre_emptied_takes_an_ace_again() -> None:
    position = table(walls=("AS", "", "", ""), centre="AD",
                     bases=(" ".join(["KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D", "5D",
                                      "4D", "3D", "2D"]), "", "", ""))
    play(position, "c-nw")
    assert position.centre == [] and "n-c" in legal(position)


def test_walls_and_waste_take_nothing() -> None:
    for text in ("pn-n", "c-x1", "n-x1"):
        with pytest.raises(InvalidNotation):
            parse_move(text)


def test_moving_a_walls_top_uncovers_the_next() -> None:
    position = table(walls=("9C AD", "", "", ""))
    assert RULES.reveals(position, parse_move("n-c"))
    play(position, "n-c")
    assert [text_of(c) for c in position.walls[0]] == ["9C"]
    view = RULES.visible_view(position)
    assert view["piles"]["n"] == {"down": 0, "up": ["9C"]}


# -- the stock and the rounds ----------------------------------------------------------


def test_round_one_deals_five_cards_one_on_each_waste_pile() -> None:
    position = new_game(4)
    top = [text_of(c) for c in position.stock[-5:]][::-1]
    play(position, "D")
    assert [text_of(pile[-1]) for pile in position.waste] == top
    assert len(position.stock) == 55
    position.undo()
    assert position == new_game(4)


def test_fewer_cards_than_piles_fill_the_first_piles() -> None:
    position = table(walls=("5S", "", "", ""), stock="3C 2C")
    play(position, "D")
    assert [[text_of(c) for c in pile] for pile in position.waste] == [["2C"], ["3C"], [], [],
                                                                       []]


def test_the_redeal_gathers_the_last_pile_at_the_bottom_and_turns_them_over() -> None:
    position = table(walls=("5S", "", "", ""),
                     waste=("AC 2C", "3C 4C", "5C", "6C 7C", "8C"))
    refused(table(walls=("5S", "", "", ""), stock="2C", waste=("AC", "", "", "", "")), "R",
            "still holds 1")
    play(position, "R")
    assert position.round == 2 and not any(position.waste)
    # The stock's top is the bottom card of pile 5; pile 1's top card comes out last.
    top_first = [text_of(c) for c in reversed(position.stock)]
    assert top_first == ["8C", "6C", "7C", "5C", "3C", "4C", "AC", "2C"]
    play(position, "D")  # round 2: four piles
    assert [[text_of(c) for c in pile] for pile in position.waste] == [
        ["8C"], ["6C"], ["7C"], ["5C"], []]
    position.undo()
    position.undo()
    assert [[text_of(c) for c in pile] for pile in position.waste] == [
        ["AC", "2C"], ["3C", "4C"], ["5C"], ["6C", "7C"], ["8C"]]


def test_five_rounds_then_no_redeal_and_the_game_is_lost() -> None:
    position = table(walls=("5S", "", "", ""), waste=("9C", "", "", "", ""), round_number=5)
    assert legal(position) == set()
    assert position.status is Status.LOST
    refused(position, "R", "last round")
    refused(position, "D", "stock is empty")


def test_won_with_all_104_on_the_bases() -> None:
    suits = []
    for s in "CSHD":
        run = [f"{r}{s}" for r in "KQJT98765432A"]
        suits.append(" ".join(run + [t + "'" for t in run]))
    position = table(bases=tuple(suits))
    assert position.status is Status.WON and position.legal_moves() == []
    refused(position, "D", "won")


# -- reveals, notation, the table -------------------------------------------------------


def test_what_reveals_a_card() -> None:
    position = table(walls=("9D", "", "", ""), places=("6H", "", "", ""),
                     bases=("KH QH JH TH 9H 8H 7H", "", "", ""), waste=("AC", "", "", "", ""),
                     stock="2S")
    assert RULES.reveals(position, parse_move("D"))
    assert RULES.reveals(position, parse_move("pn-nw"))  # the refill from the wall
    assert not RULES.reveals(position, parse_move("x1-c"))
    lateral = table(places=("6H 7H", "6H'", "", ""), walls=("9S", "", "", ""))
    assert not RULES.reveals(lateral, parse_move("pn-pw"))  # pn keeps its 6H: no refill


def test_notation_round_trips() -> None:
    from patience.twodeck import ALL_MOVES
    for move in ALL_MOVES:
        assert parse_move(move.notation) is move
        assert parse_move(f"  {move.notation.upper()} ") is move
    with pytest.raises(InvalidNotation):
        parse_move("pn-pn")


def test_the_table_is_the_square_of_walls_with_corners_centre_and_fanned_waste() -> None:
    data = RULES.table(TWO_DECK_TOMB).as_data()
    by_name = {pile["name"]: pile for pile in data["piles"]}
    assert {by_name[n]["role"] for n in ("nw", "ne", "sw", "se")} == {"foundation"}
    assert (by_name["c"]["row"], by_name["c"]["col"]) == (2, 2)
    assert {(by_name[n]["row"], by_name[n]["col"]) for n in ("nw", "ne", "sw", "se")} == {
        (0, 0), (0, 4), (4, 0), (4, 4)}
    for wall, place in zip("nwes", ("pn", "pw", "pe", "ps"), strict=True):
        # each working place lies outside its wall, away from the centre
        w, p = by_name[wall], by_name[place]
        assert abs(p["row"] - 2) + abs(p["col"] - 2) == abs(w["row"] - 2) + abs(w["col"] - 2) + 1
    assert all(by_name[f"x{i}"]["fan"] != "top" for i in range(1, 6))
    assert data["card_count"] == 104
