"""Klondike deals: golden layouts, a live second reading of pysol_cards, bad input.

RULES-KLONDIKE.md, "Deal numbers": deal N is PySolFC's Klondike game N. The
fixture ``klondike_golden_deals.json`` holds the text ``pysol_cards`` prints
for those deals (``Game("klondike", N, DEALS_PYSOLFC).print_layout``: the
talon top first, then columns 1 to 7 bottom first, face-down cards in
``<>``), with deal 32000 from the Mersenne Twister as PySolFC deals it. These
tests read that text back, so a wrong dealing order (rows from the left, the
talon reversed, the first card on the waste) fails here, not only in play.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
from pathlib import Path

import pytest
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.random_base import RandomBase

from patience.cards import ALL_CARDS, card_text
from patience.errors import EngineError, InvalidDeal
from patience.klondike import (
    MAX_DEAL,
    MIN_DEAL,
    STOCK_SIZE,
    TABLEAU_SIZE,
    TURN_1,
    TURN_3,
    Deal,
    Position,
    deal_from_number,
    deal_from_seed,
    deal_from_texts,
)

FIXTURE = Path(__file__).parent / "fixtures" / "klondike_golden_deals.json"
GOLDEN: dict[int, list[str]] = {
    int(number): lines for number, lines in json.loads(FIXTURE.read_text())["deals"].items()
}

Layout = tuple[list[str], list[tuple[int, list[str]]]]  # stock top first; (down, cards) per column


def read_layout(lines: list[str]) -> Layout:
    """pysol_cards' printed Klondike layout: ``Talon: ...`` then one line per column."""
    talon, *rows = lines
    assert talon.startswith("Talon: ")
    stock = talon.removeprefix("Talon: ").split()
    columns = []
    for row in rows:
        words = row.split()
        down = sum(word.startswith("<") for word in words)
        assert all(word.startswith("<") for word in words[:down]), row  # face-down at the bottom
        columns.append((down, [word.strip("<>") for word in words]))
    return stock, columns


def engine_layout(deal: Deal) -> Layout:
    position = Position(deal)
    stock = [card_text(card) for card in reversed(position.stock)]
    columns = [(position.down[i], [card_text(card) for card in column])
               for i, column in enumerate(position.columns)]
    return stock, columns


def pysol_cards_lines(number: int) -> list[str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        Game("klondike", number, RandomBase.DEALS_PYSOLFC).print_layout(CardRenderer(True))
    return out.getvalue().splitlines()


def test_the_fixture_pins_the_boundaries() -> None:
    assert {1, 2, 31999, 32000, 999999} <= set(GOLDEN)
    for lines in GOLDEN.values():
        stock, columns = read_layout(lines)
        assert sorted(stock + [c for _, cards in columns for c in cards]) == sorted(
            card_text(card) for card in ALL_CARDS)


@pytest.mark.parametrize("number", sorted(GOLDEN))
def test_golden_deal(number: int) -> None:
    assert engine_layout(deal_from_number(number)) == read_layout(GOLDEN[number])


def test_deal_1_starts_as_pysolfc_shows_it() -> None:
    # The first cards dealt go to column 7, 6, 5 ... face down; the talon's top is 4H,
    # which PySolFC would turn onto the waste and this site leaves on the stock.
    position = Position(deal_from_number(1))
    assert [card_text(c) for c in position.columns[6]] == ["JD", "7C", "5S", "3H", "9D", "JS", "AS"]
    assert card_text(position.stock[-1]) == "4H"
    assert position.waste == []


@pytest.mark.parametrize("number", [1, 2, 31999, 32000, 999999])
def test_deal_count_facts(number: int) -> None:
    position = Position(deal_from_number(number))
    assert [len(column) for column in position.columns] == [1, 2, 3, 4, 5, 6, 7]
    assert position.down == [0, 1, 2, 3, 4, 5, 6]
    assert sum(map(len, position.columns)) == TABLEAU_SIZE == 28
    assert len(position.stock) == STOCK_SIZE == 24
    assert position.waste == [] and position.foundations == [0, 0, 0, 0]
    every = [card for column in position.columns for card in column] + position.stock
    assert sorted(every) == list(ALL_CARDS)


SAMPLED = sorted({3, 31998, 32001, 32002, 999998}
                 | set(random.Random(20_260_601).sample(range(MIN_DEAL, MAX_DEAL + 1), 40)))


@pytest.mark.parametrize("number", SAMPLED)
def test_deals_match_pysol_cards_live(number: int) -> None:
    assert engine_layout(deal_from_number(number)) == read_layout(pysol_cards_lines(number))


def test_32000_follows_pysolfc_not_pysol_cards_shuffle() -> None:
    # pysol_cards' own shuffle() still uses LCRandom31 at exactly 32000; PySolFC does not.
    ours = engine_layout(deal_from_number(32000))
    assert ours == read_layout(GOLDEN[32000])
    assert ours != read_layout(pysol_cards_lines(32000))
    assert engine_layout(deal_from_number(31999)) == read_layout(pysol_cards_lines(31999))


def test_both_variants_deal_the_same_cards() -> None:
    deal = deal_from_number(617)
    assert Position(deal, TURN_1).columns == Position(deal, TURN_3).columns
    assert Position(deal, TURN_1).stock == Position(deal, TURN_3).stock


@pytest.mark.parametrize("value", [0, MAX_DEAL + 1, -5, "abc", "", True, 2.5, None, "1e3"])
def test_bad_deal_numbers(value: object) -> None:
    with pytest.raises(InvalidDeal):
        deal_from_number(value)


def test_deal_numbers_as_text() -> None:
    assert deal_from_number(" 617 ") == deal_from_number(617)


def test_seeded_deals_are_private_and_stable() -> None:
    deal = deal_from_seed(12345)
    assert deal.seeded and deal.number is None
    assert deal == deal_from_seed(12345)
    assert deal.cards != deal_from_seed(12346).cards
    assert sorted(deal.cards) == list(ALL_CARDS)
    assert all(deal.cards != deal_from_number(n).cards for n in (1, 12345, 32000))


@pytest.mark.parametrize("seed", [-1, 2**64, True, "5", 1.0])
def test_bad_seeds(seed: object) -> None:
    with pytest.raises(InvalidDeal):
        deal_from_seed(seed)  # type: ignore[arg-type]


def test_deal_texts_round_trip() -> None:
    deal = deal_from_number(999999)
    again = deal_from_texts(deal.texts, 999999, False)
    assert again == deal
    assert len(deal.texts) == 52


@pytest.mark.parametrize("texts", [
    ["AS"] * 52, [card_text(c) for c in ALL_CARDS][:51], [*(card_text(c) for c in ALL_CARDS), "AS"],
    ["ZZ", *(card_text(c) for c in ALL_CARDS)][:52], "AS 2S",
])
def test_bad_deal_texts(texts: list[str]) -> None:
    with pytest.raises(EngineError):
        deal_from_texts(texts)
