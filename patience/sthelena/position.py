"""A position of St. Helena and the moves that change it (RULES-CROSS-AND-ST-HELENA.md, 2).

Mutable on purpose, like the Tomb's: the server applies one move at a time and
the solver's tests play out and undo many, so every change goes through
``apply`` and ``undo``, which keep the history that makes undo exact.

Piles are indexed 0..11 for ``p1..p12``, foundations 0..7 for ``k1..k4``
then ``a1..a4``. A card is a two-deck card (``deals.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from ..cards import DECK_SIZE, RANK, SUIT_NAMES, card_name, make_card, rank_phrase, suit_of
from ..errors import IllegalMove
from ..protocol import Status
from .deals import Deal
from .moves import (
    BUILD_MOVES,
    DEAL,
    FOUNDATION_COUNT,
    FOUNDATIONS,
    HOME_MOVES,
    PILE_COUNT,
    PILES,
    REDEAL,
    Kind,
    Move,
)
from .variants import DEFAULT_VARIANT, Variant

CARD_COUNT: Final = 2 * DECK_SIZE
KING, ACE = 13, 1
COMPLETE: Final = 0  # what a finished foundation "wants": no card has rank 0
# Suits of k1..k4 and a1..a4: spades, hearts, clubs, diamonds (patience.cards' 1, 2, 0, 3).
FOUNDATION_SUIT: Final = (1, 2, 0, 3, 1, 2, 0, 3)
KING_FOUNDATIONS: Final = range(4)
ACE_FOUNDATIONS: Final = range(4, 8)
# While the stock lasts: p1..p4 go only to Kings, p7..p10 only to Aces, the rest to either.
ALLOWED_WHILE_STOCK: Final = tuple(
    tuple(KING_FOUNDATIONS) if pile < 4 else tuple(ACE_FOUNDATIONS) if 6 <= pile < 10
    else tuple(range(FOUNDATION_COUNT))
    for pile in range(PILE_COUNT)
)
ALL_FOUNDATIONS: Final = tuple(range(FOUNDATION_COUNT))

# One entry of the history: the move and what undoing it needs. For D, the
# piles that received a card, in order; for R, the pile sizes it gathered.
Step = tuple[Move, tuple[int, ...]]


def is_king_foundation(foundation: int) -> bool:
    return foundation < 4


def wants_after(foundation: int, rank: int) -> int:
    """The rank a foundation wants once a card of ``rank`` tops it."""
    if is_king_foundation(foundation):
        return rank - 1  # down to the ace; 0 (COMPLETE) after it
    return COMPLETE if rank == KING else rank + 1


def base_card(foundation: int) -> int:
    """The first deck's King or Ace that a foundation starts with."""
    rank = KING if is_king_foundation(foundation) else ACE
    return make_card(rank, FOUNDATION_SUIT[foundation])


class Position:
    """The whole table: stock, twelve piles, eight foundations, the history."""

    __slots__ = (
        "deal", "foundations", "history", "home", "piles", "redeals_left", "stock",
        "variant", "wants",
    )

    def __init__(self, deal: Deal, variant: Variant = DEFAULT_VARIANT) -> None:
        self.variant = variant
        self.deal = deal
        # The top of the stock is the *last* element, so dealing is a pop().
        self.stock: list[int] = list(reversed(deal.cards))
        self.piles: list[list[int]] = [[self.stock.pop()] for _ in range(PILE_COUNT)]
        self.foundations: list[list[int]] = [[base_card(f)] for f in ALL_FOUNDATIONS]
        self.wants: list[int] = [wants_after(f, RANK[base_card(f)]) for f in ALL_FOUNDATIONS]
        self.redeals_left = variant.redeals
        self.history: list[Step] = []
        self.home = FOUNDATION_COUNT  # the eight bases are home from the start

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
        return [step[0] for step in self.history]

    @property
    def stock_phase(self) -> bool:
        """True while the stock lasts: the first-round restrictions hold, no builds."""
        return bool(self.stock)

    def fits(self, card: int, foundation: int) -> bool:
        face = card % DECK_SIZE
        return (RANK[face] == self.wants[foundation]
                and suit_of(face) == FOUNDATION_SUIT[foundation])

    def builds_on(self, card: int, target: int) -> bool:
        """Whether ``card`` may go onto ``target``: same suit, one rank apart."""
        a, b = card % DECK_SIZE, target % DECK_SIZE
        return suit_of(a) == suit_of(b) and abs(RANK[a] - RANK[b]) == 1

    def allowed_foundations(self, pile: int) -> tuple[int, ...]:
        return ALLOWED_WHILE_STOCK[pile] if self.stock else ALL_FOUNDATIONS

    def legal_moves(self) -> list[Move]:
        moves: list[Move] = []
        if self.stock:
            moves.append(DEAL)
        elif self.redeals_left and any(self.piles):
            moves.append(REDEAL)
        piles = self.piles
        for pile in range(PILE_COUNT):
            if piles[pile]:
                top = piles[pile][-1]
                moves.extend(HOME_MOVES[pile][f] for f in self.allowed_foundations(pile)
                             if self.fits(top, f))
        if not self.stock:
            for pile in range(PILE_COUNT):
                if not piles[pile]:
                    continue
                top = piles[pile][-1]
                moves.extend(BUILD_MOVES[pile][to] for to in range(PILE_COUNT)
                             if to != pile and piles[to] and self.builds_on(top, piles[to][-1]))
        return moves

    def has_legal_move(self) -> bool:
        if self.stock or (self.redeals_left and any(self.piles)):
            return True
        return bool(self.legal_moves())

    @property
    def status(self) -> Status:
        if self.home == CARD_COUNT:
            return Status.WON
        return Status.PLAYING if self.has_legal_move() else Status.LOST

    @property
    def round_number(self) -> int:
        """1 for the first deal, 2 and 3 after each redeal."""
        return self.variant.redeals - self.redeals_left + 1

    def state_key(self) -> tuple[object, ...]:
        """Everything that defines the position, history included."""
        return (
            self.variant, self.deal, tuple(self.stock), tuple(map(tuple, self.piles)),
            tuple(map(tuple, self.foundations)), tuple(self.wants), self.redeals_left,
            self.home, tuple(self.history),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self.state_key() == other.state_key()

    __hash__ = None  # type: ignore[assignment]  # mutable: not hashable

    def copy(self) -> Position:
        twin = Position.__new__(Position)
        twin.variant, twin.deal = self.variant, self.deal
        twin.stock, twin.wants = self.stock[:], self.wants[:]
        twin.piles = [pile[:] for pile in self.piles]
        twin.foundations = [pile[:] for pile in self.foundations]
        twin.redeals_left, twin.home = self.redeals_left, self.home
        twin.history = self.history[:]
        return twin

    # -- changing it ----------------------------------------------------

    def apply(self, move: Move) -> None:
        """Play ``move`` or raise IllegalMove (the position is then unchanged)."""
        if self.home == CARD_COUNT:
            raise IllegalMove("the game is won: every card is home")
        kind = move.kind
        if kind is Kind.DEAL:
            self._deal()
        elif kind is Kind.REDEAL:
            self._redeal()
        elif kind is Kind.HOME:
            self._play_home(move)
        else:
            self._build(move)

    def undo(self) -> Move:
        """Take back the last move exactly."""
        if not self.history:
            raise IllegalMove("there is no move to undo")
        move, detail = self.history.pop()
        if move.kind is Kind.DEAL:
            for pile in reversed(detail):
                self.stock.append(self.piles[pile].pop())
        elif move.kind is Kind.REDEAL:
            # The stock was empty before R, so it is exactly the gathered packet:
            # p1 top..bottom first, p12 top..bottom last (its top).
            packet, start = self.stock, 0
            for pile, size in enumerate(detail):
                self.piles[pile] = packet[start:start + size][::-1]
                start += size
            self.stock = []
            self.redeals_left += 1
        elif move.kind is Kind.HOME:
            self.piles[move.source].append(self._pop_foundation(move.target))
        else:
            self.piles[move.source].append(self.piles[move.target].pop())
        return move

    def _deal(self) -> None:
        if not self.stock:
            raise IllegalMove(self._why_no_deal())
        piles, stock = self.piles, self.stock
        empty = [pile for pile in range(PILE_COUNT) if not piles[pile]]
        receivers = empty or range(PILE_COUNT)
        dealt: list[int] = []
        for pile in receivers:
            if not stock:
                break
            piles[pile].append(stock.pop())
            dealt.append(pile)
        self.history.append((DEAL, tuple(dealt)))

    def _redeal(self) -> None:
        if self.stock:
            raise IllegalMove("the stock still holds cards: R is played once it is empty")
        if not self.redeals_left:
            raise IllegalMove(f"both of the {self.variant.redeals} redeals are used")
        if not any(self.piles):
            raise IllegalMove("the piles are empty: there is nothing to gather")
        sizes = tuple(len(pile) for pile in self.piles)
        # Gathered from p12 back to p1, each pile kept in order, then turned face
        # down: the bottom card of p12 is the new top, p1's top card the bottom.
        # With the top of the stock last, the stock reads p1 top..bottom, ..., p12.
        stock: list[int] = []
        for pile in self.piles:
            stock.extend(reversed(pile))
        self.stock = stock
        self.piles = [[] for _ in range(PILE_COUNT)]
        self.redeals_left -= 1
        self.history.append((REDEAL, sizes))

    def _play_home(self, move: Move) -> None:
        card = self._top_or_raise(move.source)
        foundation = move.target
        if foundation not in self.allowed_foundations(move.source):
            raise IllegalMove(self._why_restricted(move.source))
        if not self.fits(card, foundation):
            raise IllegalMove(f"{card_name(card % DECK_SIZE)} does not fit "
                              f"{self.describe_foundation(foundation)}")
        self.piles[move.source].pop()
        self.foundations[foundation].append(card)
        self.wants[foundation] = wants_after(foundation, RANK[card % DECK_SIZE])
        self.home += 1
        self.history.append((move, ()))

    def _build(self, move: Move) -> None:
        card = self._top_or_raise(move.source)
        if self.stock:
            raise IllegalMove("no building on the piles while the stock lasts")
        if move.source == move.target:
            raise IllegalMove("a card cannot go onto its own pile")
        target = self.piles[move.target]
        if not target:
            raise IllegalMove(f"{PILES[move.target]} is empty: a card goes only onto a card")
        if not self.builds_on(card, target[-1]):
            raise IllegalMove(f"{card_name(card % DECK_SIZE)} does not go onto "
                              f"{card_name(target[-1] % DECK_SIZE)}: a build is in suit, "
                              "one rank above or below")
        target.append(self.piles[move.source].pop())
        self.history.append((move, ()))

    def _pop_foundation(self, foundation: int) -> int:
        pile = self.foundations[foundation]
        card = pile.pop()
        self.wants[foundation] = wants_after(foundation, RANK[pile[-1] % DECK_SIZE])
        self.home -= 1
        return card

    def _top_or_raise(self, pile: int) -> int:
        if not 0 <= pile < PILE_COUNT or not self.piles[pile]:
            name = PILES[pile] if 0 <= pile < PILE_COUNT else "that pile"
            raise IllegalMove(f"{name} is empty: there is no card to play")
        return self.piles[pile][-1]

    # -- messages a player can read (they name only cards in view) --------

    def _why_no_deal(self) -> str:
        if self.redeals_left and any(self.piles):
            return "the stock is empty: gather the piles with R"
        return "the stock is empty"

    def _why_restricted(self, pile: int) -> str:
        where = "King" if pile < 4 else "Ace"
        return (f"while the stock lasts, {PILES[pile]} plays only to the {where} foundations")

    def describe_foundation(self, foundation: int) -> str:
        name = f"{FOUNDATIONS[foundation]} ({SUIT_NAMES[FOUNDATION_SUIT[foundation]]})"
        wants = self.wants[foundation]
        if wants == COMPLETE:
            return f"{name}, which is complete"
        return f"{name}, which wants {rank_phrase(wants)}"

    def __repr__(self) -> str:
        return (f"<Position st-helena stock={len(self.stock)} home={self.home} "
                f"round={self.round_number} moves={len(self.history)}>")
