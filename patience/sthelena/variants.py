"""St. Helena's one variant: a small declared object, as every game's variants are."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..errors import InvalidNotation, echo
from ..words import gettext_noop as _


@dataclass(frozen=True, slots=True)
class Variant:
    slug: str
    name: str
    redeals: int  # R may be played this many times in a game


ST_HELENA: Final = Variant(slug="st-helena", name=_("St. Helena"), redeals=2)
DEFAULT_VARIANT: Final = ST_HELENA
VARIANTS: Final = {ST_HELENA.slug: ST_HELENA}


def get_variant(slug: object) -> Variant:
    variant = VARIANTS.get(slug) if isinstance(slug, str) else None
    if variant is None:
        raise InvalidNotation(f"{echo(slug)} is not a variant (known: {', '.join(VARIANTS)})")
    return variant
