"""Public deal numbers, shared by every game: 1 to 999,999, read with a readable error."""

from __future__ import annotations

from typing import Final

from .errors import InvalidDeal, echo

MIN_DEAL: Final = 1
MAX_DEAL: Final = 999_999


def parse_deal_number(value: object) -> int:
    """A deal number from user input, with a readable error."""
    if isinstance(value, str):
        text = value.strip()
        # ASCII digits only: str.isdigit() also accepts superscripts and other scripts.
        if not (text.isascii() and text.isdigit()) or len(text) > 7:
            raise InvalidDeal(f"{echo(value)} is not a deal number (use 1 to {MAX_DEAL:,})")
        value = int(text)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidDeal(f"{echo(value)} is not a deal number")
    if not MIN_DEAL <= value <= MAX_DEAL:
        raise InvalidDeal(f"deal {value} is out of range (use 1 to {MAX_DEAL:,})")
    return value
