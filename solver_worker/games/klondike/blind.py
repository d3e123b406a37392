"""Klondike's knowledge for the blind players (``solver_worker.blind``).

What the player knows, and why each part below stays honest
(RULES-KLONDIKE.md, "What a client may see"):

* In view: the face-up cards of each column and how many lie face down under
  them, the whole waste (every waste card was turned face up), the foundations,
  the stock's size, the redeals made, and the moves played so far. The careful
  and freeing players (``careful_move``, ``freeing_move``) decide from these
  alone: the legal moves (which need only the face-up cards, the waste's top,
  the foundations, and whether the stock and the columns are empty), the face-
  down counts, the sizes of the stock and the waste, and their own moves.
* Hidden: the face-down cards of the columns and, before the first redeal, the
  stock (``hidden_slots``). Cards enter the stock only by a redeal, from the
  waste, whose every card the player saw turned in order: after the first R the
  stock's order is the player's own knowledge (the waste, turned over), so only
  the face-down cards stay hidden. The game loop keeps that knowledge as
  ``StockMemory`` (R records the waste turned over, D takes the turned cards
  off it) and checks it against the engine after every move; ``with_hidden``,
  which has only a position, leaves the stock as it is in that case, which is
  the same list (the tests check this along games).
* The order of the hidden cards: the deal is a uniform shuffle, so given what
  the player saw every placement of the unseen cards into the hidden places is
  equally likely. The sampling player shuffles ``unseen`` uniformly and
  ``with_hidden`` fills the hidden places in one fixed order (columns left to
  right, bottom first, then the stock): the samples are honest.
* ``known_order``: nothing hidden is left ([]), else None (the face-down cards
  are never known before they turn up).

The only move played unsampled (``safe_move``) is a safe card home, the
search's rule 3 (``safe_home`` says why it stays safe for a player who cannot
see). The rating ladder (``solver_worker.rating``) plays the careful player
with and without slips and the freeing player (the careful one without its
empty columns for Kings), whose win rates lie well apart: on deals 1-2,000
the careful player wins 48.8% at turn-1 and 11.5% at turn-3, the freeing
player 19.1% and 3.3% (``python -m solver_worker.play --player careful
--variant turn-1 --deals 1-2000 --jobs 2 --json``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from types import MappingProxyType
from typing import Final

from patience.cards import RANK, Card
from patience.klondike import Kind, Move, Position
from patience.klondike.position import BUILDS_ON, fits_home
from patience.words import gettext_noop as _

from ...driver import Budget
from .search import find_line as search_line
from .search import safe_cards

SUIT_SIZE: Final = 13
KING: Final = 13
FROM_COLUMN: Final = (Kind.COLUMN_TO_COLUMN, Kind.COLUMN_TO_FOUNDATION)
FROM_WASTE: Final = (Kind.WASTE_TO_FOUNDATION, Kind.WASTE_TO_COLUMN)


# -- what the player knows ----------------------------------------------------------


def hidden_slots(position: Position) -> list[tuple[str, int, int]]:
    """The places of the hidden cards, in the fixed order ``with_hidden`` fills:
    ("column", i, index) for each face-down card, then ("stock", 0, index) for each
    stock card before the first redeal."""
    slots = [("column", i, at) for i in range(len(position.columns))
             for at in range(position.down[i])]
    if not position.redeals:
        slots += [("stock", 0, at) for at in range(len(position.stock))]
    return slots


def unseen_cards(position: Position) -> list[Card]:
    """The hidden cards, sorted (which card lies where is not the player's)."""
    cards = [position.columns[i][at] for i in range(len(position.columns))
             for at in range(position.down[i])]
    if not position.redeals:
        cards += position.stock
    return sorted(cards)


def with_hidden(position: Position, order: Sequence[Card]) -> Position:
    """A copy of ``position`` with its hidden places filled by ``order``."""
    twin = position.copy()
    slots = hidden_slots(position)
    assert len(slots) == len(order), "an order of the wrong length"
    for (place, i, at), card in zip(slots, order, strict=True):
        if place == "column":
            twin.columns[i][at] = card
        else:
            twin.stock[at] = card
    return twin


def known_order(position: Position) -> list[Card] | None:
    return [] if not hidden_slots(position) else None


# -- the careful player --------------------------------------------------------------


def moved_card(position: Position, move: Move) -> Card:
    """The card a move lifts (the head of a run), or -1 for D and R."""
    kind = move.kind
    if kind in FROM_WASTE:
        return position.waste[-1]
    if kind in FROM_COLUMN:
        return position.columns[move.source][-move.count]
    return -1


def safe_home(position: Position, move: Move) -> bool:
    """A card home that no winning line needs elsewhere (the search's rule 3,
    ``search.safe_cards``): an Ace or a 2, or a card whose two possible holders
    (rank - 1, other colour) are home and the twin suit's rank - 2 too; from a
    column's end, or from the waste at turn-1.

    Why it is as good as any other move for a player who cannot see the hidden
    cards: rule 3's argument turns any line from the position, whatever the
    hidden cards, into one from the position after the move that plays the same
    moves less the card's own, so whatever the player would have done next it
    can still do, seeing at least as much (the card's column may show the card
    beneath it sooner). At turn-3 a card taken out of the talon moves the later
    cards among the threes, which the argument does not cover."""
    kind = move.kind
    if kind is Kind.COLUMN_TO_FOUNDATION or (
            kind is Kind.WASTE_TO_FOUNDATION and position.variant.draw == 1):
        return moved_card(position, move) in safe_cards(tuple(position.foundations))
    return False


def turns_up(position: Position, move: Move) -> bool:
    """A move from a column that leaves a face-down card at its end (it turns up)."""
    if move.kind not in FROM_COLUMN:
        return False
    left = len(position.columns[move.source]) - move.count
    return left > 0 and left == position.down[move.source]


def frees_a_home_card(position: Position, move: Move) -> bool:
    """A run moved off part of a column's face-up cards, leaving at its end a card
    that goes home now."""
    if move.kind is not Kind.COLUMN_TO_COLUMN:
        return False
    column = position.columns[move.source]
    left = len(column) - move.count
    return left > position.down[move.source] and fits_home(column[left - 1],
                                                              position.foundations)


def opens_a_turn_up(position: Position, move: Move) -> bool:
    """The waste's top onto a column where a run over face-down cards may then come
    onto it (so the next move can turn a card up)."""
    if move.kind is not Kind.WASTE_TO_COLUMN:
        return False
    card = position.waste[-1]
    return any(position.down[i] and BUILDS_ON[column[position.down[i]]][card]
               for i, column in enumerate(position.columns) if i != move.target)


def empties_for_a_king(position: Position, move: Move) -> bool:
    """A whole column with nothing face down moved onto another, while a King waits
    for the empty column: over face-down cards, or on the waste's top."""
    if move.kind is not Kind.COLUMN_TO_COLUMN or position.down[move.source]:
        return False
    if move.count != len(position.columns[move.source]):
        return False
    waiting = any(position.down[i] and RANK[column[position.down[i]]] == KING
                  for i, column in enumerate(position.columns))
    return waiting or (bool(position.waste) and RANK[position.waste[-1]] == KING)


def stalled(position: Position) -> bool:
    """Time to stop turning: the last moves were only turns and redeals for a whole
    cycle of the stock and waste (every card the turns can show has been shown, and
    nothing was played), or there were two cycles' worth of them since a card last
    left the waste (the table changed, yet no waste card came to fit)."""
    cards = len(position.stock) + len(position.waste)
    cycle = -(-cards // position.variant.draw) + 1  # turns through, and one redeal
    in_a_row, turns = True, 0
    for move in reversed(position.moves):
        if move.kind in FROM_WASTE:
            break
        if move.kind is Kind.TURN or move.kind is Kind.REDEAL:
            turns += 1
            if (in_a_row and turns >= cycle) or turns >= 2 * cycle:
                return True
        elif in_a_row:
            in_a_row = False
    return False


def _depth(position: Position, move: Move) -> int:
    return position.down[move.source] if move.kind in FROM_COLUMN else 0


def _waste_order(move: Move) -> int:
    return 0 if move.kind is Kind.WASTE_TO_FOUNDATION else 1


Rule = Callable[[Position, Move], bool]


def _is_waste_play(position: Position, move: Move) -> bool:
    return move.kind in FROM_WASTE


def _is_column_home(position: Position, move: Move) -> bool:
    return move.kind is Kind.COLUMN_TO_FOUNDATION


# The careful player's rules in order (``careful_move``); the freeing player
# leaves out the King's empty column.
CAREFUL_RULES: Final[tuple[Rule, ...]] = (
    safe_home, turns_up, opens_a_turn_up, _is_waste_play, _is_column_home,
    frees_a_home_card, empties_for_a_king,
)
FREEING_RULES: Final = tuple(rule for rule in CAREFUL_RULES if rule is not empties_for_a_king)


def rule_move(position: Position, rules: Sequence[Rule]) -> Move | None:
    """The first legal move the first rule that has one allows (ties: a column with
    more face-down cards first, the waste home before onto a column), else turn
    or redeal, else None: nothing legal, or a whole cycle turned with nothing played."""
    legal = position.legal_moves()
    for rule in rules:
        found = [move for move in legal if rule(position, move)]
        if found:
            found.sort(key=lambda move: (-_depth(position, move), _waste_order(move)))
            return found[0]
    if stalled(position):
        return None
    return next((move for move in legal if move.kind in (Kind.TURN, Kind.REDEAL)), None)


def careful_move(position: Position) -> Move | None:
    """The careful player's move, from the view alone (the legal moves, which read
    only face-up cards, the waste's top, the foundations and the counts; the face-
    down counts; its own moves):

    1. a safe card home (``safe_home``);
    2. a move that turns a face-down card up, from the column with most face down
       (a King-headed run into an empty column among them);
    3. the waste's top onto a column where a run over face-down cards may follow;
    4. the waste's top home, else onto a column;
    5. a card home from a column;
    6. a run lifted off part of a column so that the card it leaves goes home (5 next);
    7. a whole column moved onto another to empty it for a King that waits (over
       face-down cards, or on the waste);
    8. turn the stock, or redeal; after a whole cycle of turns with nothing played
       between, or two cycles with no card out of the waste, stop (None): nothing
       the turns show fits.

    A game ends within ``players.MAX_PLIES`` (2,000) moves. The player undoes
    nothing (it never plays a card off a foundation, nor a run back), so it makes
    at most 52 home moves, 21 that turn a card up and 24 from the waste; a 6
    leaves a card that fits home at a column's end, which stays there until it
    goes home or a card from the waste or a run that turns a card up comes onto
    it, so there are at most 97 of them; a 7 leaves one column fewer in use and
    only a King turned up or from the waste fills an empty one, so at most 52 of
    them: 246 moves that are not turns. Turns and redeals stop (``stalled``)
    after two cycles of the stock and waste (25 moves at most at turn-1) without
    a card leaving the waste, and at most 24 cards leave it: 1,250 turns at most.
    Deals 1-2,000 take at most 168 moves at turn-1, 136 at turn-3.
    """
    return rule_move(position, CAREFUL_RULES)


def freeing_move(position: Position) -> Move | None:
    """The careful player without rule 7: it never empties a column for a King (a
    weaker rung of the rating ladder)."""
    return rule_move(position, FREEING_RULES)


# -- Klondike as a BlindGame ---------------------------------------------------------


def _empty_target(position: Position, move: Move) -> bool:
    return move.kind in (Kind.COLUMN_TO_COLUMN, Kind.WASTE_TO_COLUMN,
                         Kind.FOUNDATION_TO_COLUMN) and not position.columns[move.target]


def real_choices(position: Position) -> list[Move]:
    """The legal moves, one of each set that differ only in which empty column a
    King (or a King-headed run) goes to: empty columns are alike."""
    choices: list[Move] = []
    for move in position.legal_moves():
        if _empty_target(position, move) and any(
                _empty_target(position, kept) and same_move(kept, move) for kept in choices):
            continue
        choices.append(move)
    return choices


def same_move(a: Move, b: Move) -> bool:
    """One choice: equal, or the same cards lifted to an empty column (the caller
    checks that the targets are empty; any column name here is a choice of place)."""
    return a == b or (a.kind is b.kind and a.source == b.source and a.count == b.count
                      and a.kind in (Kind.COLUMN_TO_COLUMN, Kind.WASTE_TO_COLUMN,
                                     Kind.FOUNDATION_TO_COLUMN))


def find_line(position: Position, nodes: int, seconds: float | None = None
              ) -> tuple[str, list[str]]:
    """Klondike's greedy pass (``search.find_line``): each line it finds wins in the
    engine; its failure proves nothing."""
    status, line, _nodes = search_line(position, Budget(nodes=nodes, seconds=seconds))
    if status == "won":
        return "won", line
    return ("failed" if status == "exhausted" else "unknown"), []


class StockMemory:
    """The stock's order as the player knows it: nothing before the first redeal,
    then the waste it saw, turned over (top last), less the cards turned since."""

    def __init__(self) -> None:
        self.stock: list[Card] | None = None

    def before(self, position: Position, move: Move) -> None:
        if move.kind is Kind.REDEAL:
            self.stock = position.waste[::-1]
        elif move.kind is Kind.TURN and self.stock is not None:
            turned = min(position.variant.draw, len(self.stock))
            del self.stock[len(self.stock) - turned:]

    def check(self, position: Position) -> None:
        if self.stock is not None:
            assert self.stock == position.stock, "the player's memory of the stock drifted"


class KlondikeBlind:
    """Klondike (both variants) for ``solver_worker.players``."""

    rule_players: Final[Mapping[str, Callable[[Position], Move | None]]] = MappingProxyType({
        "careful": careful_move,
        "freeing": freeing_move,
    })

    def candidate_moves(self, position: Position) -> list[Move]:
        return real_choices(position)

    def same_choice(self, a: Move, b: Move) -> bool:
        # Moves to two empty columns are one choice, but only ``real_choices`` (which
        # sees the position) can tell the targets are empty; it keeps the first such
        # move in the legal order, the one the careful player plays too.
        return a == b

    def safe_move(self, position: Position, move: Move) -> bool:
        return safe_home(position, move)

    def unseen(self, position: Position) -> list[Card]:
        return unseen_cards(position)

    def known_order(self, position: Position) -> list[Card] | None:
        return known_order(position)

    def with_hidden(self, position: Position, order: Sequence[Card]) -> Position:
        return with_hidden(position, order)

    def sample_key(self, move: Move, order: Sequence[Card]) -> Hashable:
        return move.notation.encode() + b"|" + bytes(order)

    def find_line(self, position: Position, nodes: int, seconds: float | None
                  ) -> tuple[str, list[str]]:
        return find_line(position, nodes, seconds)

    def find_win(self, position: Position, nodes: int, seconds: float | None) -> bool:
        return find_line(position, nodes, seconds)[0] == "won"

    def new_memory(self) -> StockMemory:
        return StockMemory()

    def player_words(self, variant: str) -> Mapping[str, str]:
        return PLAYER_WORDS


PLAYER_WORDS: Final = MappingProxyType({
    "careful": _(
        "Sends home the cards no column will want, then turns up a face-down card where "
        "it can (from the column with most face down), then plays the waste's top card, "
        "then any card home, then empties a column for a King that waits; else turns the "
        "stock, and stops after a whole pass with nothing played."),
    "freeing": _(
        "Plays like the careful player but never empties a column for a King."),
    "sampling": _(
        "Tries each move on many random orders of the cards it has not seen and "
        "plays the one that wins most of them, as the fair hint does."),
})

KLONDIKE_BLIND: Final = KlondikeBlind()
