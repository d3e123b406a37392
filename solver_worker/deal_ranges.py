"""Deal lists on the command line: ``1-2400``, ``7,19,23`` or a mix."""

from __future__ import annotations

import argparse
import random

from patience.numbers import parse_deal_number

HIGHEST_DEAL = 999_999


def parse_deal_list(text: str) -> list[int]:
    """``"1-3,7, 9-10"`` -> [1, 2, 3, 7, 9, 10]: ranges and lists, in the order
    given, each deal once; ValueError on anything else."""
    parts = [part.strip() for part in str(text).split(",")]
    if not any(parts):
        raise ValueError("no deals given (use e.g. 1-2400 or 7,19,23)")
    deals: dict[int, None] = {}  # insertion-ordered, without repeats
    for part in parts:
        if not part:
            raise ValueError("an empty item in the deal list")
        first, dash, last = part.partition("-")
        low = parse_deal_number(first)
        high = parse_deal_number(last) if dash else low
        if high < low:
            raise ValueError(f"the range {part!r} runs backwards")
        deals.update(dict.fromkeys(range(low, high + 1)))
    return list(deals)


def deal_list_argument(text: str) -> list[int]:
    """``argparse`` type: the same, reported as a usage error."""
    try:
        return parse_deal_list(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from error


def sample_deals(count: int, seed: int) -> list[int]:
    """``count`` distinct deal numbers from 1..999,999, drawn by ``seed``, in order."""
    return sorted(random.Random(seed).sample(range(1, HIGHEST_DEAL + 1), count))
