"""One test per rule of RULES.md, each on a hand-stacked deck.

Most tests play the classic variant, where every D turns exactly one card:
the stacked order is then the order the cards come into play. The tests of
the three-card turn and of redeals use the three-card variant. Decks are
written top of the stock first; ``stacked`` fills the rest with kings first.
"""

from __future__ import annotations

import pytest
from engine_builders import (
    CORNER_RUN,
    FILLER,
    RANKS,
    assert_illegal,
    cell_texts,
    greedy_playout,
    pile_texts,
    play,
    stacked,
    stock_texts,
    table,
    tomb_order,
    waste_texts,
    winning_game,
)

from patience.tomb import (
    CELLS,
    CLASSIC,
    FOUNDATIONS,
    THREE_CARD,
    IllegalMove,
    Position,
    Status,
    Variant,
    deal_from_number,
    parse_move,
    visible_view,
)

VARIANTS = [pytest.param(THREE_CARD, id="three-card"), pytest.param(CLASSIC, id="classic")]
CORNERS = FOUNDATIONS[:4]


def notations(position: Position) -> list[str]:
    return [move.notation for move in position.legal_moves()]


# -- corners -------------------------------------------------------------------------

@pytest.mark.parametrize("corner", CORNERS)
@pytest.mark.parametrize("suit", "CSHD")
def test_an_empty_corner_takes_a_seven_of_any_suit(corner: str, suit: str) -> None:
    position = table(f"7{suit}", f"D F@{corner}")
    assert pile_texts(position)[corner] == [f"7{suit}"]
    assert waste_texts(position) == []


def test_a_corner_builds_up_in_any_suit_to_the_king_and_is_then_complete() -> None:
    run = "7H 8C 9S TD JH QC KS"
    position = table(f"{run} 8D 7D", "D F " * 7)
    assert pile_texts(position)["nw"] == run.split()
    play(position, "D")
    # A complete corner takes nothing more, not even an 8 to start again.
    assert_illegal(
        position, "F@nw", "the 8 of diamonds does not fit the nw corner, which is complete"
    )
    # The 8 waits in a cell; the next 7 skips the complete nw corner and
    # starts ne, and the 8 follows it there by itself.
    play(position, "C D F")
    assert pile_texts(position)["nw"] == run.split()
    assert pile_texts(position)["ne"] == ["7D", "8D"]
    assert cell_texts(position)["n"] is None


def test_a_corner_takes_only_the_next_rank_up() -> None:
    position = table("7C 9H", "D F D")
    assert_illegal(position, "F@nw", "the 9 of hearts does not fit the nw corner, which wants an 8")


@pytest.mark.parametrize("rank", "89TJQK")
def test_an_empty_corner_takes_only_a_seven(rank: str) -> None:
    position = table(f"{rank}C", "D")
    assert not any(move.startswith("F") for move in notations(position))
    with pytest.raises(IllegalMove, match="which is empty and takes only a 7"):
        position.apply(parse_move("F@sw"))


# -- the tomb ------------------------------------------------------------------------

def test_the_tomb_takes_6_to_ace_four_times_round_and_holds_24() -> None:
    order = tomb_order()
    position = table(order)
    expected_wants = "65432A" * 4
    for count, card in enumerate(order):
        assert visible_view(position)["tomb"]["wants"] == expected_wants[count]
        play(position, "D F@tomb")
        assert pile_texts(position)["tomb"] == order[: count + 1], card
    assert len(position.foundations[4]) == 24
    assert visible_view(position)["tomb"]["complete"]
    # Every A-6 is home; the next card (a king from the filler) cannot follow.
    play(position, "D")
    assert_illegal(position, "F@tomb", "the king of clubs does not fit the tomb, which is full")


@pytest.mark.parametrize("rank", "A2345")
def test_an_empty_tomb_takes_only_a_six(rank: str) -> None:
    name = {"A": "ace"}.get(rank, rank)
    position = table(f"{rank}H", "D")
    assert "F@tomb" not in notations(position)
    assert_illegal(
        position, "F@tomb", f"the {name} of hearts does not fit the tomb, which wants a 6"
    )


def test_the_tomb_builds_down_one_rank_at_a_time() -> None:
    position = table("6C 4H", "D F D")
    assert_illegal(position, "F@tomb", "the 4 of hearts does not fit the tomb, which wants a 5")


def test_after_an_ace_the_tomb_wants_a_six_again() -> None:
    position = table("6C 5C 4C 3C 2C AC 5H 6H", "D F " * 6 + "D")
    assert_illegal(position, "F@tomb", "the 5 of hearts does not fit the tomb, which wants a 6")
    play(position, "C D F")  # the 6 goes on the ace; the parked 5 follows it
    assert pile_texts(position)["tomb"] == ["6C", "5C", "4C", "3C", "2C", "AC", "6H", "5H"]
    assert cell_texts(position)["n"] is None


# -- ranks A-6 go only to the tomb, 7-K only to corners ------------------------------

@pytest.mark.parametrize("rank", "A23456")
@pytest.mark.parametrize("corner_length", range(8))
def test_a_low_card_never_goes_to_a_corner(rank: str, corner_length: int) -> None:
    # The nw corner is shown at every length (empty, 7, 7-8, ... complete).
    run = [f"{r}C" for r in CORNER_RUN[:corner_length]]
    position = table([*run, f"{rank}D"], "D F@nw " * corner_length + "D")
    for corner in CORNERS:
        with pytest.raises(IllegalMove):
            position.apply(parse_move(f"F@{corner}"))
    assert not any(f"F@{corner}" in notations(position) for corner in CORNERS)
    if rank == "6":
        play(position, "F")
        assert pile_texts(position)["tomb"] == ["6D"]
    else:
        with pytest.raises(IllegalMove, match="does not fit the tomb"):
            position.apply(parse_move("F"))


@pytest.mark.parametrize("rank", CORNER_RUN)
@pytest.mark.parametrize("tomb_length", range(25))
def test_a_high_card_never_goes_to_the_tomb(rank: str, tomb_length: int) -> None:
    # The tomb is shown at every length from empty to full.
    position = table([*tomb_order()[:tomb_length], f"{rank}S"], "D F@tomb " * tomb_length + "D")
    assert "F@tomb" not in notations(position)
    with pytest.raises(IllegalMove, match="does not fit the tomb"):
        position.apply(parse_move("F@tomb"))
    if rank == "7":
        play(position, "F")
        assert pile_texts(position)["nw"] == ["7S"]
    else:
        with pytest.raises(IllegalMove, match="fits no corner"):
            position.apply(parse_move("F"))


# -- automatic moves from the cells ------------------------------------------------

def test_cell_cards_follow_each_other_home_in_a_chain() -> None:
    # 4H and 5D wait in cells n and w; the 6S played to the tomb lets 5D
    # go (w), and that lets 4H go (n) in the same move: the scan restarts.
    position = table("4H 5D 9C 6S", "D C@n D C@w D C@e D")
    before = position.copy()
    play(position, "F")
    assert pile_texts(position)["tomb"] == ["6S", "5D", "4H"]
    assert cell_texts(position) == {"n": None, "w": None, "e": "9C", "s": None}
    assert [move.notation for move in position.moves][-1] == "F@tomb"
    # Undo takes back the player's move together with both automatic moves.
    assert position.undo() == parse_move("F@tomb")
    assert position == before
    assert visible_view(position) == visible_view(before)


def test_the_cells_are_scanned_n_w_e_s_and_the_scan_restarts_at_n() -> None:
    # Cells: n=TC, w=9S, e=TD. With 8C on the nw corner only 9S fits, and
    # goes. Then both tens fit: the scan starts again at n, so TC goes (a
    # scan that carried on from w would have sent TD from e).
    position = table("TD 9S TC 7H 8C", "D C@e D C@w D C@n D F D")
    assert pile_texts(position)["nw"] == ["7H"]
    play(position, "F@nw")
    assert pile_texts(position)["nw"] == ["7H", "8C", "9S", "TC"]
    assert cell_texts(position) == {"n": None, "w": None, "e": "TD", "s": None}


@pytest.mark.parametrize(
    ("first", "second"),
    [(a, b) for i, a in enumerate(CELLS) for b in CELLS[i + 1:]],
)
def test_of_two_fitting_cell_cards_the_earlier_cell_goes(first: str, second: str) -> None:
    # The later cell is filled first, so it is the cell order, not the
    # order of parking, that decides.
    position = table("9D 9S 7H 8C", f"D C@{second} D C@{first} D F D F")
    assert pile_texts(position)["nw"] == ["7H", "8C", "9S"]
    assert cell_texts(position)[first] is None
    assert cell_texts(position)[second] == "9D"


def test_parking_the_card_that_starts_a_run_brings_the_waiting_cells_after_it() -> None:
    # Nothing moves while the run is incomplete; the 6 starts a chain that
    # empties every cell (s holds the 6; then w's 5, then n's 4 go).
    position = table("4S 5S 9C 6H", "D C@n D C@w D C@e D C@s")
    assert pile_texts(position)["tomb"] == ["6H", "5S", "4S"]
    assert cell_texts(position) == {"n": None, "w": None, "e": "9C", "s": None}


# -- corner order nw, ne, sw, se ------------------------------------------------------

def test_F_sends_sevens_to_the_corners_in_order_nw_ne_sw_se() -> None:
    position = table("7H 7C 7D 7S", "D F D F D F D F")
    assert pile_texts(position) == {
        "nw": ["7H"], "ne": ["7C"], "sw": ["7D"], "se": ["7S"], "tomb": [],
    }
    # The log records the foundation each F was resolved to.
    assert [move.notation for move in position.moves] == [
        "D", "F@nw", "D", "F@ne", "D", "F@sw", "D", "F@se",
    ]


def test_cards_go_to_the_first_fitting_corner_for_F_and_for_cells() -> None:
    position = table("7H 7C 7D 8H 8S 8D")
    play(position, "D F@se")  # se: 7H, so se wants an 8; nw, ne, sw want a 7
    play(position, "D C")  # 7C fits nw, ne, sw: parked, it goes to nw
    assert pile_texts(position)["nw"] == ["7C"]
    play(position, "D C@s")  # 7D fits ne and sw: it goes to ne
    assert pile_texts(position)["ne"] == ["7D"]
    play(position, "D")  # 8H fits nw, ne and se
    assert notations(position) == ["D", "F@nw", "F@ne", "F@se", "C@n", "C@w", "C@e", "C@s"]
    play(position, "C@e")  # parked, it goes to the first of them
    play(position, "D F D F")  # 8S: ne (nw now wants a 9); 8D: se
    assert pile_texts(position) == {
        "nw": ["7C", "8H"], "ne": ["7D", "8S"], "sw": [], "se": ["7H", "8D"], "tomb": [],
    }
    assert cell_texts(position) == dict.fromkeys(CELLS)


# -- cells -----------------------------------------------------------------------------

@pytest.mark.parametrize(("card", "foundation"), [("6H", "tomb"), ("7H", "nw")])
def test_parking_a_fitting_card_sends_it_home_at_once(card: str, foundation: str) -> None:
    position = table(card, "D")
    assert "C@n" in notations(position)  # parking a card that fits is allowed
    play(position, "C")
    assert pile_texts(position)[foundation] == [card]
    assert cell_texts(position) == dict.fromkeys(CELLS)
    assert [move.notation for move in position.moves] == ["D", "C@n"]
    position.undo()
    assert waste_texts(position) == [card]
    assert pile_texts(position)[foundation] == []


def test_C_fills_the_first_empty_cell_and_only_empty_cells() -> None:
    position = table("9H TH JH QH KH", "D C@e D C")
    assert cell_texts(position) == {"n": "TH", "w": None, "e": "9H", "s": None}
    play(position, "D")
    assert_illegal(position, "C@n", "the n cell already holds the 10 of hearts")
    assert_illegal(position, "C@e", "the e cell already holds the 9 of hearts")
    assert notations(position) == ["D", "C@w", "C@s"]
    play(position, "C D C")
    assert cell_texts(position) == {"n": "TH", "w": "JH", "e": "9H", "s": "QH"}
    play(position, "D")
    assert_illegal(position, "C", "all four cells are full")
    assert_illegal(position, "C@s", "the s cell already holds the queen of hearts")
    assert notations(position) == ["D"]


def test_only_the_top_waste_card_goes_to_a_cell() -> None:
    position = table("9H TH JH", "D D D C")
    assert cell_texts(position)["n"] == "JH"
    assert waste_texts(position) == ["9H", "TH"]


# -- the three-card turn -------------------------------------------------------------

def test_three_card_turns_three_then_the_one_left() -> None:
    deal = stacked()
    position = Position(deal, THREE_CARD)
    play(position, "D")
    assert waste_texts(position) == list(FILLER[:3])  # the third turned is on top
    for _ in range(16):
        play(position, "D")
    assert len(position.stock) == 1
    play(position, "D")  # 52 = 17 * 3 + 1
    assert waste_texts(position) == list(FILLER)
    assert position.stock == []


def test_three_card_turns_the_two_left_in_a_pass_of_fifty() -> None:
    # Pass 1 turns all 52; the last two turned (AH, AD: the tomb wants a 6)
    # are parked, so pass 2 has 50 cards: 16 turns of three, then two.
    position = Position(stacked(), THREE_CARD)
    play(position, "D " * 18 + "C C R")
    assert len(position.stock) == 50
    play(position, "D " * 16)
    assert len(position.stock) == 2
    assert stock_texts(position) == ["AC", "AS"]
    play(position, "D")
    assert waste_texts(position)[-2:] == ["AC", "AS"]
    assert position.stock == []
    assert len(position.waste) == 50


def test_three_card_only_the_last_turned_card_is_in_play() -> None:
    position = table("7H 8H KS", "D", THREE_CARD)
    assert waste_texts(position) == ["7H", "8H", "KS"]
    assert notations(position) == ["D", "C@n", "C@w", "C@e", "C@s"]  # no F: the 7 is under
    assert_illegal(position, "F", "the king of spades fits no corner (they want a 7)")
    play(position, "C C")  # KS to n, 8H to w
    play(position, "F")  # 7H to nw, and the parked 8H follows from w
    assert pile_texts(position)["nw"] == ["7H", "8H"]
    assert cell_texts(position) == {"n": "KS", "w": None, "e": None, "s": None}


def test_classic_turns_one_card_at_a_time_and_never_redeals() -> None:
    deal = stacked()
    position = Position(deal, CLASSIC)
    for count in range(1, 53):
        assert "R" not in notations(position)
        play(position, "D")
        assert waste_texts(position) == list(FILLER[:count])
    assert "R" not in notations(position)
    assert_illegal(position, "R", "the classic 1-card deal goes through the stock only once")
    assert_illegal(position, "D", "the stock is empty")


# -- redeals -------------------------------------------------------------------------

def test_R_needs_an_empty_stock() -> None:
    position = table("", "D", THREE_CARD)
    assert "R" not in notations(position)
    assert_illegal(position, "R", "the stock is not empty yet: turn it with D")


def test_R_needs_a_waste() -> None:
    deal, moves = winning_game(THREE_CARD)
    position = play(Position(deal, THREE_CARD), moves)
    assert position.stock == [] and position.waste == []
    assert position.passes_left == 2  # a pass is left, but nothing to turn over
    assert_illegal(position, "R", "the waste is empty: there is nothing to turn over")


def test_three_card_allows_exactly_three_passes() -> None:
    position = Position(stacked(), THREE_CARD)
    for pass_ in (1, 2, 3):
        assert position.pass_number == pass_
        play(position, "D " * 18)
        assert position.stock == []
        assert "D" not in notations(position)
        if pass_ < 3:
            assert "R" in notations(position)
            assert_illegal(position, "D", "the stock is empty: turn the waste over with R")
            play(position, "R")
    assert "R" not in notations(position)
    assert_illegal(position, "R", "all 3 passes through the stock are used")
    assert_illegal(position, "D", "the stock is empty")
    assert [move.notation for move in position.moves].count("R") == 2


def test_after_R_the_first_card_turned_in_the_last_pass_is_turned_next() -> None:
    deal = deal_from_number(1)
    position = Position(deal, THREE_CARD)
    play(position, "D " * 18 + "R")
    assert stock_texts(position) == deal.texts  # the same order as the deal
    play(position, "D")
    assert waste_texts(position) == deal.texts[:3]


def test_after_R_cards_taken_from_the_waste_are_gone_and_the_rest_keep_their_order() -> None:
    # The first turn shows 9H TH JH; JH and TH are parked, so the next pass
    # regroups: its first turn is 9H and the two cards after the parked ones.
    position = Position(stacked("9H TH JH"), THREE_CARD)
    play(position, "D C C " + "D " * 17 + "R")
    rest = [text for text in FILLER if text not in ("9H", "TH", "JH")]
    assert stock_texts(position) == ["9H", *rest]
    play(position, "D")
    assert waste_texts(position) == ["9H", *rest[:2]]


def test_the_third_pass_keeps_the_order_of_the_second() -> None:
    # Cards taken in pass 2 are gone from pass 3 too; the rest keep order.
    position = Position(stacked(), THREE_CARD)
    play(position, "D " * 18 + "R D C")  # pass 2's first turn: KC KS KH; KH parked
    play(position, "D " * 17 + "R")
    assert stock_texts(position) == [text for text in FILLER if text != "KH"]


# -- end of the game -----------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_a_game_is_won_when_all_52_cards_are_home(variant: Variant) -> None:
    deal, moves = winning_game(variant)
    position = Position(deal, variant)
    *all_but_last, last = moves.split()
    play(position, " ".join(all_but_last))
    assert position.status is Status.PLAYING
    play(position, last)
    assert position.status is Status.WON
    assert sum(len(pile) for pile in position.foundations) == 52
    assert [len(pile) for pile in position.foundations] == [7, 7, 7, 7, 24]
    assert position.legal_moves() == []
    # Undo stays possible after the game ended.
    position.undo()
    assert position.status is Status.PLAYING
    assert "F@tomb" in notations(position)


def test_a_game_is_lost_when_no_legal_move_is_left() -> None:
    # Classic: turn all 52 without playing, park the last four turned
    # (AD AH AS AC); the 2D under them fits nowhere and no cell is free.
    position = table()
    play(position, "D " * 52 + "C C C")
    assert position.status is Status.PLAYING
    play(position, "C")
    assert cell_texts(position) == {"n": "AD", "w": "AH", "e": "AS", "s": "AC"}
    assert waste_texts(position)[-1] == "2D"
    assert position.legal_moves() == []
    assert position.status is Status.LOST
    for move in ("D", "R", "F", "F@tomb", "C", "C@n"):
        with pytest.raises(IllegalMove):
            position.apply(parse_move(move))
    assert position.status is Status.LOST
    # Undo stays possible after a loss.
    assert position.undo() == parse_move("C@s")
    assert position.status is Status.PLAYING


def test_a_three_card_game_is_lost_after_the_last_pass() -> None:
    position = Position(stacked(), THREE_CARD)
    play(position, "D " * 18 + "R " + "D " * 18 + "R " + "D " * 18 + "C C C")
    assert position.status is Status.PLAYING  # a cell is still free
    play(position, "C")
    assert position.status is Status.LOST
    assert position.legal_moves() == []


# -- undo ----------------------------------------------------------------------------

def test_undo_on_a_fresh_position_raises() -> None:
    position = Position(deal_from_number(1))
    with pytest.raises(IllegalMove, match=r"^there is no move to undo$"):
        position.undo()
    assert position == Position(deal_from_number(1))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("number", [1, 2, 3, 4, 5])
def test_undoing_the_whole_history_gives_back_a_fresh_position(
    variant: Variant, number: int
) -> None:
    deal = deal_from_number(number)
    position = Position(deal, variant)
    greedy_playout(position)
    played = position.moves
    undone = []
    while position.history:
        undone.append(position.undo())
    assert undone == played[::-1]
    fresh = Position(deal, variant)
    assert position == fresh
    assert visible_view(position) == visible_view(fresh)


def test_the_greedy_games_above_use_every_kind_of_move() -> None:
    # Keeps the undo test honest: it undoes turns, redeals, plays home,
    # parking and automatic moves out of the cells.
    kinds: set[str] = set()
    automatic = 0
    for number in (1, 2, 3, 4, 5):
        position = Position(deal_from_number(number), THREE_CARD)
        automatic += greedy_playout(position)
        kinds |= {move.notation[0] for move in position.moves}
    assert kinds == {"D", "R", "F", "C"}
    assert automatic > 0


def test_undo_after_redeals_and_automatic_moves_gives_back_a_fresh_position() -> None:
    # Turn 1: 7H 9S 9D (9D, 9S parked, 7H home). Turn 2: KC KS 8C; the 8C
    # goes home and the 9S follows it out of cell e.
    deal = stacked("7H 9S 9D KC KS 8C")
    position = Position(deal, THREE_CARD)
    play(position, "D C@s C@e F D F")
    assert pile_texts(position)["nw"] == ["7H", "8C", "9S"]
    assert cell_texts(position) == {"n": None, "w": None, "e": None, "s": "9D"}
    for next_pass in ("R D C", "R"):  # pass 2 parks one more card; pass 3 starts
        while position.stock:
            play(position, "D")
        play(position, next_pass)
    assert position.passes_left == 0
    while position.history:
        position.undo()
    assert position == Position(deal, THREE_CARD)
    assert visible_view(position) == visible_view(Position(deal, THREE_CARD))


# -- messages ------------------------------------------------------------------------

FULL_PASS = "D " * 18


@pytest.mark.parametrize(
    ("top", "variant", "moves", "move", "message"),
    [
        ("6C 5C 8H", CLASSIC, "D F D F D", "F@tomb",
         "the 8 of hearts does not fit the tomb, which wants a 4"),
        ("6C 5C 4C 3C 2C 6H", CLASSIC, "D F " * 5 + "D", "F@tomb",
         "the 6 of hearts does not fit the tomb, which wants an ace"),
        ("5S", CLASSIC, "D", "F", "the 5 of spades does not fit the tomb, which wants a 6"),
        ("8H", CLASSIC, "D", "F@nw",
         "the 8 of hearts does not fit the nw corner, which is empty and takes only a 7"),
        ("AC", CLASSIC, "D", "F@se",
         "the ace of clubs does not fit the se corner, which is empty and takes only a 7"),
        ("8H", CLASSIC, "D", "F", "the 8 of hearts fits no corner (they want a 7)"),
        ("7C 9H", CLASSIC, "D F D", "F", "the 9 of hearts fits no corner (they want a 7 or an 8)"),
        ("7C 8C KH", CLASSIC, "D F D F D", "F@nw",
         "the king of hearts does not fit the nw corner, which wants a 9"),
        ("7C 8C 9C TC QD", CLASSIC, "D F " * 4 + "D", "F@nw",
         "the queen of diamonds does not fit the nw corner, which wants a jack"),
        ("7C 8C 9C TC JC QC KC 8D", CLASSIC, "D F " * 7 + "D", "F@nw",
         "the 8 of diamonds does not fit the nw corner, which is complete"),
        ("", CLASSIC, "", "F", "the waste is empty: there is no card to play"),
        ("", CLASSIC, "", "F@tomb", "the waste is empty: there is no card to play"),
        ("", CLASSIC, "", "C", "the waste is empty: there is no card to play"),
        ("", CLASSIC, "", "C@s", "the waste is empty: there is no card to play"),
        ("", CLASSIC, "", "R", "the stock is not empty yet: turn it with D"),
        ("", THREE_CARD, "D", "R", "the stock is not empty yet: turn it with D"),
        ("", CLASSIC, "D " * 52, "D", "the stock is empty"),
        ("", CLASSIC, "D " * 52, "R", "the classic 1-card deal goes through the stock only once"),
        ("", THREE_CARD, FULL_PASS, "D", "the stock is empty: turn the waste over with R"),
        ("", THREE_CARD, f"{FULL_PASS} R {FULL_PASS} R {FULL_PASS}", "R",
         "all 3 passes through the stock are used"),
        ("", THREE_CARD, f"{FULL_PASS} R {FULL_PASS} R {FULL_PASS}", "D", "the stock is empty"),
        ("9H TH JH QH KH", CLASSIC, "D C D C D C D C D", "C", "all four cells are full"),
        ("9H TH JH QH KH", CLASSIC, "D C D C D C D C D", "C@e",
         "the e cell already holds the jack of hearts"),
    ],
)
def test_an_illegal_move_is_refused_with_a_readable_message_and_changes_nothing(
    top: str, variant: Variant, moves: str, move: str, message: str
) -> None:
    assert_illegal(table(top, moves, variant), move, message)


def test_the_tomb_refuses_a_card_when_full() -> None:
    position = table([*tomb_order(), "7D"], "D F " * 24 + "D")
    assert_illegal(position, "F@tomb", "the 7 of diamonds does not fit the tomb, which is full")


def test_a_won_game_refuses_every_move() -> None:
    deal, moves = winning_game(CLASSIC)
    position = play(Position(deal, CLASSIC), moves)
    assert_illegal(position, "D", "the stock is empty")
    assert_illegal(position, "R", "the waste is empty: there is nothing to turn over")
    assert_illegal(position, "F", "the waste is empty: there is no card to play")
    assert_illegal(position, "C", "the waste is empty: there is no card to play")


def test_ranks_in_messages_use_the_right_article() -> None:
    # "an 8", "a 9", "a 10", "a jack": what the nw corner wants at each
    # length, as F@nw describes it when a 2 is offered.
    wants: dict[str, str] = {}
    for length, rank in enumerate(RANKS[6:], start=0):
        run = [f"{r}C" for r in CORNER_RUN[:length]]
        position = table([*run, "2D"], "D F " * length + "D")
        with pytest.raises(IllegalMove) as caught:
            position.apply(parse_move("F@nw"))
        wants[rank] = str(caught.value).rsplit("which ", 1)[1]
    assert wants == {
        "7": "is empty and takes only a 7", "8": "wants an 8", "9": "wants a 9",
        "T": "wants a 10", "J": "wants a jack", "Q": "wants a queen", "K": "wants a king",
    }
