"""A position of the two-deck Tomb and the moves that change it (RULES-TWO-DECK-TOMB.md).

Mutable on purpose, like the other games': every change goes through ``apply``
and ``undo``, which keep the history that makes undo exact.

The table, as the engine holds it (two-deck cards: ``deals.face`` reads a card):

* ``walls[i]``: wall ``n w e s``, its top card *last*; only that card shows.
* ``places[i]``: working place ``pn pw pe ps``, bottom card first. A stack is
  always one suit going up a rank at a time from its bottom card (it grows only
  by the building rule), so moving a whole stack onto a base lands it in order.
* ``bases[i]``: corner ``nw ne sw se``, bottom card first: a King of its suit
  down to the Ace, then the other King down to the Ace again (26 cards).
* ``centre``: the Ace pile, bottom card first: an Ace up in suit.
* ``waste[i]``: waste pile ``x1`` .. ``x5``, bottom card first (all face up).
* ``stock``: face down, the next card to deal *last*.
* ``round``: 1..5; a deal of round r fills ``variant.waste_piles(r)`` piles.

The deal (``__init__``): each wall's top card becomes its working card; then
the Kings among those 8 cards (the working cards north, west, east, south,
then the walls' new tops in that order) go to the corners, the nw, ne, sw, se
corner in turn, one per suit (a second King of a based suit stays); then each
working place a King left is refilled from its wall. Only these Kings are
moved by the deal: a King that a refill or an uncovered wall shows later waits
for the player (an empty corner takes it).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from ..cards import RANK, SUIT_NAMES, card_name, rank_phrase
from ..errors import IllegalMove
from ..protocol import Status
from .deals import CARD_COUNT, WALL_COUNT, Deal, face
from .moves import (
    CARD_MOVES,
    CENTRE_SOURCE,
    CENTRE_TARGET,
    DEAL,
    FIRST_PLACE,
    FIRST_WASTE,
    REDEAL,
    SOURCE_NAMES,
    STACK_MOVES,
    TARGET_NAMES,
    Kind,
    Move,
)
from .variants import DEFAULT_VARIANT, Variant

SUIT_SIZE: Final = 13
BASE_SIZE: Final = 2 * SUIT_SIZE  # 26: King to Ace twice
KING: Final = 13
ACE: Final = 1
PLACE_COUNT: Final = 4
BASE_COUNT: Final = 4
WASTE_COUNT: Final = 5

# One entry of the history: the move and its detail. For a card move, 1 when the
# source working place was refilled from its wall, else 0; for D, the cards dealt; for
# R, the waste piles' sizes before the gathering (to lay them out again).
Step = tuple[Move, int, tuple[int, ...]]


def suit(card: int) -> int:
    return face(card) // SUIT_SIZE


def rank(card: int) -> int:
    return RANK[face(card)]


def base_wants(base: list[int]) -> int:
    """The rank a non-empty, unfinished base takes next (K after an Ace)."""
    return KING - len(base) % SUIT_SIZE


def fits_on_place(card: int, top: int) -> bool:
    """Whether ``card`` goes onto a working place showing ``top``: up in suit by one;
    nothing on an Ace (and nothing is above a King)."""
    return suit(card) == suit(top) and rank(card) == rank(top) + 1 and rank(top) != ACE


class Position:
    """The whole table: walls, working places, bases, the centre, waste piles, stock."""

    __slots__ = ("bases", "centre", "deal", "history", "home", "places", "round", "stock",
                 "variant", "walls", "waste")

    def __init__(self, deal: Deal, variant: Variant = DEFAULT_VARIANT) -> None:
        self.variant = variant
        self.deal = deal
        self.walls: list[list[int]] = [list(reversed(deal.wall(i))) for i in range(WALL_COUNT)]
        self.places: list[list[int]] = [[wall.pop()] for wall in self.walls]
        self.bases: list[list[int]] = [[] for _ in range(BASE_COUNT)]
        self.centre: list[int] = []
        self.waste: list[list[int]] = [[] for _ in range(WASTE_COUNT)]
        self.stock: list[int] = list(reversed(deal.stock))  # top last: dealing is a pop()
        self.round = 1
        self.home = 0
        self.history: list[Step] = []
        self._deal_kings()

    def _deal_kings(self) -> None:
        """The deal's Kings to the corners, then the refills (see the module docstring)."""
        showing = [*self.places, *self.walls]
        corner = 0
        for pile in showing:
            card = pile[-1] if pile else -1
            if card >= 0 and rank(card) == KING and self._no_base_of(suit(card)):
                self.bases[corner].append(pile.pop())
                self.home += 1
                corner += 1
        for i, place in enumerate(self.places):
            if not place and self.walls[i]:
                place.append(self.walls[i].pop())

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

    def _no_base_of(self, card_suit: int) -> bool:
        return all(not base or suit(base[0]) != card_suit for base in self.bases)

    def source_pile(self, source: int) -> list[int]:
        if source < FIRST_PLACE:
            return self.walls[source]
        if source < CENTRE_SOURCE:
            return self.places[source - FIRST_PLACE]
        if source == CENTRE_SOURCE:
            return self.centre
        return self.waste[source - FIRST_WASTE]

    def target_pile(self, target: int) -> list[int]:
        if target < FIRST_PLACE:
            return self.bases[target]
        if target < CENTRE_TARGET:
            return self.places[target - FIRST_PLACE]
        return self.centre

    def fits_base(self, card: int, base: int) -> bool:
        cards = self.bases[base]
        if not cards:
            return rank(card) == KING and self._no_base_of(suit(card))
        return (len(cards) < BASE_SIZE and suit(card) == suit(cards[0])
                and rank(card) == base_wants(cards))

    def fits_centre(self, card: int) -> bool:
        centre = self.centre
        if not centre:
            return rank(card) == ACE
        top = centre[-1]
        return suit(card) == suit(top) and rank(card) == rank(top) + 1

    def fits_target(self, card: int, target: int) -> bool:
        if target < FIRST_PLACE:
            return self.fits_base(card, target)
        if target == CENTRE_TARGET:
            return self.fits_centre(card)
        place = self.places[target - FIRST_PLACE]
        return bool(place) and fits_on_place(card, place[-1])

    def legal_moves(self) -> list[Move]:
        """Every legal move once: onto the bases (a single card, then the whole stack),
        onto the working places, onto the centre (by source), then D or R. None once won."""
        moves: list[Move] = []
        if self.home == CARD_COUNT:
            return moves
        for source in range(len(SOURCE_NAMES)):
            pile = self.source_pile(source)
            if not pile:
                continue
            card = pile[-1]
            for target in range(len(TARGET_NAMES)):
                if TARGET_NAMES[target] == SOURCE_NAMES[source]:
                    continue
                if self.fits_target(card, target):
                    moves.append(CARD_MOVES[source][target])
                    if target < FIRST_PLACE and len(pile) > 1 and FIRST_PLACE <= source < (
                            CENTRE_SOURCE):
                        moves.append(STACK_MOVES[source - FIRST_PLACE][target][len(pile) - 2])
        if self.stock:
            moves.append(DEAL)
        elif self.round < self.variant.rounds and any(self.waste):
            moves.append(REDEAL)
        return moves

    @property
    def status(self) -> Status:
        """WON with all 104 on the bases; LOST when no move is left (RULES: the fifth
        round's stock spent and nothing to play; earlier, with the stock and the waste
        empty and nothing to play, no move is left either). Both read only the legal
        moves, which read only cards in view and the stock's and waste's sizes."""
        if self.home == CARD_COUNT:
            return Status.WON
        return Status.PLAYING if self.legal_moves() else Status.LOST

    def state_key(self) -> tuple[object, ...]:
        """Everything that defines the position, history included."""
        return (
            self.variant, self.deal, tuple(map(tuple, self.walls)), tuple(map(tuple, self.places)),
            tuple(map(tuple, self.bases)), tuple(self.centre), tuple(map(tuple, self.waste)),
            tuple(self.stock), self.round, self.home, tuple(self.history),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self.state_key() == other.state_key()

    __hash__ = None  # type: ignore[assignment]  # mutable: not hashable

    def copy(self) -> Position:
        twin = Position.__new__(Position)
        twin.variant, twin.deal = self.variant, self.deal
        twin.walls = [pile[:] for pile in self.walls]
        twin.places = [pile[:] for pile in self.places]
        twin.bases = [pile[:] for pile in self.bases]
        twin.centre = self.centre[:]
        twin.waste = [pile[:] for pile in self.waste]
        twin.stock = self.stock[:]
        twin.round, twin.home = self.round, self.home
        twin.history = self.history[:]
        return twin

    # -- changing it ----------------------------------------------------

    def apply(self, move: Move) -> None:
        """Play ``move`` or raise IllegalMove (the position is then unchanged)."""
        if self.home == CARD_COUNT:
            raise IllegalMove("the game is won: every card is on the bases")
        if move.kind is Kind.DEAL:
            self.history.append((move, self._deal(), ()))
        elif move.kind is Kind.REDEAL:
            self.history.append((move, 0, self._redeal()))
        else:
            self.history.append((move, self._card(move), ()))

    def undo(self) -> Move:
        """Take back the last move exactly (a refill goes back onto its wall)."""
        if not self.history:
            raise IllegalMove("there is no move to undo")
        move, detail, sizes = self.history.pop()
        if move.kind is Kind.DEAL:
            for i in reversed(range(detail)):
                self.stock.append(self.waste[i].pop())
        elif move.kind is Kind.REDEAL:
            self._ungather(sizes)
        else:
            self._uncard(move, detail)
        return move

    def _deal(self) -> int:
        if not self.stock:
            raise IllegalMove("the stock is empty: gather the waste piles with R" if any(
                self.waste) and self.round < self.variant.rounds else "the stock is empty")
        count = min(self.variant.waste_piles(self.round), len(self.stock))
        for i in range(count):
            self.waste[i].append(self.stock.pop())
        return count

    def _redeal(self) -> tuple[int, ...]:
        if self.stock:
            raise IllegalMove(f"the stock still holds {len(self.stock)} cards: R is played "
                              "once it is empty")
        if self.round >= self.variant.rounds:
            raise IllegalMove(f"this is the last round ({self.variant.rounds}): the waste "
                              "is not gathered again")
        if not any(self.waste):
            raise IllegalMove("the waste piles are empty: there is nothing to gather")
        sizes = tuple(len(pile) for pile in self.waste)
        # Gathered from the last pile to the first (the last at the bottom, the first on
        # top), turned over: the stock's top is the last pile's bottom card.
        packet = [card for pile in reversed(self.waste) for card in pile]  # top first
        self.stock = packet[::-1]
        self.waste = [[] for _ in range(WASTE_COUNT)]
        self.round += 1
        return sizes

    def _ungather(self, sizes: tuple[int, ...]) -> None:
        packet = self.stock[::-1]
        at = 0
        for i in reversed(range(WASTE_COUNT)):
            self.waste[i] = packet[at:at + sizes[i]]
            at += sizes[i]
        self.stock = []
        self.round -= 1

    def _card(self, move: Move) -> int:
        source = self.source_pile(move.source)
        self._check(move, source)
        target = self.target_pile(move.target)
        for _ in range(move.count):
            target.append(source.pop())
        if move.to_base:
            self.home += move.count
        place = move.source - FIRST_PLACE
        if move.from_place and not source and self.walls[place]:
            source.append(self.walls[place].pop())
            return 1
        return 0

    def _uncard(self, move: Move, refilled: int) -> None:
        source = self.source_pile(move.source)
        if refilled:
            self.walls[move.source - FIRST_PLACE].append(source.pop())
        target = self.target_pile(move.target)
        for _ in range(move.count):
            source.append(target.pop())
        if move.to_base:
            self.home -= move.count

    # -- checks, with messages that name only cards in view ----------------

    def _check(self, move: Move, source: list[int]) -> None:
        where = SOURCE_NAMES[move.source]
        if not source:
            raise IllegalMove(f"{where} is empty: there is no card to play from it")
        card = source[-1]
        if move.count > 1 and (len(source) != move.count or not move.from_place):
            raise IllegalMove(f"only a whole working stack moves as one, and {where} "
                              f"holds {len(source)} cards, not {move.count}")
        if not self.fits_target(card, move.target):
            raise IllegalMove(f"{card_name(face(card))} does not go on "
                              f"{TARGET_NAMES[move.target]}: {self.wanted(move.target)}")

    def wanted(self, target: int) -> str:
        """What a target takes now, in words."""
        pile = self.target_pile(target)
        if target < FIRST_PLACE:
            if not pile:
                return "an empty corner takes a King whose suit has no base yet"
            if len(pile) == BASE_SIZE:
                return "that base is complete"
            return (f"it takes only {rank_phrase(base_wants(pile))} of "
                    f"{SUIT_NAMES[suit(pile[0])]}")
        if target == CENTRE_TARGET:
            if not pile:
                return "the empty centre takes only an ace"
            return f"it takes only the next {SUIT_NAMES[suit(pile[-1])][:-1]} up"
        if not pile:
            return "an empty working place takes nothing"
        if rank(pile[-1]) in (ACE, KING):
            return "nothing goes on a working ace or King"
        return (f"it takes only {rank_phrase(rank(pile[-1]) + 1)} of "
                f"{SUIT_NAMES[suit(pile[-1])]}")

    def __repr__(self) -> str:
        return (f"<Position two-deck-tomb round={self.round} stock={len(self.stock)} "
                f"home={self.home} moves={len(self.history)}>")
