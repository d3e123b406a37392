"""Move notation (RULES.md, "Moves"): D, R, F, F@<foundation>, C, C@<cell>.

The notation is the engine's input from the API, logs and solver lines, so
junk must fail with InvalidNotation (a ValueError) whose message stays short
whatever the client sent.
"""

from __future__ import annotations

import pytest

from patience.tomb import (
    ALL_MOVES,
    CELLS,
    FOUNDATIONS,
    InvalidNotation,
    Kind,
    Move,
    format_moves,
    get_variant,
    parse_card,
    parse_deal_number,
    parse_move,
    parse_moves,
)

EXPECTED_NOTATIONS = [
    "D", "R", "F", "F@nw", "F@ne", "F@sw", "F@se", "F@tomb", "C", "C@n", "C@w", "C@e", "C@s",
]
HUGE = "F@" + "x" * 10_000
# A bound for any message about a bad input: a short prefix plus the hint.
MESSAGE_LIMIT = 120


def test_all_moves_are_exactly_the_moves_of_rules_md() -> None:
    assert [move.notation for move in ALL_MOVES] == EXPECTED_NOTATIONS
    assert FOUNDATIONS == ("nw", "ne", "sw", "se", "tomb")
    assert CELLS == ("n", "w", "e", "s")


@pytest.mark.parametrize("move", ALL_MOVES, ids=lambda move: move.notation)
def test_every_move_round_trips_through_its_notation(move: Move) -> None:
    assert parse_move(move.notation) == move
    assert str(move) == move.notation


@pytest.mark.parametrize(
    ("text", "notation"),
    [
        ("d", "D"), (" r ", "R"), ("f", "F"), ("F@TOMB", "F@tomb"), (" f@Tomb\t", "F@tomb"),
        ("f@NW", "F@nw"), ("F@Se", "F@se"), ("c", "C"), ("c@N", "C@n"), ("\nC@s\n", "C@s"),
    ],
)
def test_parsing_ignores_case_and_surrounding_space(text: str, notation: str) -> None:
    assert parse_move(text).notation == notation


def test_targets_are_indices_into_the_rules_order() -> None:
    assert parse_move("F@tomb") == Move(Kind.FOUNDATION, 4)
    assert parse_move("F@nw") == Move(Kind.FOUNDATION, 0)
    assert parse_move("C@s") == Move(Kind.CELL, 3)
    assert parse_move("F") == Move(Kind.FOUNDATION, None)


def test_a_move_list_is_split_on_any_whitespace() -> None:
    moves = parse_moves("  d D\tc@n\n\nF@tomb  r ")
    assert [move.notation for move in moves] == ["D", "D", "C@n", "F@tomb", "R"]
    assert parse_moves("") == []
    assert parse_moves("   ") == []


def test_a_move_list_round_trips_through_format_moves() -> None:
    text = " ".join(EXPECTED_NOTATIONS)
    assert format_moves(parse_moves(text)) == text
    assert format_moves([]) == ""


@pytest.mark.parametrize(
    "junk",
    [
        "", " ", "X", "F@", "F@xx", "C@tomb", "F@n", "C@nw", "D D", "DD", "R@tomb", "F@ tomb",
        "F @tomb", "F@@tomb", "@tomb", "F@tomb!", "7H", "f@north", "C@", "D@n",
        None, 5, 1.5, b"D", ["D"], HUGE,
    ],
    ids=repr,
)
def test_junk_is_not_a_move(junk: object) -> None:
    with pytest.raises(InvalidNotation) as caught:
        parse_move(junk)
    assert len(str(caught.value)) <= MESSAGE_LIMIT


def test_the_message_for_a_huge_move_echoes_only_a_short_prefix() -> None:
    with pytest.raises(InvalidNotation) as caught:
        parse_move(HUGE)
    message = str(caught.value)
    assert "x" * 40 not in message
    assert message.startswith("'F@xxxxxxxx")


def test_a_move_list_with_a_junk_word_is_refused() -> None:
    with pytest.raises(InvalidNotation, match="'Q' is not a move"):
        parse_moves("D D Q F")


@pytest.mark.parametrize("junk", [None, 5, ["D", "F"]], ids=repr)
def test_a_move_list_that_is_not_text_is_refused_with_invalid_notation(junk: object) -> None:
    # ENGINE BUG (robustness): parse_moves(None) raises AttributeError
    # ("'NoneType' object has no attribute 'split'") where parse_move(None)
    # raises InvalidNotation; errors.py promises a ValueError for bad input.
    with pytest.raises(InvalidNotation):
        parse_moves(junk)  # type: ignore[arg-type]


# -- the other notations: cards, variants, deal numbers ------------------------------

@pytest.mark.parametrize(("text", "card"), [("AC", 0), ("KC", 12), ("AS", 13), ("7h", 32),
                                            (" td ", 48), ("KD", 51)])
def test_a_card_is_rank_then_suit(text: str, card: int) -> None:
    assert parse_card(text) == card


@pytest.mark.parametrize("junk", ["", "1C", "10H", "7", "C7", "7HH", "XX", None, 7])
def test_junk_is_not_a_card(junk: object) -> None:
    with pytest.raises(InvalidNotation, match="is not a card"):
        parse_card(junk)  # type: ignore[arg-type]


def test_variants_are_known_by_their_slugs() -> None:
    assert get_variant("three-card").turn == 3
    assert get_variant("three-card").passes == 3
    assert get_variant("classic").turn == 1
    assert get_variant("classic").passes == 1
    for junk in ("", "Classic", "four-card", None, 3):
        with pytest.raises(InvalidNotation, match="is not a variant"):
            get_variant(junk)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "parse", [parse_card, get_variant, parse_deal_number], ids=lambda parse: parse.__name__
)
def test_no_message_echoes_a_huge_input(parse: object) -> None:
    # ENGINE BUG (robustness): parse_move shortens what it echoes to 16
    # characters, but parse_card, get_variant and parse_deal_number put the
    # whole input in the message (a 10 KB request gives a 10 KB error).
    with pytest.raises(ValueError) as caught:
        parse("9" * 10_000 + "x")  # type: ignore[operator]
    assert len(str(caught.value)) <= MESSAGE_LIMIT
