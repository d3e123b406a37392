"""Deals: golden stock orders, an independent re-derivation, and bad input.

RULES.md, "Deal numbers": deal N is PySolFC's Napoleon's Tomb game N, whose
generator is LCRandom31 with the Microsoft rearrangement below 32000 and the
Mersenne Twister from 32000 on; the top of our stock is the first card
PySolFC turns, i.e. the last card of its shuffled list.
"""

from __future__ import annotations

import random

import pytest
from engine_builders import FILLER, RANKS, SUITS, golden_deals

from patience.tomb import (
    MAX_DEAL,
    MIN_DEAL,
    InvalidDeal,
    InvalidNotation,
    deal_from_cards,
    deal_from_number,
    deal_from_seed,
    parse_deal_number,
)

GOLDEN = golden_deals()


# -- an independent re-derivation (no pysol_cards, no patience.tomb.deals) -----

def creation_order() -> list[str]:
    """PySolFC's createCards: suit by suit C, S, H, D; ace to king in each."""
    return [rank + suit for suit in SUITS for rank in RANKS]


def microsoft_shuffle(number: int) -> list[str]:
    """The Microsoft FreeCell shuffle, as PySolFC runs it for numbers < 32000."""
    cards = creation_order()
    # Rearranged rank by rank; the offsets 0, 39, 26, 13 pick C, D, H, S.
    seq = [cards[rank + offset] for rank in range(13) for offset in (0, 39, 26, 13)]
    seed = number
    for n in range(len(seq) - 1, 0, -1):
        seed = (seed * 214013 + 2531011) % (1 << 31)
        j = ((seed >> 16) & 0x7FFF) % (n + 1)
        seq[n], seq[j] = seq[j], seq[n]
    return seq


def mersenne_shuffle(number: int) -> list[str]:
    """PySolFC's MTRandom shuffle: Python's Mersenne Twister seeded with N."""
    seq = creation_order()
    generator = random.Random(number)
    for n in range(len(seq) - 1, 0, -1):
        j = int(generator.random() * (n + 1))
        seq[n], seq[j] = seq[j], seq[n]
    return seq


def independent_stock(number: int) -> list[str]:
    shuffled = microsoft_shuffle(number) if number < 32000 else mersenne_shuffle(number)
    return shuffled[::-1]  # the last card of the shuffled list is the top of the stock


SAMPLED = sorted(
    {1, 2, 3, 617, 11982, 31998, 31999, 32000, 32001, 999998, 999999}
    | set(random.Random(20_240_601).sample(range(MIN_DEAL, MAX_DEAL + 1), 190))
)


# -- golden deals --------------------------------------------------------------

def test_the_fixture_pins_five_complete_decks() -> None:
    assert sorted(GOLDEN) == [1, 2, 31999, 32000, 999999]
    for texts in GOLDEN.values():
        assert sorted(texts) == sorted(FILLER)  # each one a full deck


@pytest.mark.parametrize("number", sorted(GOLDEN))
def test_golden_deal_matches_the_fixture(number: int) -> None:
    deal = deal_from_number(number)
    assert deal.texts == GOLDEN[number]
    assert deal.number == number
    assert not deal.seeded


@pytest.mark.parametrize("number", sorted(GOLDEN))
def test_independent_derivation_matches_the_fixture(number: int) -> None:
    # Guards the fixture itself: it is what the published algorithm gives.
    assert independent_stock(number) == GOLDEN[number]


@pytest.mark.parametrize("number", SAMPLED)
def test_independent_derivation_matches_the_engine(number: int) -> None:
    assert deal_from_number(number).texts == independent_stock(number)


def test_deal_1_starts_like_microsoft_freecell_deal_1() -> None:
    # FreeCell #1 is dealt row by row from the same shuffle; its first two
    # rows are the first 16 cards PySolFC turns in Napoleon's Tomb game 1.
    texts = deal_from_number(1).texts
    assert " ".join(texts[:8]) == "JD 2D 9H JC 5D 7H 7C 5H"
    assert " ".join(texts[8:16]) == "KD KC 9S 5S AD QC KH 3H"


def test_the_generator_switches_between_31999_and_32000() -> None:
    # 31999 is the last Microsoft deal, 32000 the first Mersenne Twister one.
    assert deal_from_number(31999).texts == microsoft_shuffle(31999)[::-1]
    assert deal_from_number(32000).texts == mersenne_shuffle(32000)[::-1]
    assert deal_from_number(32000).texts != microsoft_shuffle(32000)[::-1]


def test_a_deal_number_always_gives_the_same_order() -> None:
    for number in (1, 31999, 32000, 999999):
        assert deal_from_number(number) == deal_from_number(number)


# -- deal numbers from user input ---------------------------------------------------

@pytest.mark.parametrize(
    "value",
    [0, 1_000_000, -1, "abc", "", 3.5, None, True, False, "12a", "0", "1000000", " ",
     "-5", "+5", "1e3", "1_000", "00000042", 10**20, [1], 42.0],
)
def test_a_bad_deal_number_raises_invalid_deal_with_a_readable_message(value: object) -> None:
    with pytest.raises(InvalidDeal) as caught:
        deal_from_number(value)
    message = str(caught.value)
    assert "deal" in message
    assert len(message) < 100
    assert "Traceback" not in message


@pytest.mark.parametrize("value", ["\u00b2", "1\u00b2", "\u2075"])
def test_a_superscript_digit_is_not_a_deal_number(value: str) -> None:
    # ENGINE BUG: str.isdigit() accepts superscripts, then int() fails with
    # a bare ValueError ("invalid literal for int()...") instead of
    # InvalidDeal; the CLI then crashes with a traceback (see test_cli).
    with pytest.raises(InvalidDeal):
        deal_from_number(value)


def test_a_deal_number_string_may_have_surrounding_spaces() -> None:
    assert parse_deal_number("  42 ") == 42
    assert deal_from_number("  42 ") == deal_from_number(42)
    assert deal_from_number("  42 ").number == 42


@pytest.mark.parametrize(("value", "number"), [(1, 1), ("1", 1), (999_999, 999_999),
                                               ("999999", 999_999), ("0000042", 42)])
def test_the_range_ends_are_deal_numbers(value: object, number: int) -> None:
    assert parse_deal_number(value) == number


# -- seeded (daily) deals -----------------------------------------------------------

def test_a_seeded_deal_is_deterministic_and_marked_seeded() -> None:
    seed = 0x1234_5678_9ABC_DEF0
    first, again = deal_from_seed(seed), deal_from_seed(seed)
    assert first == again
    assert first.seeded
    assert first.number is None


@pytest.mark.parametrize("seed", [0, 1, 2**32, 2**63, 2**64 - 1])
def test_a_seeded_deck_is_a_permutation_of_the_52_cards(seed: int) -> None:
    assert sorted(deal_from_seed(seed).cards) == list(range(52))


@pytest.mark.parametrize("seed", [-1, 2**64, 2**80, True, 1.0, "5", None])
def test_a_seed_must_be_a_64_bit_integer(seed: object) -> None:
    with pytest.raises(InvalidDeal, match="64 bits"):
        deal_from_seed(seed)  # type: ignore[arg-type]


def test_different_seeds_give_different_decks() -> None:
    seeds = [*range(40), 2**64 - 1, 2**63, 987_654_321_987]
    assert len({deal_from_seed(seed).cards for seed in seeds}) == len(seeds)


def test_a_seed_does_not_reproduce_the_public_deal_of_the_same_number() -> None:
    # Daily deals must not be looked up among the public numbers.
    for number in (1, 2, 31999, 32000, 999999):
        assert deal_from_seed(number).cards != deal_from_number(number).cards


# -- explicit card orders -----------------------------------------------------------

def test_deal_from_cards_keeps_the_order_given() -> None:
    deal = deal_from_cards(GOLDEN[2])
    assert deal.texts == GOLDEN[2]
    assert deal.number is None
    assert not deal.seeded


def test_deal_from_cards_ignores_case_and_spaces_in_a_card() -> None:
    texts = [f" {text.lower()} " for text in GOLDEN[1]]
    assert deal_from_cards(texts).texts == GOLDEN[1]


@pytest.mark.parametrize(
    "texts",
    [
        pytest.param(list(FILLER[:51]), id="51 cards"),
        pytest.param([*FILLER, "AD"], id="53 cards"),
        pytest.param([*FILLER[:51], FILLER[0]], id="a duplicate"),
        pytest.param([], id="no cards"),
    ],
)
def test_deal_from_cards_needs_each_card_exactly_once(texts: list[str]) -> None:
    with pytest.raises(InvalidDeal, match="52 cards exactly once"):
        deal_from_cards(texts)


@pytest.mark.parametrize("bad", ["1H", "7X", "", "10H", "7", "HH", None, 7])
def test_deal_from_cards_rejects_text_that_is_not_a_card(bad: object) -> None:
    texts: list[object] = [*FILLER[:51], bad]
    with pytest.raises(InvalidNotation, match="is not a card"):
        deal_from_cards(texts)  # type: ignore[arg-type]
