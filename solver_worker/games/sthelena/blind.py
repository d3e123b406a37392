"""St. Helena's knowledge for the blind players (``solver_worker.blind``).

What the player knows, and why each part below stays honest
(RULES-CROSS-AND-ST-HELENA.md, section 2):

* In view: every card on the twelve piles (each was dealt face up), the
  foundations, the stock's size, the redeals left, and the moves played so
  far. The careful player (``careful_move``) decides from these alone: the
  legal moves (which need only the piles, the foundations and whether the
  stock is empty) and, to avoid walking in circles, the tables it has itself
  seen since its last move that was not a build.
* Hidden: the stock in the first round, while it lasts. Its cards are all
  104 less the ones in view (``unseen_cards``, from the faces in view and
  the stock's size alone; the view shows faces, not decks). Which deck an
  unseen card belongs to is known too: the stock is the first deck's 44
  cards on top of the second deck's 52, so while more than 52 cards are left
  the second deck is still whole beneath the first deck's remainder, and
  once 52 or fewer are left every card left is the second deck's.
* The order of the hidden cards: each deck was shuffled on its own, so
  given what the player saw, every order of the first deck's unseen cards
  is equally likely, and so is every order of the second deck's, the first
  deck's on top. The sampling player shuffles ``unseen`` uniformly;
  ``with_hidden`` then puts the first deck's cards on top and the second
  deck's beneath, each in the order drawn. A stable split of a uniform
  shuffle is a uniform shuffle of each part, the two independent, which is
  exactly the distribution of the real stock: the samples are honest.
* After R the piles are gathered face down in a known order (p1's top card
  at the bottom, p12's bottom card on top): the player saw every one of
  them, so the new stock's order is its own knowledge (``known_order``).
  The game loop keeps it as ``Memory`` (R records the gathered packet, D
  deals the known cards off the top) and checks it against the engine;
  ``known_order``, which has only a position, reads the stock in that case
  alone, which is the same list (the tests check this along games).

No play is provably safe here (``safe_move`` is always False): while the
stock lasts a card played home can empty its pile, and the next D then fills
only the empty piles, so it changes where every later card falls; even from a
deeper pile it changes which foundation its twin can later go to. So every
real choice is sampled.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from patience.cards import DECK_SIZE
from patience.sthelena import Kind, Move, Position
from patience.sthelena.moves import DEAL, REDEAL
from patience.sthelena.position import ALL_FOUNDATIONS, base_card
from patience.words import gettext_noop as _

from ...driver import Budget, search_pass
from .search import State, StHelenaSearch

SECOND_DECK_SIZE: Final = DECK_SIZE  # the second deck lies whole beneath the first's remainder
BASE_FACES: Final = frozenset(base_card(f) % DECK_SIZE for f in ALL_FOUNDATIONS)
# Builds in a row that lead nowhere at once (the careful player's last resort)
# before it stops: enough to try the table's few real rearrangements, few
# enough that a game stays far inside players.MAX_PLIES (module docstring).
MAX_WANDER: Final = 12


def first_round(position: Position) -> bool:
    """No redeal made yet: the stock holds cards the player never saw."""
    return position.redeals_left == position.variant.redeals


# -- the careful player ----------------------------------------------------------


def _uncovers_home_card(position: Position, move: Move) -> bool:
    """A build that leaves on top of its pile a card that fits a foundation now."""
    pile = position.piles[move.source]
    return len(pile) >= 2 and any(position.fits(pile[-2], f) for f in ALL_FOUNDATIONS)


def _table(position: Position) -> tuple[tuple[int, ...], ...]:
    """The piles as the player sees them: faces only."""
    return tuple(tuple(card % DECK_SIZE for card in pile) for pile in position.piles)


def _tables_since_progress(position: Position) -> tuple[set[tuple[tuple[int, ...], ...]], int]:
    """The tables seen since the last move that was not a build, and how many builds since.

    Undoing the builds replays only what the player saw (each build moved a
    card in view), so this reads nothing hidden."""
    twin = position.copy()
    tables = {_table(twin)}
    builds = 0
    while twin.history and twin.history[-1][0].kind is Kind.BUILD:
        twin.undo()
        tables.add(_table(twin))
        builds += 1
    return tables, builds


def careful_move(position: Position) -> Move | None:
    """The careful player's move, from the view alone.

    1. A home move (first-round restrictions respected while the stock lasts:
       the engine's legal moves): the first in pile order.
    2. Else, once the stock is empty, a build that uncovers a card that fits
       a foundation now (it goes home next, so such builds cannot loop).
    3. Else deal (D), or gather the piles (R) with a redeal left.
    4. Else, with no redeal left, a build to a table not seen since the last
       home move, at most ``MAX_WANDER`` builds in a row: a new arrangement
       may uncover a card that goes home; without it the player stops.
    5. Else None: the player stops (the game is lost, or it sees no way on).

    A game stays under 2,000 moves: builds happen only with the stock empty,
    in runs of at most ``MAX_WANDER`` (rule 2's builds are each followed by a
    home move), and those runs are separated by home moves (at most 96) or a
    redeal (at most 2); the other moves number at most 96 home moves, 2
    redeals and 3 x 96 deals, so at most 99 x 12 + 386 moves in all.
    """
    legal = position.legal_moves()
    for move in legal:
        if move.kind is Kind.HOME:
            return move
    builds = [move for move in legal if move.kind is Kind.BUILD]
    for move in builds:
        if _uncovers_home_card(position, move):
            return move
    if DEAL in legal:
        return DEAL
    if REDEAL in legal:
        return REDEAL
    if not builds:
        return None
    seen, in_a_row = _tables_since_progress(position)
    if in_a_row >= MAX_WANDER:
        return None
    for move in builds:
        trial = position.copy()
        trial.apply(move)
        if _table(trial) not in seen:
            return move
    return None


# -- what the player knows of the stock -----------------------------------------


def unseen_cards(position: Position) -> list[int]:
    """The stock's cards, from the faces in view and the stock's size, sorted.

    Each face is in the two decks twice, its King and Ace once more on the
    foundations from the start; the cards not in view are the rest. In the
    first round the deck of each is known (module docstring): with more than
    52 left the second deck is whole (cards 52..103) and the rest are the
    first deck's (0..51); else all are the second deck's. After a redeal the
    deck no longer matters (only faces play) and the order is known: copies
    are numbered first deck, then second.
    """
    left: Counter[int] = Counter({face: 2 for face in range(DECK_SIZE)})
    left.subtract(BASE_FACES)
    for pile in position.piles:
        left.subtract(card % DECK_SIZE for card in pile)
    for foundation in position.foundations:
        left.subtract(card % DECK_SIZE for card in foundation[1:])  # its base is counted
    count = len(position.stock)
    assert sum(left.values()) == count and min(left.values()) >= 0
    first_deck_left = count - SECOND_DECK_SIZE if first_round(position) else 0
    if first_deck_left > 0:
        left.subtract(range(DECK_SIZE))  # the whole second deck
        assert min(left.values()) >= 0
        cards = [*left.elements(), *(DECK_SIZE + face for face in range(DECK_SIZE))]
    else:
        cards = []
        for face, copies in left.items():
            cards.extend(DECK_SIZE * (copy + (1 if first_round(position) else 0)) + face
                         for copy in range(copies))
    return sorted(cards)


def known_order(position: Position) -> list[int] | None:
    """The stock order when the player knows it (after a redeal: the gathered
    piles it saw; or at most one card left), else None."""
    if not first_round(position) or len(position.stock) <= 1:
        return list(position.stock)
    return None


@dataclass(slots=True)
class Memory:
    """The stock order the player knows from what it saw (None: not known)."""

    stock: list[int] | None = None

    def before(self, position: Position, move: Move) -> None:
        if move.kind is Kind.REDEAL:
            # p1's top card at the bottom, p12's bottom card on top (top last).
            self.stock = [card for pile in position.piles for card in reversed(pile)]
        elif move.kind is Kind.DEAL and self.stock is not None:
            empty = sum(1 for pile in position.piles if not pile)
            dealt = min(empty or len(position.piles), len(self.stock))
            del self.stock[len(self.stock) - dealt:]

    def check(self, position: Position) -> None:
        if self.stock is not None:
            assert self.stock == position.stock, "the player's memory drifted"


def with_hidden(position: Position, order: Sequence[int]) -> Position:
    """A copy with the stock in ``order`` (bottom first, top last).

    In the first round the first deck's cards go on top and the second
    deck's beneath, each kept in the order given (the honest split of a
    uniform shuffle; module docstring)."""
    twin = position.copy()
    if first_round(position):
        second = [card for card in order if card >= DECK_SIZE]
        first = [card for card in order if card < DECK_SIZE]
        twin.stock = [*second, *first]
    else:
        twin.stock = list(order)
    return twin


# -- the search as a win finder ------------------------------------------------------


def find_line(position: Position, nodes: int, seconds: float | None = None
              ) -> tuple[str, list[str]]:
    """St. Helena's greedy pass alone (``solver_worker.games.sthelena.search``): each
    line it finds wins in the engine; its failure proves nothing."""
    status, line, _nodes = search_pass(StHelenaSearch(), State.of(position),
                                       Budget(nodes=nodes, seconds=seconds), False)
    if status == "won":
        return "won", line
    return ("failed" if status == "exhausted" else "unknown"), []


def find_win(position: Position, nodes: int, seconds: float | None = None) -> bool:
    return find_line(position, nodes, seconds)[0] == "won"


# -- St. Helena as a BlindGame -----------------------------------------------------------


class StHelenaBlind:
    """St. Helena for ``solver_worker.players``."""

    rule_players: Final[Mapping[str, Callable[[Position], Move | None]]] = MappingProxyType({
        "careful": careful_move,
    })

    def candidate_moves(self, position: Position) -> list[Move]:
        """Every legal move: no two are symmetric (two piles differ in what
        lies beneath; the two foundations of a suit build apart)."""
        return position.legal_moves()

    def same_choice(self, a: Move, b: Move) -> bool:
        return a == b

    def safe_move(self, position: Position, move: Move) -> bool:
        return False  # none is provably safe (module docstring)

    def unseen(self, position: Position) -> list[int]:
        return unseen_cards(position)

    def known_order(self, position: Position) -> list[int] | None:
        return known_order(position)

    def with_hidden(self, position: Position, order: Sequence[int]) -> Position:
        return with_hidden(position, order)

    def sample_key(self, move: Move, order: Sequence[int]) -> Hashable:
        # Only faces play, but the deck decides the stock's split: key on both.
        return move.notation.encode() + b"|" + bytes(order)

    def find_line(self, position: Position, nodes: int, seconds: float | None
                  ) -> tuple[str, list[str]]:
        return find_line(position, nodes, seconds)

    def find_win(self, position: Position, nodes: int, seconds: float | None) -> bool:
        return find_win(position, nodes, seconds)

    def new_memory(self) -> Memory:
        return Memory()

    def player_words(self, variant: str) -> Mapping[str, str]:
        return PLAYER_WORDS


PLAYER_WORDS: Final = MappingProxyType({
    "careful": _(
        "Plays every card it can home; once the stock is out, moves a card between "
        "piles only to uncover one that goes home, then deals or gathers the piles."),
})

STHELENA_BLIND: Final = StHelenaBlind()
