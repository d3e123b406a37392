"""A position of Napoleon's Tomb and the moves that change it (RULES.md).

``Position`` is mutable on purpose: the server applies one move at a time and
the solver and benchmarks play out and undo millions, so copying a position
per move would cost more than the rules themselves. Every change goes through
``apply`` and ``undo``, which keep the history that makes undo exact.

The traditional cross (``variant.cross``) is the same table with other rules
for the four places beside the tomb (RULES-CROSS-AND-ST-HELENA.md, section 1):

* the deal puts the top four stock cards face up on n, w, e, s;
* a card leaves a place only by ``X`` (to a foundation), and the place is
  refilled at once from the top of the stock, else the top of the waste;
* there is no parking (``C`` is illegal) and no automatic move.

How the "stays empty" case reads: a place stays empty only when the stock and
the waste are both empty at the moment it is emptied. Cards enter the waste
only from the stock and the stock only from the waste (``R``), so from then
on neither can ever hold a card again, no ``D`` or ``R`` can be played, and
the place stays empty for the rest of the game. The rule's "after the next D
or R" therefore never fires, and the engine needs no pending refill: the
refill at the moment the card leaves is the whole rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from ..cards import DECK_SIZE, RANK, Card, card_name, card_text, rank_phrase
from ..errors import IllegalMove
from ..protocol import Status
from .deals import Deal
from .moves import (
    CELLS,
    CROSS_TO,
    DRAW,
    FOUNDATIONS,
    REDEAL,
    TO_CELL,
    TO_FOUNDATION,
    TOMB,
    Kind,
    Move,
)
from .variants import DEFAULT_VARIANT, Variant

EMPTY: Final = -1  # an empty cell
CORNER_BASE: Final = 7
TOMB_BASE: Final = 6
NO_RANK: Final = 14  # what a completed corner "wants": no card has it
TOMB_CAPACITY: Final = 24
TOMB_RUN: Final = 6  # 6 5 4 3 2 A, four times round
FOUNDATION_COUNT: Final = len(FOUNDATIONS)
CELL_COUNT: Final = len(CELLS)

# One entry of the history: the move as resolved (targets filled in), a
# detail (cards turned for D, the foundation for F, the cell for C) and the
# automatic (cell, foundation) moves it caused, in order.
AutoMoves = tuple[tuple[int, int], ...]
Step = tuple[Move, int, AutoMoves]

# The detail of a cross move (kind X): where the emptied place was refilled from.
REFILL_NONE: Final = 0
REFILL_STOCK: Final = 1
REFILL_WASTE: Final = 2


def wants_after(foundation: int, rank: int) -> int:
    """The rank a foundation wants once a card of ``rank`` tops it."""
    if foundation == TOMB:
        return rank - 1 if rank > 1 else TOMB_BASE
    return rank + 1 if rank < 13 else NO_RANK


def base_wants(foundation: int) -> int:
    return TOMB_BASE if foundation == TOMB else CORNER_BASE


class Position:
    """The whole table: stock, waste, cells, foundations and the history."""

    __slots__ = (
        "cells",
        "deal",
        "foundations",
        "history",
        "home",
        "redeals_left",
        "stock",
        "variant",
        "wants",
        "waste",
    )

    def __init__(self, deal: Deal, variant: Variant = DEFAULT_VARIANT) -> None:
        self.variant = variant
        self.deal = deal
        # The top of the stock is the *last* element, so turning is a pop().
        self.stock: list[Card] = list(reversed(deal.cards))
        self.waste: list[Card] = []  # its top (the card in play) is the last
        self.cells: list[Card] = [EMPTY] * CELL_COUNT
        self.foundations: list[list[Card]] = [[] for _ in FOUNDATIONS]
        self.wants: list[int] = [base_wants(f) for f in range(FOUNDATION_COUNT)]
        self.redeals_left = variant.redeals
        self.history: list[Step] = []
        self.home = 0  # cards on the foundations
        if variant.cross:
            # The deal: the top four stock cards face up on n, w, e, s, in that order.
            for place in range(CELL_COUNT):
                self.cells[place] = self.stock.pop()

    @classmethod
    def replay(
        cls, deal: Deal, variant: Variant = DEFAULT_VARIANT, moves: Iterable[Move] = ()
    ) -> Position:
        position = cls(deal, variant)
        for move in moves:
            position.apply(move)
        return position

    # -- reading the position -------------------------------------------

    @property
    def moves(self) -> list[Move]:
        """The player's moves so far, targets resolved."""
        return [step[0] for step in self.history]

    @property
    def top(self) -> Card | None:
        return self.waste[-1] if self.waste else None

    def fitting_foundation(self, rank: int) -> int:
        """The first foundation (nw, ne, sw, se, tomb) that takes ``rank``, or -1."""
        wants = self.wants
        for foundation in range(FOUNDATION_COUNT):
            if wants[foundation] == rank:
                return foundation
        return -1

    def fitting_foundation_of_top(self) -> int:
        """The first foundation the top waste card fits, or -1 (also when the waste is empty)."""
        return self.fitting_foundation(RANK[self.waste[-1]]) if self.waste else -1

    def legal_moves(self) -> list[Move]:
        if self.variant.cross:
            return self._cross_legal_moves()
        moves: list[Move] = []
        if self.stock:
            moves.append(DRAW)
        elif self.waste and self.redeals_left:
            moves.append(REDEAL)
        if self.waste:
            rank = RANK[self.waste[-1]]
            wants = self.wants
            moves.extend(TO_FOUNDATION[f] for f in range(FOUNDATION_COUNT) if wants[f] == rank)
            cells = self.cells
            moves.extend(TO_CELL[c] for c in range(CELL_COUNT) if cells[c] == EMPTY)
        return moves

    def _cross_legal_moves(self) -> list[Move]:
        """D or R, the top waste card home, each cross card home (no parking)."""
        moves: list[Move] = []
        if self.stock:
            moves.append(DRAW)
        elif self.waste and self.redeals_left:
            moves.append(REDEAL)
        wants = self.wants
        if self.waste:
            rank = RANK[self.waste[-1]]
            moves.extend(TO_FOUNDATION[f] for f in range(FOUNDATION_COUNT) if wants[f] == rank)
        for place, card in enumerate(self.cells):
            if card != EMPTY:
                rank, targets = RANK[card], CROSS_TO[place]
                moves.extend(targets[f] for f in range(FOUNDATION_COUNT) if wants[f] == rank)
        return moves

    def has_legal_move(self) -> bool:
        if self.stock or (self.waste and self.redeals_left):
            return True
        if self.variant.cross:
            wants = self.wants
            cards = [*self.waste[-1:], *(card for card in self.cells if card != EMPTY)]
            return any(RANK[card] in wants for card in cards)
        if not self.waste:
            return False
        return EMPTY in self.cells or RANK[self.waste[-1]] in self.wants

    @property
    def status(self) -> Status:
        if self.home == DECK_SIZE:
            return Status.WON
        return Status.PLAYING if self.has_legal_move() else Status.LOST

    @property
    def passes_left(self) -> int:
        """Further passes through the stock still allowed after this one."""
        return self.redeals_left

    @property
    def pass_number(self) -> int:
        return self.variant.passes - self.redeals_left

    def state_key(self) -> tuple[object, ...]:
        """Everything that defines the position, history included."""
        return (
            self.variant, self.deal.cards, tuple(self.stock), tuple(self.waste),
            tuple(self.cells), tuple(map(tuple, self.foundations)), self.redeals_left,
            tuple(self.history),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self.state_key() == other.state_key()

    __hash__ = None  # type: ignore[assignment]  # mutable: not hashable

    def copy(self) -> Position:
        twin = Position.__new__(Position)
        twin.variant, twin.deal = self.variant, self.deal
        twin.stock, twin.waste = self.stock[:], self.waste[:]
        twin.cells, twin.wants = self.cells[:], self.wants[:]
        twin.foundations = [pile[:] for pile in self.foundations]
        twin.redeals_left, twin.home = self.redeals_left, self.home
        twin.history = self.history[:]
        return twin

    # -- changing it ----------------------------------------------------

    def apply(self, move: Move) -> None:
        """Play ``move`` and its automatic cell moves, or raise IllegalMove."""
        kind = move.kind
        if kind is Kind.DRAW:
            self._draw()
        elif kind is Kind.FOUNDATION:
            self._play_home(move.target)
        elif kind is Kind.CELL:
            self._park(move.target)
        elif kind is Kind.CROSS:
            self._play_cross(move.place, move.target)
        else:
            self._redeal()

    def undo(self) -> Move:
        """Take back the last move with the automatic moves it caused."""
        if not self.history:
            raise IllegalMove("there is no move to undo")
        move, detail, autos = self.history.pop()
        kind = move.kind
        if kind is Kind.DRAW:
            stock, waste = self.stock, self.waste
            for _ in range(detail):
                stock.append(waste.pop())
        elif kind is Kind.REDEAL:
            self.stock.reverse()
            self.stock, self.waste = [], self.stock
            self.redeals_left += 1
        elif kind is Kind.CROSS:
            self._undo_cross(move, detail)
        else:
            self._undo_autos(autos)
            if kind is Kind.FOUNDATION:
                self.waste.append(self._pop_foundation(detail))
            else:
                self.waste.append(self.cells[detail])
                self.cells[detail] = EMPTY
        return move

    def _draw(self) -> None:
        stock, waste = self.stock, self.waste
        if not stock:
            raise IllegalMove(self._why_no_draw())
        count = min(self.variant.turn, len(stock))
        for _ in range(count):
            waste.append(stock.pop())
        # Turning changes no foundation, so no cell card can start to fit.
        self.history.append((DRAW, count, ()))

    def _redeal(self) -> None:
        if self.stock:
            raise IllegalMove("the stock is not empty yet: turn it with D")
        if not self.waste:
            raise IllegalMove("the waste is empty: there is nothing to turn over")
        if not self.redeals_left:
            raise IllegalMove(self._why_no_redeal())
        # The first card turned in the last pass must be the next one turned.
        self.waste.reverse()
        self.stock, self.waste = self.waste, []
        self.redeals_left -= 1
        self.history.append((REDEAL, 0, ()))

    def _play_home(self, target: int | None) -> None:
        card = self._top_or_raise()
        rank = RANK[card]
        foundation = self.fitting_foundation(rank) if target is None else target
        if foundation < 0 or self.wants[foundation] != rank:
            raise IllegalMove(self._why_not_home(card, target))
        self.waste.pop()
        self._push(foundation, card)
        autos = () if self.variant.cross else self._settle()  # the cross moves nothing by itself
        self.history.append((TO_FOUNDATION[foundation], foundation, autos))

    def _park(self, target: int | None) -> None:
        if self.variant.cross:
            raise IllegalMove(f"no parking in the {self.variant.name}: its places are filled "
                              "only from the stock")
        card = self._top_or_raise()
        cells = self.cells
        cell = (cells.index(EMPTY) if EMPTY in cells else -1) if target is None else target
        if cell < 0 or cells[cell] != EMPTY:
            raise IllegalMove(self._why_no_cell(cell))
        self.waste.pop()
        cells[cell] = card
        self.history.append((TO_CELL[cell], cell, self._settle()))

    def _play_cross(self, place: int | None, target: int | None) -> None:
        """A cross card to a foundation (the first that fits when not named), then the refill."""
        if not self.variant.cross:
            raise IllegalMove(f"the {self.variant.name} has no cross: X moves are for the "
                              "traditional cross")
        if place is None or not 0 <= place < CELL_COUNT:
            raise IllegalMove("name the cross place the card leaves: X@n, X@w, X@e or X@s")
        card = self.cells[place]
        if card == EMPTY:
            raise IllegalMove(f"the {CELLS[place]} place of the cross is empty")
        rank = RANK[card]
        foundation = self.fitting_foundation(rank) if target is None else target
        if foundation < 0 or self.wants[foundation] != rank:
            raise IllegalMove(self._why_not_home(card, target))
        self._push(foundation, card)
        self.history.append((CROSS_TO[place][foundation], self._refill(place), ()))

    def _refill(self, place: int) -> int:
        """Fill an emptied place from the stock's top, else the waste's top; say from where."""
        if self.stock:
            self.cells[place] = self.stock.pop()
            return REFILL_STOCK
        if self.waste:
            self.cells[place] = self.waste.pop()
            return REFILL_WASTE
        self.cells[place] = EMPTY
        return REFILL_NONE

    def _undo_cross(self, move: Move, refill: int) -> None:
        place, foundation = move.place or 0, move.target or 0
        if refill == REFILL_STOCK:
            self.stock.append(self.cells[place])
        elif refill == REFILL_WASTE:
            self.waste.append(self.cells[place])
        self.cells[place] = self._pop_foundation(foundation)

    def _settle(self) -> AutoMoves:
        """The automatic moves: cells n, w, e, s; the first that fits goes; repeat."""
        cells = self.cells
        autos: list[tuple[int, int]] = []
        moved = True
        while moved:
            moved = False
            for cell in range(CELL_COUNT):
                card = cells[cell]
                if card == EMPTY:
                    continue
                foundation = self.fitting_foundation(RANK[card])
                if foundation >= 0:
                    cells[cell] = EMPTY
                    self._push(foundation, card)
                    autos.append((cell, foundation))
                    moved = True
                    break
        return tuple(autos)

    def _undo_autos(self, autos: AutoMoves) -> None:
        for cell, foundation in reversed(autos):
            self.cells[cell] = self._pop_foundation(foundation)

    def _push(self, foundation: int, card: Card) -> None:
        self.foundations[foundation].append(card)
        self.wants[foundation] = wants_after(foundation, RANK[card])
        self.home += 1

    def _pop_foundation(self, foundation: int) -> Card:
        pile = self.foundations[foundation]
        card = pile.pop()
        self.wants[foundation] = (
            wants_after(foundation, RANK[pile[-1]]) if pile else base_wants(foundation)
        )
        self.home -= 1
        return card

    def _top_or_raise(self) -> Card:
        if not self.waste:
            raise IllegalMove("the waste is empty: there is no card to play")
        return self.waste[-1]

    # -- messages a player can read (they name only cards in view) --------

    def _why_no_draw(self) -> str:
        if self.waste and self.redeals_left:
            return "the stock is empty: turn the waste over with R"
        return "the stock is empty"

    def _why_no_redeal(self) -> str:
        if self.variant.passes == 1:
            return f"the {self.variant.name} goes through the stock only once"
        return f"all {self.variant.passes} passes through the stock are used"

    def _why_not_home(self, card: Card, target: int | None) -> str:
        if target is not None:
            return f"{card_name(card)} does not fit {self.describe_foundation(target)}"
        if RANK[card] <= TOMB_BASE:
            return f"{card_name(card)} does not fit {self.describe_foundation(TOMB)}"
        return f"{card_name(card)} fits no corner ({self._corner_summary()})"

    def _why_no_cell(self, cell: int) -> str:
        if cell < 0:
            return "all four cells are full"
        return f"the {CELLS[cell]} cell already holds {card_name(self.cells[cell])}"

    def describe_foundation(self, foundation: int) -> str:
        wants = self.wants[foundation]
        if foundation == TOMB:
            if len(self.foundations[TOMB]) == TOMB_CAPACITY:
                return "the tomb, which is full"
            return f"the tomb, which wants {rank_phrase(wants)}"
        name = f"the {FOUNDATIONS[foundation]} corner"
        if wants == NO_RANK:
            return f"{name}, which is complete"
        if not self.foundations[foundation]:
            return f"{name}, which is empty and takes only a 7"
        return f"{name}, which wants {rank_phrase(wants)}"

    def _corner_summary(self) -> str:
        wanted = sorted({self.wants[c] for c in range(TOMB) if self.wants[c] != NO_RANK})
        if not wanted:
            return "all four are complete"
        return "they want " + " or ".join(rank_phrase(rank) for rank in wanted)

    def __repr__(self) -> str:
        waste = " ".join(card_text(card) for card in self.waste[-3:])
        return (
            f"<Position {self.variant.slug} stock={len(self.stock)} waste=[..{waste}] "
            f"home={self.home} moves={len(self.history)}>"
        )
