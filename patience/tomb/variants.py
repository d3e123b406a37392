"""The variants: small declared objects, not forks of the engine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..errors import InvalidNotation, echo
from ..words import gettext_noop as _


@dataclass(frozen=True, slots=True)
class Variant:
    slug: str
    name: str
    turn: int  # cards turned from the stock at a time; only the last is in play
    passes: int  # passes through the stock in all; redeals allowed = passes - 1
    # The traditional cross: the four places beside the tomb are dealt from the
    # stock and refilled from it, never parked on, and nothing moves by itself.
    cross: bool = False

    @property
    def redeals(self) -> int:
        return self.passes - 1


THREE_CARD: Final = Variant(slug="three-card", name=_("3-card deal"), turn=3, passes=3)
CLASSIC: Final = Variant(slug="classic", name=_("classic 1-card deal"), turn=1, passes=1)
CROSS: Final = Variant(slug="cross", name=_("traditional cross"), turn=1, passes=3, cross=True)
DEFAULT_VARIANT: Final = THREE_CARD
VARIANTS: Final = {variant.slug: variant for variant in (THREE_CARD, CLASSIC, CROSS)}


def get_variant(slug: str) -> Variant:
    variant = VARIANTS.get(slug) if isinstance(slug, str) else None
    if variant is None:
        known = ", ".join(VARIANTS)
        raise InvalidNotation(f"{echo(slug)} is not a variant (known: {known})")
    return variant
