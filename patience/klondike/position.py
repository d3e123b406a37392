"""A position of Klondike and the moves that change it (RULES-KLONDIKE.md).

Mutable on purpose, like the other games': the server applies one move at a
time and the solver plays out and takes back millions, so every change goes
through ``apply`` and ``undo``, which keep the history that makes undo exact
(score included: a clamped score is restored from the history, not recomputed).

The table, as the solver reads it:

* ``columns[i]``: column ``t{i+1}``, bottom card first, face-down cards
  included; its bottom ``down[i]`` cards are face down, the rest face up.
* ``stock``: the next card to turn is the *last* one (``stock[-1]``).
* ``waste``: its top card last. At turn-3 only that top card is in play.
* ``foundations[s]``: how many cards of suit ``s`` (C, S, H, D) are home, so
  the foundation holds that suit's ace up to rank ``foundations[s]``, and a
  card fits it exactly when ``foundations[suit] == rank - 1``.

Two facts the code leans on, both kept by every move:

* A non-empty column always ends in a face-up card: a move that leaves a
  face-down card at a column's end turns it up as part of the same move.
* The face-up part of every column is one run (descending, alternating
  colours): it starts as one card, grows only by cards and runs placed by the
  building rule, and shrinks only from its end. So the run a column may lift
  is exactly its face-up cards, and ``from_table`` refuses a table without it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from ..cards import ALL_CARDS, RANK, RANK_NAMES, SUIT_NAMES, Card, card_name, rank_phrase
from ..errors import IllegalMove, InvalidDeal
from ..protocol import Status
from .deals import Deal
from .moves import (
    COLUMN_COUNT,
    COLUMN_HOME,
    FOUNDATION_COUNT,
    FOUNDATION_TO,
    FOUNDATIONS,
    REDEAL,
    RUN_MOVES,
    TURN,
    WASTE_HOME,
    WASTE_TO,
    Kind,
    Move,
)
from .variants import DEFAULT_VARIANT, Variant

CARD_COUNT: Final = 52
KING: Final = 13
SUIT_SIZE: Final = 13
RED_FROM: Final = 26  # hearts and diamonds (suits 2 and 3) are the cards 26..51

# Windows scoring (RULES-KLONDIKE.md, "Score").
HOME_POINTS: Final = 10  # a card onto a foundation, from the waste or a column
WASTE_TO_COLUMN_POINTS: Final = 5
TURN_UP_POINTS: Final = 5  # a face-down card turned face up
OFF_FOUNDATION_POINTS: Final = -15  # a card back from a foundation onto a column


def _builds_on_table() -> tuple[tuple[bool, ...], ...]:
    """BUILDS_ON[card][target]: ``card`` may lie on ``target`` in a column (one rank
    lower, the other colour). A table lookup beats the arithmetic in the hot path."""
    return tuple(
        tuple(RANK[target] == RANK[card] + 1 and (card >= RED_FROM) != (target >= RED_FROM)
              for target in ALL_CARDS)
        for card in ALL_CARDS
    )


BUILDS_ON: Final = _builds_on_table()

# One entry of the history: the move, a detail and the score before it. The detail
# is the number of cards a D turned; for a card move, 1 when it turned a face-down
# card up, else 0.
Step = tuple[Move, int, int]


def fits_home(card: Card, foundations: Sequence[int]) -> bool:
    """Whether ``card`` goes on its suit's foundation now."""
    return foundations[card // SUIT_SIZE] == card % SUIT_SIZE


def top_of_foundation(suit: int, count: int) -> Card:
    return suit * SUIT_SIZE + count - 1


class Position:
    """The whole table: seven columns, the stock and the waste, four foundations."""

    __slots__ = (
        "columns", "constructed", "deal", "down", "foundations", "history", "home",
        "redeals", "score", "stock", "variant", "waste",
    )

    def __init__(self, deal: Deal, variant: Variant = DEFAULT_VARIANT) -> None:
        self.variant = variant
        self.deal = deal
        self.constructed = False
        self.columns: list[list[Card]] = deal.columns()
        self.down: list[int] = [len(column) - 1 for column in self.columns]
        self.stock: list[Card] = list(reversed(deal.stock))  # top last: turning is a pop()
        self.waste: list[Card] = []
        self.foundations: list[int] = [0] * FOUNDATION_COUNT
        self.home = 0
        self.redeals = 0
        self.score = 0
        self.history: list[Step] = []

    @classmethod
    def replay(
        cls, deal: Deal, variant: Variant = DEFAULT_VARIANT, moves: Iterable[Move] = ()
    ) -> Position:
        position = cls(deal, variant)
        for move in moves:
            position.apply(move)
        return position

    @classmethod
    def from_table(
        cls,
        variant: Variant,
        columns: Sequence[Sequence[Card]],
        down: Sequence[int],
        stock: Sequence[Card] = (),
        waste: Sequence[Card] = (),
        foundations: Sequence[int] = (0, 0, 0, 0),
        redeals: int = 0,
    ) -> Position:
        """A position set out by hand (tests, the solver's late positions), in the
        attributes' own layout. It has no deal to replay: its ``deal`` only lists
        its cards and ``constructed`` is True, so ``to_record`` refuses it."""
        _check_table(columns, down, foundations)
        cards = [card for column in columns for card in column] + [*stock, *waste]
        cards += [top_of_foundation(s, r + 1) for s in range(4) for r in range(foundations[s])]
        position = cls(Deal(cards=tuple(cards)), variant)
        position.constructed = True
        position.columns = [list(column) for column in columns]
        position.down = list(down)
        position.stock, position.waste = list(stock), list(waste)
        position.foundations = list(foundations)
        position.home = sum(foundations)
        position.redeals = redeals
        return position

    # -- reading the position -------------------------------------------

    @property
    def moves(self) -> list[Move]:
        return [step[0] for step in self.history]

    def face_up(self, column: int) -> list[Card]:
        """The face-up cards of a column, bottom first: the run it may lift."""
        return self.columns[column][self.down[column]:]

    @property
    def unseen_in_stock(self) -> int:
        """Stock cards never turned face up. Cards enter the stock only by R, from
        the waste, whose cards were all turned face up; so before the first R the
        stock is exactly the unseen part of the deal's stock, and after it none
        is unseen. Undo restores it with the stock and ``redeals``; an undone D
        counts its card as unseen again, which can only delay a "lost"."""
        return 0 if self.redeals else len(self.stock)

    def legal_moves(self) -> list[Move]:
        """Every legal move once: home moves, waste to a column, runs between columns
        (by source, then target), foundation to a column, then D or R. None once won."""
        moves: list[Move] = []
        if self.home == CARD_COUNT:
            return moves
        columns, foundations, waste = self.columns, self.foundations, self.waste
        top = waste[-1] if waste else -1
        if top >= 0 and fits_home(top, foundations):
            moves.append(WASTE_HOME[top // SUIT_SIZE])
        for i, column in enumerate(columns):
            if column and fits_home(column[-1], foundations):
                moves.append(COLUMN_HOME[i][column[-1] // SUIT_SIZE])
        if top >= 0:
            self._moves_onto_columns(top, WASTE_TO, moves)
        for i in range(COLUMN_COUNT):
            if columns[i]:
                self._runs_from(i, moves)
        for suit in range(FOUNDATION_COUNT):
            if foundations[suit]:
                self._moves_onto_columns(top_of_foundation(suit, foundations[suit]),
                                         FOUNDATION_TO[suit], moves)
        if self.stock:
            moves.append(TURN)
        elif waste:
            moves.append(REDEAL)
        return moves

    def _moves_onto_columns(self, card: Card, to: Sequence[Move], moves: list[Move]) -> None:
        """The moves of one ``card`` onto each column that takes it."""
        king = RANK[card] == KING
        for j, column in enumerate(self.columns):
            if BUILDS_ON[card][column[-1]] if column else king:
                moves.append(to[j])

    def _runs_from(self, i: int, moves: list[Move]) -> None:
        """Column ``i``'s runs onto the other columns. Its face-up cards are one run, so
        the run that fits a target is the one whose head is a rank below the target's
        top: its length is fixed by the ranks, and only its colours need checking."""
        column = self.columns[i]
        run = len(column) - self.down[i]
        low = RANK[column[-1]]
        to = RUN_MOVES[i]
        for j, target in enumerate(self.columns):
            if j == i:
                continue
            if target:
                n = RANK[target[-1]] - low
                if 1 <= n <= run and BUILDS_ON[column[-n]][target[-1]]:
                    moves.append(to[j][n - 1])
            else:
                n = KING - low + 1
                if n <= run:
                    moves.append(to[j][n - 1])

    def has_table_move(self) -> bool:
        """Whether a move other than D and R is legal now."""
        moves = self.legal_moves()
        return len(moves) > (1 if self.stock or self.waste else 0)

    def could_play(self, card: Card) -> bool:
        """Whether ``card``, were it the waste's top, would go onto a foundation or a column."""
        if fits_home(card, self.foundations):
            return True
        king = RANK[card] == KING
        return any(BUILDS_ON[card][column[-1]] if column else king for column in self.columns)

    @property
    def status(self) -> Status:
        """WON with 52 home. LOST ("nothing left to do") only from what the player has seen:

        * never while a stock card has not been turned face up once (``unseen_in_stock``):
          saying "lost" then would tell the player something about unseen cards;
        * then lost when no move but D and R is legal and no card of the stock and
          the waste could go onto a foundation or a column were it the waste's top.

        Why that is sound: with no other move legal, D and R change only the stock
        and the waste, so the columns and foundations stay as they are; a stock or
        waste card reaches play only as the waste's top, and none of them would fit
        anywhere, so no sequence of moves ever changes the table again. It uses
        only seen cards: the stock and waste cards (all turned at least once) and
        the face-up table; the face-down cards stay where they are either way.

        At turn-1 every card of the cycle becomes the waste's top in turn, so the
        test is exact. At turn-3 only some do (every third card, as the stock's
        length allows); counting every card is conservative: it may say
        "playing" where the player is in fact stuck, never "lost" wrongly."""
        if self.home == CARD_COUNT:
            return Status.WON
        if self.unseen_in_stock or self.has_table_move():
            return Status.PLAYING
        if any(self.could_play(card) for card in self.stock) or any(
            self.could_play(card) for card in self.waste
        ):
            return Status.PLAYING
        return Status.LOST

    def state_key(self) -> tuple[object, ...]:
        """Everything that defines the position, history included."""
        return (
            self.variant, self.deal, tuple(map(tuple, self.columns)), tuple(self.down),
            tuple(self.stock), tuple(self.waste), tuple(self.foundations), self.redeals,
            self.score, tuple(self.history),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self.state_key() == other.state_key()

    __hash__ = None  # type: ignore[assignment]  # mutable: not hashable

    def copy(self) -> Position:
        twin = Position.__new__(Position)
        twin.variant, twin.deal, twin.constructed = self.variant, self.deal, self.constructed
        twin.columns = [column[:] for column in self.columns]
        twin.down, twin.foundations = self.down[:], self.foundations[:]
        twin.stock, twin.waste = self.stock[:], self.waste[:]
        twin.home, twin.redeals, twin.score = self.home, self.redeals, self.score
        twin.history = self.history[:]
        return twin

    # -- changing it ----------------------------------------------------

    def apply(self, move: Move) -> None:
        """Play ``move`` or raise IllegalMove (the position is then unchanged)."""
        if self.home == CARD_COUNT:
            raise IllegalMove("the game is won: every card is home")
        score = self.score
        kind = move.kind
        if kind is Kind.TURN:
            detail, points = self._turn(), 0
        elif kind is Kind.REDEAL:
            detail, points = self._redeal(), -self.variant.redeal_penalty
        elif kind is Kind.WASTE_TO_FOUNDATION:
            detail, points = self._waste_home(move.target), HOME_POINTS
        elif kind is Kind.WASTE_TO_COLUMN:
            detail, points = self._waste_to_column(move.target), WASTE_TO_COLUMN_POINTS
        elif kind is Kind.COLUMN_TO_FOUNDATION:
            detail = self._column_home(move.source, move.target)
            points = HOME_POINTS + TURN_UP_POINTS * detail
        elif kind is Kind.COLUMN_TO_COLUMN:
            detail = self._run(move.source, move.target, move.count)
            points = TURN_UP_POINTS * detail
        else:
            detail = self._foundation_to_column(move.source, move.target)
            points = OFF_FOUNDATION_POINTS
        # Never below zero, clamped after each move; undo restores the score saved here.
        self.score = max(0, score + points)
        self.history.append((move, detail, score))

    def undo(self) -> Move:
        """Take back the last move exactly (a card turned up by it turns down again)."""
        if not self.history:
            raise IllegalMove("there is no move to undo")
        move, detail, score = self.history.pop()
        kind = move.kind
        if kind is Kind.TURN:
            for _ in range(detail):
                self.stock.append(self.waste.pop())
        elif kind is Kind.REDEAL:
            self.waste, self.stock = self.stock[::-1], []
            self.redeals -= 1
        elif kind is Kind.WASTE_TO_FOUNDATION:
            self.waste.append(self._off_foundation(move.target))
        elif kind is Kind.WASTE_TO_COLUMN:
            self.waste.append(self.columns[move.target].pop())
        elif kind is Kind.COLUMN_TO_FOUNDATION:
            self.down[move.source] += detail
            self.columns[move.source].append(self._off_foundation(move.target))
        elif kind is Kind.COLUMN_TO_COLUMN:
            self.down[move.source] += detail
            target = self.columns[move.target]
            self.columns[move.source].extend(target[-move.count:])
            del target[-move.count:]
        else:
            self.columns[move.target].pop()
            self.foundations[move.source] += 1
            self.home += 1
        self.score = score
        return move

    def _turn(self) -> int:
        stock, waste = self.stock, self.waste
        if not stock:
            raise IllegalMove("the stock is empty: turn the waste back over with R" if waste
                              else "the stock and the waste are both empty")
        # One at a time, so the first card turned lies lowest and the last is the top.
        count = min(self.variant.draw, len(stock))
        for _ in range(count):
            waste.append(stock.pop())
        return count

    def _redeal(self) -> int:
        if self.stock:
            raise IllegalMove(f"the stock still holds {_cards(len(self.stock))}: R is played "
                              "once it is empty")
        if not self.waste:
            raise IllegalMove("the waste is empty: there is nothing to turn back")
        # Turned over as one packet: the first card turned out is the stock's top again.
        self.stock, self.waste = self.waste[::-1], []
        self.redeals += 1
        return 0

    def _waste_home(self, foundation: int) -> int:
        card = self._waste_top()
        self._check_home(card, foundation)
        self.waste.pop()
        self._onto_foundation(foundation)
        return 0

    def _waste_to_column(self, column: int) -> int:
        card = self._waste_top()
        self._check_onto_column(card, column)
        self.columns[column].append(self.waste.pop())
        return 0

    def _column_home(self, column: int, foundation: int) -> int:
        cards = self._column_or_raise(column)
        self._check_home(cards[-1], foundation)
        cards.pop()
        self._onto_foundation(foundation)
        return self._turn_up(column)

    def _run(self, source: int, target: int, count: int) -> int:
        cards = self._column_or_raise(source)
        if source == target:
            raise IllegalMove(f"column {source + 1} cannot take its own cards")
        run = len(cards) - self.down[source]
        if count > run:
            raise IllegalMove(f"column {source + 1} shows {_cards(run, 'face-up')}: a run of "
                              f"{count} cannot be lifted from it")
        self._check_onto_column(cards[-count], target, count)
        self.columns[target].extend(cards[-count:])
        del cards[-count:]
        return self._turn_up(source)

    def _foundation_to_column(self, foundation: int, column: int) -> int:
        count = self.foundations[foundation]
        if not count:
            raise IllegalMove(f"the {SUIT_NAMES[foundation]} foundation is empty")
        card = top_of_foundation(foundation, count)
        self._check_onto_column(card, column)
        self._off_foundation(foundation)
        self.columns[column].append(card)
        return 0

    def _turn_up(self, column: int) -> int:
        """Turn up the face-down card a move left at a column's end: 1 if there was one."""
        if self.down[column] and len(self.columns[column]) == self.down[column]:
            self.down[column] -= 1
            return 1
        return 0

    def _onto_foundation(self, foundation: int) -> None:
        self.foundations[foundation] += 1
        self.home += 1

    def _off_foundation(self, foundation: int) -> Card:
        count = self.foundations[foundation]
        self.foundations[foundation] = count - 1
        self.home -= 1
        return top_of_foundation(foundation, count)

    # -- checks, with messages that name only cards in view ----------------

    def _waste_top(self) -> Card:
        if not self.waste:
            raise IllegalMove("the waste is empty: there is no card to play")
        return self.waste[-1]

    def _column_or_raise(self, column: int) -> list[Card]:
        cards = self.columns[column]
        if not cards:
            raise IllegalMove(f"column {column + 1} is empty: there is no card to play")
        return cards

    def _check_home(self, card: Card, foundation: int) -> None:
        suit = card // SUIT_SIZE
        if suit != foundation:
            raise IllegalMove(f"{card_name(card)} does not go on the {SUIT_NAMES[foundation]} "
                              f"foundation ({FOUNDATIONS[foundation]}): it takes only "
                              f"{SUIT_NAMES[foundation]}")
        if not fits_home(card, self.foundations):
            raise IllegalMove(f"{card_name(card)} does not go on the {SUIT_NAMES[suit]} "
                              f"foundation yet: {self.describe_foundation(suit)}")

    def describe_foundation(self, suit: int) -> str:
        count = self.foundations[suit]
        if count == SUIT_SIZE:
            return "it is complete"
        return f"it wants {rank_phrase(count + 1)} next"

    def _check_onto_column(self, card: Card, column: int, count: int = 1) -> None:
        """Whether ``card`` (the head of ``count`` cards) may go onto a column."""
        cards = self.columns[column]
        what = card_name(card) if count == 1 else f"a run headed by {card_name(card)}"
        if not cards:
            if RANK[card] != KING:
                raise IllegalMove(f"column {column + 1} is empty: only a King, or a run "
                                  f"headed by a King, starts it, and {what} is not")
            return
        target = cards[-1]
        if not BUILDS_ON[card][target]:
            raise IllegalMove(f"{what} does not go onto {card_name(target)}: {_wanted(target)}")

    def __repr__(self) -> str:
        return (f"<Position klondike {self.variant.slug} stock={len(self.stock)} "
                f"waste={len(self.waste)} home={self.home} moves={len(self.history)}>")


def _cards(count: int, kind: str = "") -> str:
    words = f"{count} {kind} card" if kind else f"{count} card"
    return words if count == 1 else words + "s"


def _wanted(target: Card) -> str:
    """What a column ending in ``target`` takes, in words."""
    if RANK[target] == 1:
        return "no card goes onto an ace in a column"
    colour = "black" if target >= RED_FROM else "red"
    return f"it takes only a {colour} {RANK_NAMES[RANK[target] - 2]}"


def _check_table(
    columns: Sequence[Sequence[Card]], down: Sequence[int], foundations: Sequence[int]
) -> None:
    """Refuse a hand-set table that no game reaches (see the module docstring)."""
    if len(columns) != COLUMN_COUNT or len(down) != COLUMN_COUNT:
        raise InvalidDeal("a Klondike table has seven columns")
    if len(foundations) != FOUNDATION_COUNT or not all(0 <= f <= SUIT_SIZE for f in foundations):
        raise InvalidDeal("a Klondike table has four foundations of 0 to 13 cards")
    for i, column in enumerate(columns):
        if not 0 <= down[i] <= max(len(column) - 1, 0):
            raise InvalidDeal(f"column {i + 1} must end in a face-up card")
        up = column[down[i]:]
        if any(not BUILDS_ON[up[k + 1]][up[k]] for k in range(len(up) - 1)):
            raise InvalidDeal(f"the face-up cards of column {i + 1} are not in sequence")
