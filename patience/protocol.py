"""The one small protocol every patience game implements (DESIGN.md, "games as plug-ins").

A game is a pure package under ``patience/`` that offers one ``Rules`` object.
The site, the daily, the boards, the statistics, the solver's driver and the
board script speak only this protocol, so adding a game means writing its
rules, its search and its table, never a branch on its name elsewhere.

The shapes follow python-chess's variants and PySolFC's declarative games:
a variant is a small frozen object, a position is mutable and changed only by
``apply`` / ``undo`` (the solver plays and takes back millions of moves), moves
round-trip through text, and the table is data (which piles, where on an
abstract grid, what each accepts), never pixels.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol


class Status(Enum):
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


class VariantLike(Protocol):
    """A ruleset of a game. Its slug is unique across every game (the registry checks)."""

    @property
    def slug(self) -> str: ...

    @property
    def name(self) -> str: ...


class MoveLike(Protocol):
    @property
    def notation(self) -> str: ...


class DealLike(Protocol):
    """The cards of a deal, kept on the server: a public number or a private seed."""

    @property
    def number(self) -> int | None: ...

    @property
    def seeded(self) -> bool: ...

    @property
    def texts(self) -> list[str]: ...


class PositionLike(Protocol):
    """A game in progress. Mutable: ``apply`` and ``undo`` are the only changes."""

    @property
    def variant(self) -> VariantLike: ...

    @property
    def deal(self) -> DealLike: ...

    @property
    def status(self) -> Status | Any: ...

    @property
    def home(self) -> int: ...

    @property
    def moves(self) -> list[Any]: ...

    def legal_moves(self) -> list[Any]: ...

    def apply(self, move: Any) -> None: ...

    def undo(self) -> Any: ...

    def copy(self) -> Any: ...


@dataclass(frozen=True, slots=True)
class Pile:
    """One place on a game's table, described as data for the one board script.

    ``row`` and ``col`` are places on an abstract grid of the game's ``Table``
    (the front end turns them into pixels); ``fan`` says how its cards are
    shown: ``"top"`` only the top card, ``"right"`` or ``"down"`` spread.
    """

    name: str  # the notation's name: "nw", "tomb", "n", "waste", "stock", "p1", "k1"
    role: str  # "stock", "waste", "foundation", "cell" or "pile"
    label: str  # what a person calls it: "north-west corner"
    row: int
    col: int
    accepts: str  # what it takes, in words for the board's labels and the rules
    fan: str = "top"
    base: str = ""  # what an empty foundation starts with, shown on it ("7", "6", "K")


@dataclass(frozen=True, slots=True)
class Table:
    rows: int
    cols: int
    piles: tuple[Pile, ...]
    card_count: int  # cards that go home in a won game
    extras: Mapping[str, Any] = field(default_factory=dict)

    def as_data(self) -> dict[str, Any]:
        """The JSON the board script draws from."""
        return {
            "rows": self.rows,
            "cols": self.cols,
            "card_count": self.card_count,
            "piles": [
                {
                    "name": pile.name, "role": pile.role, "label": pile.label,
                    "row": pile.row, "col": pile.col, "accepts": pile.accepts,
                    "fan": pile.fan, "base": pile.base,
                }
                for pile in self.piles
            ],
            **dict(self.extras),
        }


class Rules(Protocol):
    """What a game offers the service. Implemented once per game package."""

    @property
    def slug(self) -> str: ...  # "napoleons-tomb", "st-helena": in URLs and the API

    @property
    def name(self) -> str: ...  # "Napoleon's Tomb"

    @property
    def variants(self) -> Mapping[str, VariantLike]: ...

    @property
    def default_variant(self) -> VariantLike: ...

    @property
    def card_count(self) -> int: ...

    @property
    def min_deal(self) -> int: ...

    @property
    def max_deal(self) -> int: ...

    def new_game(self, deal: int | Any, variant: str | Any) -> Any: ...

    def deal_from_number(self, number: int) -> Any: ...

    def deal_from_seed(self, seed: int) -> Any: ...

    def deal_from_texts(self, texts: Sequence[str], number: int | None, seeded: bool) -> Any:
        ...

    def parse_move(self, text: object) -> Any: ...

    def parse_moves(self, text: object) -> list[Any]: ...

    def replay(self, deal: Any, variant: Any, moves: Sequence[Any]) -> Any: ...

    def visible_view(self, position: Any) -> dict[str, Any]: ...

    def to_record(self, position: Any) -> dict[str, Any]: ...

    def from_record(self, record: dict[str, Any]) -> Any: ...

    def reveals(self, position: Any, move: Any) -> bool:
        """Whether ``move``, played from ``position``, shows a card not seen before.

        A ranked attempt never undoes such a move (DESIGN.md, "Daily challenge")."""
        ...

    def search_key(self, position: Any) -> Hashable: ...

    def finishing_line(self, position: Any) -> list[Any] | None: ...

    def table(self, variant: Any) -> Table: ...

    def achievements(self, position: Any) -> list[str]:
        """Names of what a won game earned beyond the win (the cross's grand tomb)."""
        ...
