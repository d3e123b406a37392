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

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal, Protocol, TypedDict


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


class PileView(TypedDict):
    """One pile as a client sees it: face-down cards as a count, face-up cards bottom first."""

    down: int
    up: list[str]


# A legal move's place on the table: the pile it lifts from, where it lands, how many
# cards move as one (a run of ``count`` cards from the top of ``from``).
MovePath = TypedDict("MovePath", {"from": str, "to": str, "count": int})


class View(TypedDict):
    """The keys every game's visible view carries (docs/view-contract.md).

    A game adds its own keys in a TypedDict that extends this one."""

    game: str
    variant: str
    piles: dict[str, PileView]
    stock_count: int
    home: int
    moves: int
    log: list[str]
    legal: list[str]
    paths: dict[str, MovePath]
    pickable: dict[str, list[int]]
    can_undo: bool
    status: Literal["playing", "won", "lost"]


@dataclass(frozen=True, slots=True)
class Phrases:
    """How a sentence names a pile beyond its label: "from the north cell", "to the
    north cell", "in the north cell" (where a card is parked), "the north cell".

    Russian and Finnish inflect a place where English adds a preposition, so each form
    is a text of its own for the translators (``patience.words.gettext_noop``)."""

    from_: str
    to: str
    in_: str = ""  # "" where nothing is parked: the "to" form is said instead
    the: str = ""  # "" where the label takes no article ("pile 5"): the label is said


@dataclass(frozen=True, slots=True)
class Pile:
    """One place on a game's table, described as data for the one board script.

    ``row`` and ``col`` are places on an abstract grid of the game's ``Table``
    (the front end turns them into pixels); ``fan`` says how its cards are
    shown: ``"top"`` only the top card, ``"right"`` or ``"down"`` spread.
    Every text is an English msgid of the site's catalogs, marked in the game's
    package with ``gettext_noop``; ``number`` fills a ``%(number)s`` in any of them
    ("pile %(number)s"), after translation.
    """

    name: str  # the notation's name: "nw", "tomb", "n", "waste", "stock", "p1", "k1"
    role: str  # "stock", "waste", "foundation", "cell" or "pile"
    label: str  # what a person calls it: "north-west corner"
    row: int
    col: int
    accepts: str  # what it takes, in words for the board's labels and the rules
    fan: str = "top"
    base: str = ""  # what an empty foundation starts with, shown on it ("7", "6", "K")
    show: int = 0  # how many top cards a spread fan shows (0: all; turn-3's waste: 3)
    phrases: Phrases | None = None  # None: the generic "from the %(place)s" forms
    number: int = 0

    def words(self, translate: Callable[[str], str]) -> dict[str, str]:
        """The pile's texts, each translated, then numbered."""
        texts = {"label": self.label, "accepts": self.accepts}
        if self.phrases is not None:
            texts |= {"from": self.phrases.from_, "to": self.phrases.to,
                      "in": self.phrases.in_, "the": self.phrases.the}
        values = {"number": self.number}
        return {key: translate(text) % values if text else "" for key, text in texts.items()}


def _same(text: str) -> str:
    return text


@dataclass(frozen=True, slots=True)
class Table:
    rows: int
    cols: int
    piles: tuple[Pile, ...]
    card_count: int  # cards that go home in a won game
    extras: Mapping[str, Any] = field(default_factory=dict)

    def as_data(self, translate: Callable[[str], str] = _same) -> dict[str, Any]:
        """The JSON the board script draws from, its words through ``translate``
        (the site passes Django's gettext; the rules stay free of Django)."""
        return {
            "rows": self.rows,
            "cols": self.cols,
            "card_count": self.card_count,
            "piles": [
                {
                    "name": pile.name, "role": pile.role, "row": pile.row, "col": pile.col,
                    "fan": pile.fan, "base": pile.base, "show": pile.show,
                    **pile.words(translate),
                }
                for pile in self.piles
            ],
            **dict(self.extras),
        }


@dataclass(frozen=True, slots=True)
class Published:
    """A win rate measured outside the project, quoted on the rules page beside the
    site's own (the texts are msgids). ``low`` and ``high`` are percentages: a 95%
    interval, or the bounds the source gives. ``sees_all``: the source's player saw
    every card, as the site's solver does (the page then says whether the site's
    interval meets it); otherwise it played blind, as the site's blind players do."""

    variant: str
    source: str
    what: str
    low: float
    high: float
    sees_all: bool = True


@dataclass(frozen=True, slots=True)
class Guide:
    """A game's rules page in words, every text a msgid (``patience.words``): what the
    game asks, the steps of play, where this site chooses among the rules' versions
    (what, and how it plays it), and questions with their answers. The site draws the
    page round it: a labelled picture of the table, the variants, the measured win rates."""

    aim: str
    steps: tuple[str, ...]
    choices: tuple[tuple[str, str], ...] = ()
    faq: tuple[tuple[str, str], ...] = ()
    published: tuple[Published, ...] = ()  # figures from outside, beside the site's


class Rules(Protocol):
    """What a game offers the service. Implemented once per game package."""

    @property
    def slug(self) -> str: ...  # "napoleons-tomb", "st-helena": in URLs and the API

    @property
    def name(self) -> str: ...  # "Napoleon's Tomb" (a msgid: the site translates it)

    @property
    def welcome(self) -> str:
        """The first visit's one line: what the game asks (a msgid; "" for the site's
        generic line)."""
        ...

    @property
    def guide(self) -> Guide | None:
        """The rules page's text (None: the site's own page for the game, or one made
        from the table alone)."""
        ...

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

    def visible_view(self, position: Any) -> View: ...

    def to_record(self, position: Any) -> dict[str, Any]: ...

    def from_record(self, record: dict[str, Any]) -> Any: ...

    def reveals(self, position: Any, move: Any) -> bool:
        """Whether ``move``, played from ``position``, shows a card not seen before.

        A ranked attempt never undoes such a move (DESIGN.md, "Daily challenge")."""
        ...

    def search_key(self, position: Any) -> Hashable: ...

    def finishing_line(self, position: Any) -> list[Any] | None: ...

    def table(self, variant: Any) -> Table: ...

    def score(self, position: Any) -> int | None:
        """The game's points so far (Klondike's Windows score), or None for a game that
        keeps none: the site keeps a best score only for games that score."""
        ...

    def achievements(self, position: Any) -> list[str]:
        """Names of what a won game earned beyond the win (the cross's grand tomb)."""
        ...
