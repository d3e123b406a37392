"""The two-deck Tomb's one variant: a small declared object, as every game's variants are."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..errors import InvalidNotation, echo
from ..words import gettext_noop as _


@dataclass(frozen=True, slots=True)
class Variant:
    slug: str
    name: str
    rounds: int  # rounds through the stock: 5, 4, 3, 2 then 1 waste piles

    def waste_piles(self, round_number: int) -> int:
        """How many waste piles a deal of round ``round_number`` (1..rounds) fills."""
        return self.rounds + 1 - round_number


TWO_DECK_TOMB: Final = Variant(slug="two-deck-tomb", name=_("Napoleon's Tomb, two decks"),
                               rounds=5)
DEFAULT_VARIANT: Final = TWO_DECK_TOMB
VARIANTS: Final = {TWO_DECK_TOMB.slug: TWO_DECK_TOMB}


def get_variant(slug: object) -> Variant:
    variant = VARIANTS.get(slug) if isinstance(slug, str) else None
    if variant is None:
        raise InvalidNotation(f"{echo(slug)} is not a variant (known: {', '.join(VARIANTS)})")
    return variant
