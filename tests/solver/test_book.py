"""The book (solver_worker.book): the committed per-deal results and the hints read from them.

Every "won" in the book must be a line the engine replays to a win from that deal
number, and a hint must take the book's word only where the book has proved it.
"""

from __future__ import annotations

import random

import pytest

from patience import Status, rules_of
from patience.tomb import from_record, to_record
from solver_worker import book, hints
from solver_worker.driver import Budget
from solver_worker.games import solve_position
from solver_worker.games.klondike import search as klondike_search

VARIANTS = ("three-card", "classic", "cross", "st-helena")
BOOKED = [variant for variant in VARIANTS if book.solved_files(variant)]


def test_the_book_covers_the_tombs_variants_on_deals_1_to_2400() -> None:
    for variant in ("three-card", "classic", "cross"):
        assert set(range(1, 2401)) <= set(book.book_of(variant)) | undecided(variant), variant


def undecided(variant: str) -> set[int]:
    return {int(record["deal"]) for path in book.solved_files(variant)
            for record in book.records(path) if record["result"] == "unknown"}


@pytest.mark.parametrize("variant", BOOKED)
def test_every_won_line_in_the_book_replays_to_a_win(variant: str) -> None:
    rules = rules_of(variant)
    for number, entry in book.book_of(variant).items():
        if entry.result != "won":
            assert entry.line == (), (variant, number)
            continue
        position = rules.new_game(number, variant)
        for step in entry.line:
            position.apply(rules.parse_move(step))
        assert position.status is Status.WON, (variant, number)


def test_a_deal_the_book_calls_lost_is_lost_to_a_fresh_search() -> None:
    lost = [number for number, entry in book.book_of("classic").items() if entry.result == "lost"]
    if not lost:
        pytest.skip("the classic book has no lost deal")
    quickest = min(lost, key=lambda number: nodes_of("classic", number))
    position = rules_of("classic").new_game(quickest, "classic")
    assert solve_position(position, Budget(seconds=60)).verdict == "lost"


def nodes_of(variant: str, number: int) -> int:
    for path in book.solved_files(variant):
        for record in book.records(path):
            if record["deal"] == number:
                return int(record["nodes"])
    raise AssertionError(number)


def test_a_hint_follows_the_book_line_from_the_deal_to_the_win() -> None:
    rules, number = rules_of("three-card"), 7
    line = book.book_of("three-card")[number].line
    position = rules.new_game(number, "three-card")
    for played, step in enumerate(line):
        answer = hints.hint(position)
        assert answer == {"move": step, "verdict": "winnable", "line_length": len(line) - played}
        position.apply(rules.parse_move(step))
    assert position.status is Status.WON


def test_a_stored_game_comes_back_from_its_record_still_in_the_book() -> None:
    rules, number = rules_of("cross"), first_won("cross")
    position = rules.new_game(number, "cross")
    for step in book.book_of("cross")[number].line[:5]:
        position.apply(rules.parse_move(step))
    assert book.look_up(from_record(to_record(position))) is not None


def first_won(variant: str) -> int:
    return next(n for n, entry in sorted(book.book_of(variant).items()) if entry.result == "won")


def test_leaving_the_line_leaves_the_book() -> None:
    rules, number = rules_of("three-card"), 7
    line = book.book_of("three-card")[number].line
    position = rules.new_game(number, "three-card")
    position.apply(rules.parse_move(line[0]))
    other = next(move for move in position.legal_moves() if str(move.notation) != line[1])
    position.apply(other)
    assert book.look_up(position) is None
    position.undo()
    assert book.look_up(position) == {"move": line[1], "verdict": "winnable",
                                      "line_length": len(line) - 1}


def test_a_seeded_deal_is_never_read_from_the_book() -> None:
    rules = rules_of("three-card")
    assert book.look_up(rules.new_game(rules.deal_from_seed(7), "three-card")) is None


def test_a_deal_outside_the_book_is_searched() -> None:
    assert book.look_up(rules_of("three-card").new_game(999_999, "three-card")) is None


def test_a_lost_deal_answers_lost_at_every_position_with_a_legal_move() -> None:
    lost = [number for number, entry in book.book_of("classic").items() if entry.result == "lost"]
    if not lost:
        pytest.skip("the classic book has no lost deal")
    rules = rules_of("classic")
    position = rules.new_game(lost[0], "classic")
    for _ in range(10):
        legal = position.legal_moves()
        if not legal or position.status is not Status.PLAYING:
            break
        answer = hints.hint(position)
        assert answer["verdict"] == "lost"
        assert answer["move"] in {str(move.notation) for move in legal}
        position.apply(legal[0])


# -- Klondike's book: deals 1-10,000 of both variants, decided by the compiled core --

KLONDIKE = ("turn-1", "turn-3")
KLONDIKE_REPLAYS = 1000
REFERENCE_PROOFS = 25


@pytest.mark.parametrize("variant", KLONDIKE)
def test_a_sample_of_klondike_s_book_lines_replays_to_wins(variant: str) -> None:
    rules = rules_of(variant)
    won = sorted(number for number, entry in book.book_of(variant).items()
                 if entry.result == "won")
    assert len(won) > 7000, variant  # the book holds deals 1-10,000
    for number in random.Random(24).sample(won, KLONDIKE_REPLAYS):
        position = rules.new_game(number, variant)
        for step in book.book_of(variant)[number].line:
            position.apply(rules.parse_move(step))
        assert position.status is Status.WON, (variant, number)


@pytest.mark.parametrize("variant", KLONDIKE)
def test_klondike_s_quickest_book_losses_are_lost_to_the_python_reference(variant: str) -> None:
    """A second method: the reference search in Python (search.py, without the core's
    own rule 10) proves the book's quickest losses too."""
    lost = [number for number, entry in book.book_of(variant).items() if entry.result == "lost"]
    assert len(lost) > 100, variant
    for number in sorted(lost, key=lambda number: nodes_of(variant, number))[:REFERENCE_PROOFS]:
        position = rules_of(variant).new_game(number, variant)
        status, _, _ = klondike_search.search_position(position, Budget(nodes=200_000), True,
                                                       compiled=False)
        assert status == "exhausted", (variant, number)


def test_the_rules_pages_tally_of_numbered_deals_is_the_book_s() -> None:
    """The table the rules pages show (win_rates.json, built from docs/runs/) counts a
    numbered range exactly as the book does: a re-run of the book's undecided deals
    kept beside the runs would otherwise take the range's place on the page."""
    from solver_worker import winrates

    for row in winrates.read(winrates.WIN_RATES_FILE):
        tally = row.range
        if tally is None or not book.solved_files(row.variant):
            continue
        records = [record for path in book.solved_files(row.variant)
                   for record in book.records(path)]
        results = [record["result"] for record in records]
        assert (tally.count, tally.won, tally.lost, tally.unknown) == (
            len(records), results.count("won"), results.count("lost"),
            results.count("unknown")), row.variant
