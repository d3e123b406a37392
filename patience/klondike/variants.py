"""Klondike's two variants (RULES-KLONDIKE.md, "Variants"): small declared objects.

They differ only in how many cards a stock turn moves; what follows from that
(the -100 a redeal costs at turn-1, how many waste cards the board fans) is
read off ``draw`` rather than declared twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..errors import InvalidNotation, echo
from ..words import gettext_noop as _

REDEAL_PENALTY: Final = 100  # Windows scoring: a redeal at turn-1 costs 100; at turn-3 it is free


@dataclass(frozen=True, slots=True)
class Variant:
    slug: str
    name: str
    draw: int  # cards a stock turn (D) moves onto the waste; fewer when fewer are left

    @property
    def redeal_penalty(self) -> int:
        return REDEAL_PENALTY if self.draw == 1 else 0


TURN_1: Final = Variant("turn-1", _("turn 1"), 1)
TURN_3: Final = Variant("turn-3", _("turn 3"), 3)
DEFAULT_VARIANT: Final = TURN_1
VARIANTS: Final = {TURN_1.slug: TURN_1, TURN_3.slug: TURN_3}


def get_variant(slug: object) -> Variant:
    variant = VARIANTS.get(slug) if isinstance(slug, str) else None
    if variant is None:
        raise InvalidNotation(f"{echo(slug)} is not a variant (known: {', '.join(VARIANTS)})")
    return variant
