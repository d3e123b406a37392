"""St. Helena's deals: golden stock orders, an independent re-derivation, bad input."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from patience.errors import InvalidDeal, InvalidNotation
from patience.sthelena import (
    MAX_DEAL,
    MIN_DEAL,
    STOCK_SIZE,
    Deal,
    deal_from_number,
    deal_from_seed,
    deal_from_texts,
    parse_deal_number,
)

GOLDEN = json.loads(
    (Path(__file__).parent / "fixtures" / "sthelena_golden_deals.json").read_text()
)["deals"]
RANKS, SUITS = "A23456789TJQK", "CSHD"


def rederive(number: int) -> list[str]:
    """The documented recipe, written again without the engine: random.Random(N)
    shuffles deck one less Kings and Aces, then deck two; top of the stock first."""
    generator = random.Random(number)
    first = [rank + suit for suit in SUITS for rank in RANKS if rank not in "AK"]
    second = [rank + suit for suit in SUITS for rank in RANKS]
    generator.shuffle(first)
    generator.shuffle(second)
    return first + second


@pytest.mark.parametrize("number", [1, 2, 1000, 999_999])
def test_golden_deals(number: int) -> None:
    texts = deal_from_number(number).texts
    assert " ".join(texts) == GOLDEN[str(number)]
    assert texts == rederive(number)


@pytest.mark.parametrize("number", [1, 31_999, 32_000, 500_000, MAX_DEAL])
def test_a_deal_is_two_decks_less_the_foundation_bases(number: int) -> None:
    deal = deal_from_number(number)
    counts = Counter(deal.texts)
    assert len(deal.cards) == STOCK_SIZE == 96
    for suit in SUITS:
        assert counts["A" + suit] == counts["K" + suit] == 1
        assert all(counts[rank + suit] == 2 for rank in RANKS[1:-1])
    assert deal_from_texts(deal.texts, number) == deal


def test_seeded_deals_are_private_and_repeatable() -> None:
    assert deal_from_seed(12345) == deal_from_seed(12345)
    assert deal_from_seed(12345).seeded and deal_from_seed(12345).number is None
    publics = {deal_from_number(n).cards for n in range(1, 200)}
    assert all(deal_from_seed(seed).cards not in publics for seed in range(200))
    for bad in (-1, 2**64, True, "7", 1.5):
        with pytest.raises(InvalidDeal):
            deal_from_seed(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [0, MAX_DEAL + 1, -3, "abc", "1e3", "", None, True, 2.0,
                                   "\uff11\uff12"])
def test_bad_deal_numbers_are_refused(value: object) -> None:
    with pytest.raises(InvalidDeal):
        deal_from_number(value)


def test_deal_numbers_from_text() -> None:
    assert parse_deal_number(" 42 ") == 42
    assert (parse_deal_number(MIN_DEAL), parse_deal_number(str(MAX_DEAL))) == (1, MAX_DEAL)


def test_a_deal_must_hold_each_card_of_each_deck_once() -> None:
    texts = deal_from_number(5).texts
    with pytest.raises(InvalidDeal):
        deal_from_texts(texts[:-1])
    with pytest.raises(InvalidDeal):  # the twins swapped across the decks
        first_ace = texts.index("AS")  # only the second deck has aces
        deal_from_texts([texts[first_ace], *texts[1:first_ace], texts[0],
                         *texts[first_ace + 1:]])
    with pytest.raises(InvalidNotation):
        deal_from_texts(["ZZ", *texts[1:]])
    with pytest.raises(InvalidDeal):
        Deal(cards=tuple(range(96)))
