"""Napoleon's Tomb, the traditional cross (RULES-CROSS-AND-ST-HELENA.md, section 1).

The deal puts the top four stock cards on the cross places n, w, e, s; a
cross card goes to a foundation by ``X@<place>[@<foundation>]`` and its place
is refilled at once from the stock, else the waste, else it stays empty; no
parking, no automatic moves, one card at a time and three passes.
"""

from __future__ import annotations

import random

import pytest
from engine_builders import (
    SUITS,
    assert_illegal,
    cell_texts,
    pile_texts,
    play,
    stacked,
    stock_texts,
    texts,
    tomb_order,
    waste_texts,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patience.tomb import (
    CELLS,
    CLASSIC,
    CROSS,
    CROSS_MOVES,
    FOUNDATIONS,
    MAX_DEAL,
    THREE_CARD,
    Deal,
    IllegalMove,
    InvalidNotation,
    Kind,
    Move,
    Position,
    Status,
    card_text,
    deal_from_cards,
    deal_from_number,
    deal_from_seed,
    finishing_line,
    from_record,
    get_variant,
    parse_move,
    parse_moves,
    to_record,
    visible_view,
)
from patience.tomb.position import EMPTY, REFILL_NONE, REFILL_STOCK, REFILL_WASTE
from patience.tomb.rules import RULES

CORNER_RUN = "789TJQK"
# Which corner each suit builds on in the won games below.
GRAND_CORNERS = {"C": "nw", "S": "se", "H": "ne", "D": "sw"}  # black nw-se, red ne-sw
PLAIN_CORNERS = {"C": "nw", "S": "ne", "H": "sw", "D": "se"}  # clubs face diamonds


def cross(top: str = "", moves: str = "") -> Position:
    return play(Position(stacked(top), CROSS), moves)


# -- the variant and the deal --------------------------------------------------------

def test_the_cross_is_a_one_card_three_pass_variant_of_the_tomb() -> None:
    variant = get_variant("cross")
    assert variant is CROSS and variant.cross and variant.turn == 1 and variant.passes == 3
    assert not CLASSIC.cross and not THREE_CARD.cross
    assert RULES.variants["cross"] is CROSS


def test_the_deal_puts_the_top_four_cards_on_n_w_e_s_in_that_order() -> None:
    deal = deal_from_number(1)
    position = Position(deal, CROSS)
    assert cell_texts(position) == dict(zip(CELLS, deal.texts[:4], strict=True))
    assert stock_texts(position) == deal.texts[4:]
    assert position.history == [] and position.home == 0 and waste_texts(position) == []


# -- X moves and the refill --------------------------------------------------------------

def test_a_cross_card_goes_to_the_named_foundation_and_the_stock_refills_its_place() -> None:
    position = cross("7C 6H KC KS QH")
    play(position, "X@n@se")
    assert pile_texts(position)["se"] == ["7C"]
    assert cell_texts(position) == {"n": "QH", "w": "6H", "e": "KC", "s": "KS"}
    assert stock_texts(position)[0] == "KH" and len(position.stock) == 47  # QH came off the top
    play(position, "X@w")  # A-6 without a name: the tomb
    assert pile_texts(position)["tomb"] == ["6H"]
    assert position.history[-1][1] == REFILL_STOCK


def test_x_without_a_foundation_takes_the_first_fitting_corner() -> None:
    position = cross("KC 7H KS KH", "X@w")
    assert position.moves[-1] == Move(Kind.CROSS, FOUNDATIONS.index("nw"), CELLS.index("w"))
    assert position.moves[-1].notation == "X@w@nw"


def test_with_the_stock_empty_the_place_is_refilled_from_the_waste_top() -> None:
    position = cross("7C KC KS KH", "D " * 48)
    top, below = position.waste[-1], position.waste[-2]
    play(position, "X@n@nw")
    assert position.cells[0] == top and position.waste[-1] == below
    assert position.history[-1][1] == REFILL_WASTE
    assert not position.stock


def test_with_stock_and_waste_empty_the_place_stays_empty_for_good() -> None:
    position, moves = won_game(GRAND_CORNERS)
    while position.stock or position.waste:
        position.apply(parse_move(moves.pop(0)))
    # The last cards are on the cross; each leaves its place empty, and no D or R
    # can ever be played again (nothing can come back to the stock or the waste).
    for move in moves:
        position.apply(parse_move(move))
        assert position.history[-1][1] == REFILL_NONE
        place = position.moves[-1].place
        assert place is not None and position.cells[place] == EMPTY
        assert all(m.kind is Kind.CROSS for m in position.legal_moves())
    assert position.cells == [EMPTY] * 4 and position.status is Status.WON
    assert_illegal(position, "X@e", "the e place of the cross is empty")


def test_an_empty_place_or_a_card_that_does_not_fit_is_refused() -> None:
    position = cross("KC 7H KS KH")
    assert_illegal(position, "X@n", "the king of clubs fits no corner (they want a 7)")
    assert_illegal(position, "X@w@tomb", "the 7 of hearts does not fit the tomb, which wants a 6")
    play(position, "X@w@nw")
    assert cell_texts(position)["w"] == "KD"
    assert_illegal(position, "X@w@ne", "the king of diamonds does not fit the ne corner,"
                   " which is empty and takes only a 7")


def test_the_cross_and_the_classic_games_keep_their_own_moves() -> None:
    classic = Position(stacked("7C"), CLASSIC)
    assert_illegal(classic, "X@n", "the classic 1-card deal has no cross: X moves are for the "
                   "traditional cross")
    assert all(move.kind is not Kind.CROSS for move in classic.legal_moves())


# -- no parking, no automatic moves, passes --------------------------------------------

@pytest.mark.parametrize("move", ["C", "C@n", "C@s"])
def test_no_parking(move: str) -> None:
    position = cross("KC KS KH KD", "D")
    assert_illegal(position, move, "no parking in the traditional cross: its places are filled "
                   "only from the stock")
    assert all(m.kind is not Kind.CELL for m in position.legal_moves())


def test_no_automatic_moves_a_fitting_cross_card_waits_for_the_player() -> None:
    position = cross("8C KS KH KD 7C", "D F@nw")
    assert cell_texts(position)["n"] == "8C" and pile_texts(position)["nw"] == ["7C"]
    assert [m.notation for m in position.legal_moves()] == ["D", "X@n@nw"]
    play(position, "X@n")
    assert pile_texts(position)["nw"] == ["7C", "8C"]


def test_three_passes_then_no_move_left_is_lost() -> None:
    position = cross()  # kings on the cross, the rest never fits where it comes
    for _ in range(2):
        play(position, "D " * 48 + "R")
    play(position, "D " * 48)
    assert position.legal_moves() == [] and position.status is Status.LOST
    assert_illegal(position, "R", "all 3 passes through the stock are used")


# -- won, and the grand tomb -------------------------------------------------------------

def won_game(corners: dict[str, str], last_tomb_suit: int = 0) -> tuple[Position, list[str]]:
    """A deck that goes home card by card, and its moves: every card is played from the
    cross as it is refilled; each suit builds on ``corners[suit]``.

    The tomb takes 6..A four times; ``last_tomb_suit`` picks the suit of the last ace.
    """
    order = [rank + suit for suit in SUITS for rank in CORNER_RUN]
    tomb = tomb_order()
    if last_tomb_suit:
        rotate = {s: SUITS[(SUITS.index(s) + last_tomb_suit) % 4] for s in SUITS}
        tomb = [text[0] + rotate[text[1]] for text in tomb]
    deck = deal_from_cards(order + tomb)
    position = Position(deck, CROSS)
    moves: list[str] = []
    twin = position.copy()
    while twin.status is Status.PLAYING:
        move = next_home_move(twin, corners)
        twin.apply(parse_move(move))
        moves.append(move)
    assert twin.status is Status.WON
    return position, moves


def next_home_move(position: Position, corners: dict[str, str]) -> str:
    for place, card in enumerate(position.cells):
        if card == EMPTY:
            continue
        text = card_text(card)
        foundation = "tomb" if text[0] in "65432A" else corners[text[1]]
        if f"X@{CELLS[place]}@{foundation}" in {m.notation for m in position.legal_moves()}:
            return f"X@{CELLS[place]}@{foundation}"
    return "D"


def test_a_won_game_with_the_ace_of_clubs_last_and_kings_paired_by_colour_is_grand() -> None:
    position, moves = won_game(GRAND_CORNERS)
    play(position, " ".join(moves))
    assert position.status is Status.WON and pile_texts(position)["tomb"][-1] == "AC"
    assert RULES.achievements(position) == ["grand-tomb"]
    view = visible_view(position)
    assert view["achievements"] == ["grand-tomb"] and view["status"] == "won"


def test_kings_not_paired_by_colour_is_not_grand() -> None:
    position, moves = won_game(PLAIN_CORNERS)
    play(position, " ".join(moves))
    assert position.status is Status.WON and pile_texts(position)["tomb"][-1] == "AC"
    assert RULES.achievements(position) == []
    assert visible_view(position)["achievements"] == []


def test_another_ace_last_on_the_tomb_is_not_grand() -> None:
    position, moves = won_game(GRAND_CORNERS, last_tomb_suit=1)
    play(position, " ".join(moves))
    assert position.status is Status.WON and pile_texts(position)["tomb"][-1] != "AC"
    assert RULES.achievements(position) == []


def test_a_game_in_play_has_no_achievements_key() -> None:
    position = cross()
    assert "achievements" not in visible_view(position) and RULES.achievements(position) == []
    classic = Position(stacked(), CLASSIC)
    assert "achievements" not in visible_view(classic) and "cross" not in visible_view(classic)


def test_the_finishing_line_plays_the_cross_cards_once_the_stock_is_empty() -> None:
    position, moves = won_game(GRAND_CORNERS)
    while position.stock:
        position.apply(parse_move(moves.pop(0)))
    line = finishing_line(position)
    assert line is not None
    play(position, " ".join(move.notation for move in line))
    assert position.status is Status.WON
    assert finishing_line(cross()) is None


# -- reveals: what a ranked attempt can never take back ---------------------------------

def test_reveals_every_move_that_shows_an_unseen_card() -> None:
    position = cross("7C KC KS KH")
    assert RULES.reveals(position, parse_move("D"))
    assert RULES.reveals(position, parse_move("X@n@nw"))  # refilled from the stock
    play(position, "D " * 48)
    assert RULES.reveals(position, parse_move("R"))
    assert not RULES.reveals(position, parse_move("X@n@nw"))  # from the waste: in view
    assert not RULES.reveals(position, parse_move("F"))


# -- the view, the table, notation and records ---------------------------------------------

def test_the_view_names_the_cross_places_as_cells_and_piles_with_x_paths() -> None:
    position = cross("7C 6H KS KH")
    view = visible_view(position)
    assert view["variant"] == "cross" and view["cross"] is True
    assert view["cells"] == {"n": "7C", "w": "6H", "e": "KS", "s": "KH"}
    assert view["piles"]["n"] == {"down": 0, "up": ["7C"]} and view["stock_count"] == 48
    assert view["piles"]["stock"] == {"down": 48, "up": []}
    assert view["legal"] == ["D", "X@n@nw", "X@n@ne", "X@n@sw", "X@n@se", "X@w@tomb"]
    assert view["paths"]["X@n@se"] == {"from": "n", "to": "se", "count": 1}
    assert view["paths"]["X@w@tomb"] == {"from": "w", "to": "tomb", "count": 1}
    assert view["paths"]["D"] == {"from": "stock", "to": "waste", "count": 1}
    assert view["pickable"] == {"stock": [1], "n": [1], "w": [1]}


def test_the_table_is_the_x_with_cross_places_refilled_from_the_stock() -> None:
    piles = {pile.name: pile for pile in RULES.table(CROSS).piles}
    assert set(piles) == set(CELLS) | set(FOUNDATIONS) | {"stock", "waste"}
    for name in CELLS:
        assert "cross place" in piles[name].label
        assert piles[name].accepts.startswith("refilled from the stock")
    assert RULES.table(CLASSIC).as_data() != RULES.table(CROSS).as_data()
    assert {p.name: (p.row, p.col) for p in RULES.table(CLASSIC).piles} == {
        name: (pile.row, pile.col) for name, pile in piles.items()
    }


@pytest.mark.parametrize("move", CROSS_MOVES, ids=lambda move: move.notation)
def test_every_cross_move_round_trips_through_its_notation(move: Move) -> None:
    assert parse_move(move.notation) == move
    assert parse_move(move.notation.lower()) == move and str(move) == move.notation


def test_cross_notation_reads_places_then_foundations() -> None:
    assert parse_move("x@N") == Move(Kind.CROSS, None, 0)
    assert parse_move(" X@s@TOMB ") == Move(Kind.CROSS, 4, 3)
    assert len(CROSS_MOVES) == 4 * (1 + len(FOUNDATIONS))
    for junk in ("X", "X@", "X@nw", "X@n@n", "X@tomb@n", "X@n@tomb@ne", "Xn"):
        with pytest.raises(InvalidNotation, match="is not a move"):
            parse_move(junk)


def test_a_cross_record_round_trips_with_its_refills() -> None:
    position = cross("7C KC KS KH 8C 9D", "X@n D X@n D " + "D " * 44)
    record = to_record(position)
    assert record["variant"] == "cross"
    assert "X@n@nw" in record["moves"]
    again = from_record(record)
    assert again == position and visible_view(again) == visible_view(position)


# -- properties: random play ----------------------------------------------------------------

DEALS = st.one_of(
    st.integers(1, MAX_DEAL).map(deal_from_number),
    st.integers(0, 2**64 - 1).map(deal_from_seed),
)
PLAYOUT = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_play(position: Position, seed: int, length: int) -> None:
    """Legal moves, a card home half the time one can go (else the games end early)."""
    chooser = random.Random(seed)
    for _ in range(length):
        legal = position.legal_moves()
        if not legal:
            return
        home = [m for m in legal if m.kind in (Kind.CROSS, Kind.FOUNDATION)]
        pool = home if home and chooser.random() < 0.5 else legal
        position.apply(chooser.choice(pool))


def assert_no_unseen_card(position: Position) -> None:
    view = visible_view(position)
    stock = set(texts(position.stock))
    shown = set(view["waste"]) | {card for card in view["cells"].values() if card}
    shown |= {card for pile in view["piles"].values() for card in pile["up"]}
    shown |= {card for pile in view["foundations"].values() for card in pile}
    assert not stock & shown
    assert len(shown) + view["stock_count"] == 52
    assert view["stock_count"] == len(position.stock)


@PLAYOUT
@given(deal=DEALS, seed=st.integers(0, 2**32), length=st.integers(0, 300))
def test_random_play_then_undo_all_is_the_fresh_game(deal: Deal, seed: int, length: int) -> None:
    fresh = Position(deal, CROSS)
    position = fresh.copy()
    random_play(position, seed, length)
    assert position.home == sum(len(pile) for pile in position.foundations)
    assert from_record(to_record(position)) == position
    views = []
    while position.history:
        views.append(visible_view(position))
        assert_no_unseen_card(position)
        position.undo()
    assert position == fresh and visible_view(position) == visible_view(fresh)
    with pytest.raises(IllegalMove):
        position.undo()


@PLAYOUT
@given(deal=DEALS, seed=st.integers(0, 2**32), length=st.integers(0, 300))
def test_random_play_keeps_52_cards_and_never_parks(deal: Deal, seed: int, length: int) -> None:
    position = Position(deal, CROSS)
    random_play(position, seed, length)
    cards = [*position.stock, *position.waste, *(c for c in position.cells if c != EMPTY)]
    cards += [card for pile in position.foundations for card in pile]
    assert sorted(cards) == list(range(52))
    assert all(move.kind is not Kind.CELL for move in position.moves)
    # A place is empty only once the stock and the waste are empty too.
    if EMPTY in position.cells:
        assert not position.stock and not position.waste
    replay = parse_moves(" ".join(move.notation for move in position.moves))
    assert Position.replay(deal, CROSS, replay) == position
