"""Klondike's rules, move by move: the six moves, each refusal, the score, the end.

RULES-KLONDIKE.md is the contract. Most tests set a table out by hand with
``table()``: columns written as pysol_cards prints them (``<7H>`` face down,
bottom card first); every card a test does not name and that is not home
goes face down at the bottom of one column (``filler``), out of play.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from patience.cards import ALL_CARDS, card_name, card_text, parse_card
from patience.errors import IllegalMove, InvalidDeal, InvalidNotation
from patience.klondike import (
    ALL_MOVES,
    TURN_1,
    TURN_3,
    Kind,
    Position,
    Status,
    Variant,
    can_finish,
    finishing_line,
    format_moves,
    new_game,
    parse_move,
    parse_moves,
    visible_view,
)
from patience.klondike.position import top_of_foundation
from patience.klondike.rules import RULES
from patience.protocol import Rules


def cards(text: str) -> list[int]:
    return [parse_card(word) for word in text.split()]


def table(
    columns: Sequence[str],
    stock: str = "",
    waste: str = "",
    home: Sequence[int] = (0, 0, 0, 0),
    variant: Variant = TURN_1,
    filler: int = 6,
) -> Position:
    """A hand-set position. ``stock`` is written top first (the next card to turn first),
    ``waste`` bottom first; ``home`` counts the cards on f1..f4 (C, S, H, D)."""
    columns = list(columns) + [""] * (7 - len(columns))
    named = [cards(text.replace("<", "").replace(">", "")) for text in columns]
    down = [text.count("<") for text in columns]
    at_home = {top_of_foundation(s, r) for s in range(4) for r in range(1, home[s] + 1)}
    placed = {c for column in named for c in column} | set(cards(stock)) | set(cards(waste))
    rest = [c for c in ALL_CARDS if c not in placed and c not in at_home]
    assert named[filler] or not rest, "the filler column needs a face-up card over the rest"
    named[filler] = rest + named[filler]
    down[filler] += len(rest)
    return Position.from_table(variant, named, down, cards(stock)[::-1], cards(waste), home)


def texts(values: Sequence[int]) -> list[str]:
    return [card_text(card) for card in values]


def play(position: Position, moves: str) -> Position:
    for move in parse_moves(moves):
        position.apply(move)
    return position


def notations(position: Position) -> list[str]:
    return [move.notation for move in position.legal_moves()]


def refused(position: Position, move: str) -> str:
    """The message of a refused move; the position must be unchanged."""
    before = position.state_key()
    with pytest.raises(IllegalMove) as caught:
        position.apply(parse_move(move))
    assert position.state_key() == before
    return str(caught.value)


# -- the protocol object ---------------------------------------------------------

def test_rules_object() -> None:
    rules: Rules = RULES
    assert rules.slug == "klondike" and rules.name == "Klondike"
    assert list(rules.variants) == ["turn-1", "turn-3"]
    assert rules.default_variant is TURN_1
    assert (TURN_1.draw, TURN_3.draw, TURN_1.name, TURN_3.name) == (1, 3, "turn 1", "turn 3")
    assert (rules.card_count, rules.min_deal, rules.max_deal) == (52, 1, 999_999)
    assert rules.new_game(5, "turn-3").variant is TURN_3
    assert rules.achievements(rules.new_game(5, "turn-1")) == []
    for name in ("deal_from_number", "deal_from_seed", "deal_from_texts", "parse_move",
                 "parse_moves", "replay", "visible_view", "to_record", "from_record",
                 "reveals", "search_key", "finishing_line", "table", "achievements"):
        assert callable(getattr(rules, name))


def test_table_as_data() -> None:
    three = {pile.name: pile for pile in RULES.table(TURN_3).piles}
    one = {pile.name: pile for pile in RULES.table(TURN_1).piles}
    assert list(three) == ["stock", "waste", "f1", "f2", "f3", "f4",
                           "t1", "t2", "t3", "t4", "t5", "t6", "t7"]
    assert (three["stock"].row, three["stock"].col, three["waste"].col) == (0, 0, 1)
    assert (three["waste"].fan, three["waste"].show, one["waste"].show) == ("right", 3, 1)
    assert [three[f"f{i}"].col for i in range(1, 5)] == [3, 4, 5, 6]
    assert {three[f"f{i}"].role for i in range(1, 5)} == {"foundation"}
    assert three["f1"].base == "A"
    assert [(three[f"t{i}"].row, three[f"t{i}"].col) for i in range(1, 8)] == [
        (1, i) for i in range(7)]
    assert three["t3"].fan == "down" and three["t3"].role == "pile"
    assert "three cards" in three["stock"].accepts and "one card" in one["stock"].accepts
    for pile in three.values():  # the board names every pile in a sentence
        assert pile.phrases is not None and pile.phrases.from_ and pile.phrases.to
    data = RULES.table(TURN_3).as_data()
    assert data["card_count"] == 52 and data["rows"] == 2 and data["cols"] == 7
    assert data["draw"] == 3
    words = {pile["name"]: pile for pile in data["piles"]}
    assert words["t3"]["label"] == "column 3" and words["t3"]["from"] == "from column 3"
    assert "King" in words["t3"]["accepts"]
    assert words["f1"]["label"] == "clubs foundation"
    assert words["f4"]["to"] == "to the diamonds foundation"
    assert (words["stock"]["label"], words["waste"]["the"]) == ("stock", "the waste")
    assert RULES.welcome and RULES.name == "Klondike"


# -- notation --------------------------------------------------------------------

def test_every_move_round_trips() -> None:
    assert len({move.notation for move in ALL_MOVES}) == len(ALL_MOVES)
    for move in ALL_MOVES:
        assert parse_move(move.notation) is move
        assert parse_move(move.notation.upper()) is move
        assert parse_move(f"  {move.notation} ") is move


@pytest.mark.parametrize(("text", "kind", "source", "target", "count"), [
    ("D", Kind.TURN, -1, -1, 1), ("r", Kind.REDEAL, -1, -1, 1),
    ("w-f3", Kind.WASTE_TO_FOUNDATION, -1, 2, 1), ("W-T7", Kind.WASTE_TO_COLUMN, -1, 6, 1),
    ("t2-f1", Kind.COLUMN_TO_FOUNDATION, 1, 0, 1), ("t1-t2", Kind.COLUMN_TO_COLUMN, 0, 1, 1),
    ("t4-t6x3", Kind.COLUMN_TO_COLUMN, 3, 5, 3), ("T4-T6X13", Kind.COLUMN_TO_COLUMN, 3, 5, 13),
    ("f4-t5", Kind.FOUNDATION_TO_COLUMN, 3, 4, 1),
])
def test_notation_reads(text: str, kind: Kind, source: int, target: int, count: int) -> None:
    move = parse_move(text)
    assert (move.kind, move.source, move.target, move.count) == (kind, source, target, count)
    assert move.notation == text.lower() if len(text) > 1 else move.notation == text.upper()


@pytest.mark.parametrize("text", [
    "", "x", "DD", "D D", "t1-t1", "t1-t2x1", "t1-t2x0", "t1-t2x14", "w-w", "f1-f2", "t1-w",
    "t1-f1x2", "w-t3x2", "f1-t2x2", "t0-t1", "t8-t1", "f5-t1", "w-f0", "s-w", 5, None,
])
def test_not_moves(text: object) -> None:
    with pytest.raises(InvalidNotation):
        parse_move(text)


def test_move_lists() -> None:
    moves = parse_moves(" D  w-t3\tt6-f3 ")
    assert format_moves(moves) == "D w-t3 t6-f3"
    assert parse_moves("") == []
    with pytest.raises(InvalidNotation):
        parse_moves(["D"])


# -- the six moves ----------------------------------------------------------------

def test_move_1_a_column_card_home_turns_up_the_card_beneath() -> None:
    position = new_game(1)  # column 6 ends in AH over five face-down cards
    position.apply(parse_move("t6-f3"))
    assert position.foundations == [0, 0, 1, 0] and position.home == 1
    assert position.down[5] == 4 and texts(position.face_up(5)) == ["QD"]
    assert position.score == 15  # +10 home, +5 a card turned up
    position.undo()
    assert position.down[5] == 5 and texts(position.face_up(5)) == ["AH"]
    assert position.score == 0 and position.home == 0


def test_move_1_home_needs_the_next_rank_in_suit() -> None:
    position = table(["2C", "3C", "AC"], filler=1)
    play(position, "t3-f1 t1-f1 t2-f1")
    assert position.foundations[0] == 3
    assert texts(position.columns[0]) == []
    assert position.score == 35  # three cards home; the 3 left a face-down filler card up


def test_move_2_a_card_onto_a_column() -> None:
    position = table(["8S", "7H", "7C", "9D"], filler=3)
    play(position, "t2-t1")
    assert texts(position.columns[0]) == ["8S", "7H"] and position.columns[1] == []
    assert position.score == 0  # column to column scores nothing


def test_move_3_a_run_moves_as_one() -> None:
    position = table(["<KC> 9S 8H 7C", "TH", "TD"], filler=2)
    play(position, "t1-t2x3")
    assert texts(position.columns[1]) == ["TH", "9S", "8H", "7C"]
    assert texts(position.columns[0]) == ["KC"] and position.down[0] == 0  # turned up
    assert position.score == 5
    position.undo()
    assert texts(position.face_up(0)) == ["9S", "8H", "7C"] and position.down[0] == 1


def test_move_3_part_of_a_run() -> None:
    position = table(["9S 8H 7C 6H", "9C"], filler=1)
    assert "t1-t2x3" in notations(position)  # 8H 7C 6H onto 9C
    play(position, "t1-t2x3")
    assert texts(position.columns[0]) == ["9S"]
    assert texts(position.face_up(1)) == ["9C", "8H", "7C", "6H"]


def test_move_4_the_waste_top_to_a_column_and_home() -> None:
    position = new_game(1)
    play(position, "D D D")  # 4H AC 4D: 4D on top, and the 5 of clubs ends column 3
    assert texts(position.waste) == ["4H", "AC", "4D"]
    play(position, "w-t3")
    assert texts(position.face_up(2)) == ["5C", "4D"] and position.score == 5
    play(position, "w-f1")  # the ace of clubs, now on top
    assert position.foundations[0] == 1 and position.score == 15
    assert texts(position.waste) == ["4H"]


def test_move_5_a_foundation_card_back_to_a_column() -> None:
    position = table(["9S", "8C"], home=(0, 0, 8, 0), filler=1)  # 8H tops the hearts
    assert "f3-t1" in notations(position) and "f3-t2" not in notations(position)
    play(position, "f3-t1")
    assert texts(position.columns[0]) == ["9S", "8H"] and position.foundations[2] == 7
    assert position.home == 7


def test_move_6_a_king_or_a_king_headed_run_into_an_empty_column() -> None:
    position = table(["<2S> KH QS JD", "", "9C"], waste="KC", filler=2)
    assert {"t1-t2x3", "w-t2"} <= set(notations(position))
    play(position, "t1-t2x3")
    assert texts(position.columns[1]) == ["KH", "QS", "JD"]
    assert texts(position.columns[0]) == ["2S"] and position.down[0] == 0
    position.undo()
    play(position, "w-t2")
    assert texts(position.columns[1]) == ["KC"] and position.waste == []


def test_a_lone_king_may_change_columns() -> None:
    # RULES: "a King, or a run headed by a King, into an empty column", with no
    # exception for a King that already lies at the bottom of its own column.
    position = table(["KH", "", "5C"], filler=2)
    assert "t1-t2" in notations(position)


def test_each_run_length_is_its_own_move() -> None:
    # 8S 7H 6C onto 9H is one move, 6C alone onto 7D another; the run moves by its head.
    position = table(["<4C> 8S 7H 6C", "9H", "7D", "JC"], filler=3)
    assert sorted(n for n in notations(position) if n.startswith("t1-")) == ["t1-t2x3",
                                                                              "t1-t3"]


# -- what each move refuses --------------------------------------------------------

def test_wrong_colour() -> None:
    message = refused(table(["8C", "7S"], filler=1), "t2-t1")
    assert message == ("the 7 of spades does not go onto the 8 of clubs: "
                       "it takes only a red 7")


def test_wrong_rank() -> None:
    message = refused(table(["8C", "6H"], filler=1), "t2-t1")
    assert "the 6 of hearts does not go onto the 8 of clubs" in message


def test_nothing_goes_onto_an_ace_in_a_column() -> None:
    assert "onto an ace" in refused(table(["AS", "2H"], filler=1), "t2-t1")


def test_only_a_king_starts_an_empty_column() -> None:
    position = table(["QH", "", "<3S> QS JH"], waste="QD", filler=2)
    assert "only a King" in refused(position, "t1-t2")
    assert "only a King" in refused(position, "w-t2")
    message = refused(position, "t3-t2x2")
    assert "a run headed by the queen of spades" in message and "3 of spades" not in message


def test_a_run_is_only_the_face_up_cards() -> None:
    position = table(["<5D> 9S 8H", "TD"], filler=1)
    message = refused(position, "t1-t2x3")
    assert message == "column 1 shows 2 face-up cards: a run of 3 cannot be lifted from it"
    assert "diamonds" not in message
    play(position, "t1-t2x2")


def test_a_run_not_in_sequence_is_no_table() -> None:
    # The face-up part of a column is always one run (position.py); a table
    # that breaks it is refused, so no move ever meets a run out of sequence.
    for column in ("9S 8S", "9S 7H", "<2C> 9H 8S 8D"):
        with pytest.raises(InvalidDeal, match="not in sequence"):
            table([column], filler=0)


def test_a_run_must_fit_by_its_first_card() -> None:
    position = table(["9S 8H 7C", "TS", "9D"], filler=2)
    assert "a run headed by the 9 of spades does not go onto the 10 of spades" in refused(
        position, "t1-t2x3")
    assert "a run headed by the 8 of hearts does not go onto the 9 of diamonds" in refused(
        position, "t1-t3x2")


def test_foundation_wrong_suit() -> None:
    position = table(["AC", "AH"], filler=1)
    message = refused(position, "t1-f2")
    assert message == ("the ace of clubs does not go on the spades foundation (f2): "
                       "it takes only spades")
    refused(position, "t2-f4")


def test_foundation_wrong_rank() -> None:
    position = table(["3C", "KD"], home=(1, 0, 0, 0), filler=1)
    assert refused(position, "t1-f1") == ("the 3 of clubs does not go on the clubs "
                                          "foundation yet: it wants a 2 next")
    assert "wants an ace" in refused(table(["2H"], filler=0), "t1-f3")


def test_d_on_an_empty_stock() -> None:
    assert "turn the waste back over with R" in refused(table(["KS"], waste="5H", filler=0), "D")
    assert refused(table(["KS"], filler=0), "D") == "the stock and the waste are both empty"


def test_r_with_stock_left_or_nothing_to_turn() -> None:
    assert refused(table(["KS"], stock="5H 6H", filler=0), "R") == (
        "the stock still holds 2 cards: R is played once it is empty")
    assert "1 card:" in refused(table(["KS"], stock="5H", waste="9C", filler=0), "R")
    assert "nothing to turn back" in refused(table(["KS"], filler=0), "R")


def test_turn_3_only_the_waste_top_is_in_play() -> None:
    position = table(["9S", "9H"], stock="8H 2C 9D", variant=TURN_3, filler=1)
    play(position, "D")
    assert texts(position.waste) == ["8H", "2C", "9D"]  # 9D on top; 8H lowest
    assert [n for n in notations(position) if n.startswith("w-")] == []
    assert "the 9 of diamonds does not go onto the 9 of spades" in refused(position, "w-t1")
    # At turn-1 the same cards come one at a time and the 8 of hearts plays.
    one = table(["9S", "9H"], stock="8H 2C 9D", filler=1)
    play(one, "D w-t1")


def test_empty_sources() -> None:
    position = table(["KS", ""], filler=0)
    assert refused(position, "w-t1") == "the waste is empty: there is no card to play"
    assert refused(position, "w-f1") == "the waste is empty: there is no card to play"
    assert refused(position, "t2-f1") == "column 2 is empty: there is no card to play"
    assert refused(position, "t2-t1") == "column 2 is empty: there is no card to play"
    assert refused(position, "f3-t1") == "the hearts foundation is empty"


def test_foundation_card_back_needs_a_fitting_column() -> None:
    position = table(["9H", ""], home=(8, 0, 0, 0), filler=0)
    assert refused(position, "f1-t2") == ("column 2 is empty: only a King, or a run headed "
                                          "by a King, starts it, and the 8 of clubs is not")
    play(position, "f1-t1")
    assert refused(table(["9C", "KD"], home=(8, 0, 0, 0), filler=1), "f1-t1") == (
        "the 8 of clubs does not go onto the 9 of clubs: it takes only a red 8")


def test_messages_name_no_face_down_card() -> None:
    position = new_game(1)
    hidden = [position.columns[i][k] for i in range(7) for k in range(position.down[i])]
    names = [card_name(card) for card in hidden + position.stock]
    for move in ALL_MOVES:
        try:
            position.copy().apply(move)
        except IllegalMove as error:
            assert not any(name in str(error) for name in names), (move.notation, error)


def test_nothing_after_the_win() -> None:
    position = table(["KC"], home=(12, 13, 13, 13), filler=0)
    play(position, "t1-f1")
    assert position.status is Status.WON and position.legal_moves() == []
    assert refused(position, "f1-t1") == "the game is won: every card is home"
    position.undo()
    assert position.status.value == "playing"  # (.value: mypy narrows the enum above)


def test_undo_with_no_history() -> None:
    with pytest.raises(IllegalMove, match="no move to undo"):
        new_game(1).undo()


# -- the stock ---------------------------------------------------------------------

def test_turn_1_turns_one_card() -> None:
    position = new_game(1)
    top = position.stock[-1]
    play(position, "D")
    assert position.waste == [top] and len(position.stock) == 23


def test_turn_3_turns_three_and_fewer_at_the_end() -> None:
    position = table(["KS"], stock="5H 6H 7H 8H 9H", variant=TURN_3, filler=0)
    play(position, "D")
    assert texts(position.waste) == ["5H", "6H", "7H"] and texts(position.stock) == ["9H", "8H"]
    assert visible_view(position)["paths"]["D"] == {"from": "stock", "to": "waste", "count": 2}
    play(position, "D")
    assert texts(position.waste) == ["5H", "6H", "7H", "8H", "9H"] and position.stock == []
    position.undo()
    assert texts(position.waste) == ["5H", "6H", "7H"]


@pytest.mark.parametrize("variant", [TURN_1, TURN_3])
def test_a_redeal_puts_the_stock_back_in_its_order(variant: Variant) -> None:
    position = new_game(617, variant)
    stock = position.stock[:]
    for _round in range(5):  # unlimited
        while position.stock:
            play(position, "D")
        assert position.waste == stock[::-1]
        play(position, "R")
        assert position.stock == stock and position.waste == []
    assert position.redeals == 5


# -- the score ---------------------------------------------------------------------

def test_score_home_from_the_waste_and_from_a_column() -> None:
    position = table(["2C", "KD"], waste="AC", filler=1)
    play(position, "w-f1")
    assert position.score == 10
    play(position, "t1-f1")
    assert position.score == 20


def test_score_waste_to_column_and_turning_up() -> None:
    position = table(["<3D> 8S", "9H"], waste="7H", filler=1)
    play(position, "w-t1")
    assert position.score == 5
    play(position, "t1-t2x2")  # 8S 7H onto 9H: no points, but the 3 of diamonds turns up
    assert position.score == 10 and texts(position.face_up(0)) == ["3D"]


def test_score_column_to_column_alone_is_nothing() -> None:
    position = table(["8S", "9H", "9D"], filler=2)
    play(position, "t1-t2")
    assert position.score == 0


def test_score_clamps_at_zero_and_undo_restores_it() -> None:
    position = table(["9S", "KD"], home=(0, 0, 8, 0), filler=1)
    play(position, "f3-t1")
    assert position.score == 0  # -15 from 0: never below zero
    play(position, "t1-f3")
    assert position.score == 10
    play(position, "f3-t1")
    assert position.score == 0
    position.undo()
    assert position.score == 10
    position.undo()
    assert position.score == 0


def test_score_a_redeal_costs_100_at_turn_1_only() -> None:
    one = table(["KS"], waste="5H", filler=0)
    one.score = 150
    play(one, "R")
    assert one.score == 50
    play(one, "D R")
    assert one.score == 0  # clamped
    one.undo()
    assert one.score == 50
    three = table(["KS"], waste="5H", variant=TURN_3, filler=0)
    three.score = 150
    play(three, "R D R")
    assert three.score == 150


# -- the end: won, lost, finish ----------------------------------------------------

# Seven tops that take nothing from each other, no empty column, no ace home: the
# aces and queens lie face down in column 7, so no stock or waste card but an ace
# or a queen could ever play.
STUCK = ["KS", "KH", "KC", "KD", "2S", "2C", "2H"]


def test_a_fresh_game_is_playing() -> None:
    assert new_game(1).status is Status.PLAYING


def test_never_lost_before_the_whole_stock_was_seen() -> None:
    position = table(STUCK, stock="5S 6H", waste="9D")
    assert position.unseen_in_stock == 2
    assert position.status is Status.PLAYING  # the two unseen cards decide nothing yet
    play(position, "D")
    assert position.status is Status.PLAYING
    play(position, "D")
    assert position.unseen_in_stock == 0
    assert position.status.value == "lost"
    assert notations(position) == ["R"]  # R stays legal: the view says lost, play may go on
    play(position, "R")
    assert position.status.value == "lost"  # every card of the cycle was seen
    position.undo()
    position.undo()
    assert position.status is Status.PLAYING  # undo turns the 6 of hearts back down
    assert visible_view(position)["status"] == "playing"


def test_not_lost_while_a_stock_card_could_play() -> None:
    # The queen of hearts (onto a black king) waits in the stock: D and R reach it.
    position = table(STUCK, waste="5S QH 6H", filler=6)
    position.redeals = 1
    assert position.status is Status.PLAYING
    lost = table(STUCK, waste="5S 6H")
    assert lost.status is Status.LOST


def test_not_lost_while_any_table_move_is_legal() -> None:
    position = table([*STUCK[:6], "3D"], waste="5S", home=(0, 1, 0, 0), filler=6)
    # The ace of spades is home and the 2 of spades could follow it.
    assert position.status is Status.PLAYING
    play(position, "t5-f2")
    back = table(["KS", "KH", "KC", "KD", "5S", "2C", "3D"], waste="9C", home=(0, 2, 0, 0))
    assert "f2-t7" in notations(back)  # the 2 of spades back onto the 3 of diamonds
    assert back.status is Status.PLAYING


def test_turn_3_is_conservative() -> None:
    # At turn-3 the queen of hearts, dealt under two cards each pass, never tops the
    # waste; the engine still says "playing" (it may never say "lost" wrongly).
    position = table(STUCK, stock="QH 5S 6H", variant=TURN_3)
    play(position, "D")
    assert texts(position.waste) == ["QH", "5S", "6H"]
    assert position.status is Status.PLAYING
    assert table(STUCK, stock="5S 6H 9D", variant=TURN_3).status is Status.PLAYING  # unseen
    dead = table(STUCK, stock="5S 6H 9D", variant=TURN_3)
    play(dead, "D")
    assert dead.status is Status.LOST


def test_a_table_with_nothing_left_anywhere_is_lost() -> None:
    assert table(STUCK).status is Status.LOST
    assert notations(table(STUCK)) == []


def test_the_finishing_line_plays_home_lowest_first() -> None:
    position = table(["KC QH", "KH"], home=(12, 13, 11, 13), filler=0)
    assert can_finish(position)
    line = finishing_line(position)
    assert line is not None and format_moves(line) == "t1-f3 t1-f1 t2-f3"
    assert position.home == 49  # unchanged
    play(position, format_moves(line))
    assert position.status is Status.WON and position.home == 52
    assert finishing_line(position) is None


def test_a_long_finishing_line() -> None:
    # Every column a descending run, the lowest cards spread about.
    position = table(["KS QH JC TD 9S", "KH QC JH TC 9H 8S", "KD QS JD TS 9D 8C",
                      "KC QD JS TH 9C 8H 7S"], home=(7, 6, 7, 8), filler=0)
    line = finishing_line(position)
    assert line is not None and len(line) == 24
    play(position, format_moves(line))
    assert position.status is Status.WON


def test_no_finish_while_a_card_is_unseen() -> None:
    assert finishing_line(table(["<KC> QH", "KH"], home=(12, 13, 11, 13), filler=0)) is None
    assert finishing_line(table(["QH", "KH"], stock="KC", home=(12, 13, 11, 13),
                                filler=0)) is None
    assert finishing_line(table(["QH", "KH"], waste="KC", home=(12, 13, 11, 13),
                                filler=0)) is None
    assert finishing_line(new_game(1)) is None


# -- reveals ------------------------------------------------------------------------

def test_reveals() -> None:
    position = new_game(1)
    assert RULES.reveals(position, parse_move("D"))
    assert RULES.reveals(position, parse_move("t6-f3"))  # the card under AH turns up
    play(position, "D D D")
    assert not RULES.reveals(position, parse_move("w-t3"))
    ends = table(["<3D> 8S 7H", "9H", "9D 8C", "TS"], filler=3)
    assert not RULES.reveals(ends, parse_move("t1-t2"))  # 7H leaves 8S face up
    assert RULES.reveals(ends, parse_move("t1-t2x2"))  # 3D turns up
    assert not RULES.reveals(ends, parse_move("t3-t4x2"))  # the column empties: nothing shown
    assert not RULES.reveals(table(["KS"], waste="5H", filler=0), parse_move("R"))


# -- the view -----------------------------------------------------------------------

COMMON = {"game", "variant", "piles", "stock_count", "home", "moves", "log", "legal", "paths",
          "pickable", "can_undo", "status"}


def test_the_view_of_a_fresh_deal() -> None:
    view = visible_view(new_game(1))
    assert set(view) == COMMON | {"score", "draw", "redeals"}
    piles = view["piles"]
    assert list(piles) == ["stock", "waste", "f1", "f2", "f3", "f4",
                           "t1", "t2", "t3", "t4", "t5", "t6", "t7"]
    assert piles["stock"] == {"down": 24, "up": []}
    assert piles["waste"] == {"down": 0, "up": []}
    assert piles["t1"] == {"down": 0, "up": ["QH"]}
    assert piles["t7"] == {"down": 6, "up": ["AS"]}
    assert view["legal"] == ["t6-f3", "t7-f2", "D"]
    assert view["paths"] == {
        "t6-f3": {"from": "t6", "to": "f3", "count": 1},
        "t7-f2": {"from": "t7", "to": "f2", "count": 1},
        "D": {"from": "stock", "to": "waste", "count": 1},
    }
    assert view["pickable"] == {"t6": [1], "t7": [1], "stock": [1]}
    assert (view["stock_count"], view["score"], view["draw"], view["redeals"]) == (24, 0, 1, 0)
    assert view["can_undo"] is False and view["status"] == "playing"


def test_the_view_after_play() -> None:
    position = new_game(1, TURN_3)
    play(position, "D t6-f3")
    view = visible_view(position)
    assert view["piles"]["waste"] == {"down": 0, "up": ["4H", "AC", "4D"]}
    assert view["piles"]["f3"] == {"down": 0, "up": ["AH"]}
    assert view["piles"]["t6"] == {"down": 4, "up": ["QD"]}
    assert view["paths"]["D"]["count"] == 3 and view["draw"] == 3
    assert view["log"] == ["D", "t6-f3"] and view["moves"] == 2 and view["can_undo"]
    assert view["paths"]["w-t3"] == {"from": "waste", "to": "t3", "count": 1}


def test_the_view_of_runs_and_redeals() -> None:
    position = table(["<3D> 8S 7H", "9H", "9D 8C"], waste="5H 6C", filler=2)
    view = visible_view(position)
    assert view["paths"]["t1-t2x2"] == {"from": "t1", "to": "t2", "count": 2}
    assert view["paths"]["R"] == {"from": "waste", "to": "stock", "count": 2}
    assert view["paths"]["t1-t3"] == {"from": "t1", "to": "t3", "count": 1}  # 7H onto 8C
    assert view["pickable"]["t1"] == [1, 2] and view["pickable"]["waste"] == [1, 2]


def test_search_key() -> None:
    position = new_game(1)
    key = RULES.search_key(position)
    hash(key)
    play(position, "D")
    assert RULES.search_key(position) != key
    position.undo()
    assert RULES.search_key(position) == key


# -- records and hand-set tables ------------------------------------------------------

def test_a_record_replays_the_game() -> None:
    position = play(new_game(31999, TURN_3), "D D")
    record = RULES.to_record(position)
    assert record == {
        "format": 1, "game": "klondike", "variant": "turn-3", "deal": 31999, "seeded": False,
        "cards": new_game(31999).deal.texts, "moves": "D D",
    }
    assert RULES.from_record(record) == position


@pytest.mark.parametrize("change", [
    {"format": 2}, {"game": "st-helena"}, {"variant": "classic"}, {"moves": "D t1-t1"},
    {"deal": 32000}, {"deal": "x"}, {"cards": ["AS"] * 52},
])
def test_records_that_are_not_this_games(change: dict[str, object]) -> None:
    record = RULES.to_record(new_game(31999)) | change
    with pytest.raises((InvalidDeal, InvalidNotation)):
        RULES.from_record(record)
    with pytest.raises(InvalidDeal):
        RULES.from_record({"format": 1, "variant": "turn-1"})
    with pytest.raises(IllegalMove):
        RULES.from_record(RULES.to_record(new_game(31999)) | {"moves": "R"})


def test_a_hand_set_table_is_checked_and_has_no_record() -> None:
    position = table(["KS"], filler=0)
    with pytest.raises(InvalidDeal, match="set out by hand"):
        RULES.to_record(position)
    with pytest.raises(InvalidDeal, match="exactly once"):
        Position.from_table(TURN_1, [cards("KS"), cards("KS")] + [[]] * 5, [0] * 7)
    with pytest.raises(InvalidDeal, match="face-up card"):
        Position.from_table(TURN_1, [[c] for c in cards("KS KH KC KD QS QH QC")], [1] + [0] * 6)
    with pytest.raises(InvalidDeal, match="seven columns"):
        Position.from_table(TURN_1, [cards("KS")], [0])
