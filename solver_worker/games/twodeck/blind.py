"""The two-deck Tomb's knowledge for the blind players (``solver_worker.blind``).

What the player knows, and why each part stays honest (RULES-TWO-DECK-TOMB.md,
"Automatic moves and secrecy"):

* In view: each wall's top card and how many lie under it, the working places,
  the bases, the centre and the waste piles whole, the stock's size and the
  round. The careful player (``careful_move``) decides from the legal moves
  (which read only those) and nothing else.
* Hidden: the covered wall cards and the stock (``hidden_slots``). The player
  is told them as *faces* (``unseen``): which twin is the first deck's depends
  on the dealing order, so a deck index would leak it. ``with_hidden`` fills the
  hidden places with faces; the engine reads only faces, so the copy plays as a
  real position would.
* The order: a deal is a uniform shuffle, so given what the player saw every
  placement of the unseen faces into the hidden places is equally likely in
  round 1. After a gathering the player has seen the stock's cards (the waste
  turned over); this knowledge treats them as unseen all the same, which only
  makes the sampling player weaker, never better informed (``known_order`` is
  None).

A move is played unsampled (``safe_move``) only when it is the search's rule 4
(``search.py``): a card home at its second place on its base, from a wall, a
working place, the centre, or a waste pile in round 4 or 5. Its argument reads
only the cards in view (the base, the card, the round) and shows that any game
won without it is won with it, whatever the hidden cards are. Neither player ever
plays a lateral move (a card from a working place or the centre onto another of
them that leaves a card behind; a card home from a stack is no lateral move):
every other move makes progress in the order the search's
docstring gives, so a game ends in fewer than 500 moves.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from types import MappingProxyType
from typing import Final

from patience.twodeck import Kind, Move, Position, face
from patience.twodeck.moves import CENTRE_SOURCE, FIRST_PLACE
from patience.words import gettext_noop as _

from ...driver import Budget
from .search import ROUNDS, greedy, state_of


def lateral(position: Position, move: Move) -> bool:
    """A card from a working place or the centre onto another of them that leaves a
    card behind it (a card home is never one: it makes progress)."""
    if (move.kind is not Kind.CARD or move.to_base
            or not FIRST_PLACE <= move.source <= CENTRE_SOURCE):
        return False
    return len(position.source_pile(move.source)) > move.count


def real_choices(position: Position) -> list[Move]:
    """The legal moves but the laterals and the whole-stack moves (the same as the
    single cards sent one by one)."""
    return [move for move in position.legal_moves()
            if move.count == 1 and not lateral(position, move)]


def _order(move: Move) -> tuple[int, int]:
    """Cards home first, then from the walls (they uncover cards), then from the waste,
    then the rest, then D, then R."""
    if move.kind is Kind.DEAL:
        return 5, 0
    if move.kind is Kind.REDEAL:
        return 6, 0
    if move.to_base:
        return 0, move.source
    if move.from_wall:
        return 1, move.source
    return (2 if move.source > CENTRE_SOURCE else 3), move.source


def careful_move(position: Position) -> Move | None:
    """The careful player: a card home (from a wall first, then the waste, the working
    places, the centre, by source order), then a wall's top onto a working place or
    the centre, then a waste card there, then a working place's last card, then D,
    then R; None when no such move is left."""
    choices = real_choices(position)
    return min(choices, key=_order) if choices else None


def hidden_slots(position: Position) -> list[tuple[str, int, int]]:
    slots = [("wall", i, at) for i, wall in enumerate(position.walls)
             for at in range(len(wall) - 1)]
    return slots + [("stock", 0, at) for at in range(len(position.stock))]


def unseen_cards(position: Position) -> list[int]:
    cards = [face(card) for wall in position.walls for card in wall[:-1]]
    return sorted(cards + [face(card) for card in position.stock])


def with_hidden(position: Position, order: Sequence[int]) -> Position:
    twin = position.copy()
    slots = hidden_slots(position)
    assert len(slots) == len(order), "an order of the wrong length"
    for (place, i, at), card in zip(slots, order, strict=True):
        if place == "wall":
            twin.walls[i][at] = card
        else:
            twin.stock[at] = card
    return twin


def find_line(position: Position, nodes: int, seconds: float | None = None
              ) -> tuple[str, list[str]]:
    """The search's greedy pass (on the compiled core when it is built, with its
    restarts): each line it finds wins; its failure proves nothing."""
    status, line, _nodes = greedy(state_of(position), Budget(nodes=nodes or None,
                                                             seconds=seconds))
    if status == "won":
        return "won", line
    return ("failed" if status == "exhausted" else "unknown"), []


def safe_home(position: Position, move: Move) -> bool:
    """The search's rule 4 (see the module docstring): a card home at its base's
    second place, from a wall, a working place, the centre, or from round 4 a
    waste pile."""
    if move.kind is not Kind.CARD or not move.to_base or move.count != 1:
        return False
    if move.source > CENTRE_SOURCE and position.round < ROUNDS - 1:
        return False
    return len(position.bases[move.target]) >= 13


class NoMemory:
    """The player keeps nothing beyond the view (see the module docstring)."""

    def before(self, position: Position, move: Move) -> None:
        return None

    def check(self, position: Position) -> None:
        return None


class TwoDeckBlind:
    """The two-deck Tomb for ``solver_worker.players``."""

    rule_players: Final[Mapping[str, Callable[[Position], Move | None]]] = MappingProxyType({
        "careful": careful_move,
    })

    def candidate_moves(self, position: Position) -> list[Move]:
        return real_choices(position)

    def same_choice(self, a: Move, b: Move) -> bool:
        return a == b

    def safe_move(self, position: Position, move: Move) -> bool:
        return safe_home(position, move)

    def unseen(self, position: Position) -> list[int]:
        return unseen_cards(position)

    def known_order(self, position: Position) -> list[int] | None:
        return [] if not hidden_slots(position) else None

    def with_hidden(self, position: Position, order: Sequence[int]) -> Position:
        return with_hidden(position, order)

    def sample_key(self, move: Move, order: Sequence[int]) -> Hashable:
        return move.notation.encode() + b"|" + bytes(order)

    def find_line(self, position: Position, nodes: int, seconds: float | None
                  ) -> tuple[str, list[str]]:
        return find_line(position, nodes, seconds)

    def find_win(self, position: Position, nodes: int, seconds: float | None) -> bool:
        return find_line(position, nodes, seconds)[0] == "won"

    def new_memory(self) -> NoMemory:
        return NoMemory()

    def player_words(self, variant: str) -> Mapping[str, str]:
        return PLAYER_WORDS


PLAYER_WORDS: Final = MappingProxyType({
    "careful": _(
        "Sends a card to the bases whenever one fits, then plays a wall's top card, then "
        "a waste card, onto a working place or the centre; else deals, and gathers the "
        "waste when the stock is spent. It never moves a card that leaves one behind it "
        "from a working place or the centre, but to the bases."),
    "sampling": _(
        "Tries each move on many random orders of the cards it has not seen and "
        "plays the one that wins most of them, as the fair hint does."),
})

TWO_DECK_BLIND: Final = TwoDeckBlind()
