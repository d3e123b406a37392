"""Deal lists on the command line: ``1-2400``, ``7,19,23`` or a mix."""

from __future__ import annotations

import argparse

from game.engine import parse_deal_number

MAX_LISTED = 1_000_000


def parse_deal_list(text: str) -> list[int]:
    """Deal numbers in the order given; raises ValueError on bad input."""
    deals: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        first, dash, last = part.partition("-")
        low = parse_deal_number(first)
        high = parse_deal_number(last) if dash else low
        if high < low:
            raise ValueError(f"{part!r} is an empty range")
        deals.extend(range(low, high + 1))
        if len(deals) > MAX_LISTED:
            raise ValueError("too many deals")
    if not deals:
        raise ValueError(f"{text!r} names no deal")
    return deals


def deal_list_argument(text: str) -> list[int]:
    """``argparse`` type: the same, reported as a usage error."""
    try:
        return parse_deal_list(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from error
