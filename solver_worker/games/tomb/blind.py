"""Napoleon's Tomb's knowledge for the blind players (``solver_worker.blind``).

What the player sees (``Sight``: the table in view and the stock's size), the
careful player's rule and its relatives (``rule_move``, ``rule_with``), the
unseen cards and what the player remembers of the stock after a redeal
(``unseen_cards``, ``known_stock``, ``Memory``), the real choices and the
provably safe play, and the Tomb's search as the win finder. ``TOMB_BLIND``
offers them as a ``BlindGame``; ``solver_worker.players``' docstring gives the
honesty argument (what the player knows) that each of them keeps.

The traditional cross (variant ``cross``, RULES-CROSS-AND-ST-HELENA.md,
section 1) is the same game slug with other rules for the four places beside
the tomb, so each part below branches on ``variant.cross`` where the rules
differ. What the cross player knows, and why each part stays honest:

* In view: the four cross cards (dealt and refilled face up), the whole
  waste (every card in it was turned face up one at a time), the
  foundations, the stock's size and the passes left. ``Sight`` holds exactly
  this, and the cross's careful player (``cross_rule_move``) decides from a
  ``Sight`` alone.
* Hidden: the stock, and only while it holds cards never turned. Its cards
  are all 52 less those in view (``unseen_cards``: the cross places are the
  Tomb's cells, so the same function serves). Before the first redeal every
  stock card is one the player has never seen (the deal and every refill
  take the stock's *top*, which is then in view), and the deal is a uniform
  shuffle, so every order of the unseen cards is equally likely given what
  the player saw: the sampling player's uniform shuffle is honest.
* After R the stock is the waste turned over: the player saw each of those
  cards in order, so the order is its own knowledge (``known_stock``, the
  same test as the 3-card deal's). From then on cards leave the stock only
  from its top, by D or by a refill of an emptied cross place (``Memory``
  pops the top for both; the tests check it against the engine).
* A refill from the waste (stock empty) moves the waste's top, which is in
  view, so it changes nothing hidden.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from patience.tomb import (
    ALL_CARDS,
    DRAW,
    EMPTY,
    NO_RANK,
    RANK,
    REDEAL,
    TO_CELL,
    TO_FOUNDATION,
    TOMB,
    Card,
    Kind,
    Move,
    Position,
)
from patience.tomb.moves import CROSS_TO
from patience.words import gettext_noop as _

from ... import driver
from . import cross as cross_search
from .search import Budget, Table, search_pass, to_notation

NEAR_RANKS: Final = 3  # "a foundation will want it within three ranks"
TOMB_CYCLE: Final = 6  # the tomb wants 6 5 4 3 2 A, then 6 again


# -- what the player sees ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sight:
    """Everything in view, and nothing about the stock but its size."""

    waste: tuple[Card, ...]  # every waste card has been seen; top is last
    cells: tuple[Card, ...]  # n, w, e, s; EMPTY = -1
    wants: tuple[int, ...]  # the rank each foundation wants (nw ne sw se tomb)
    stock_count: int
    redeals_left: int
    turn: int  # cards turned at a time
    cross: bool = False  # the traditional cross: ``cells`` are the cross places

    @classmethod
    def of(cls, position: Position) -> Sight:
        return cls(
            waste=tuple(position.waste),
            cells=tuple(position.cells),
            wants=tuple(position.wants),
            stock_count=len(position.stock),  # its size only, never its order
            redeals_left=position.redeals_left,
            turn=position.variant.turn,
            cross=position.variant.cross,
        )

    def fitting(self, card: Card) -> int:
        """The first foundation (nw, ne, sw, se, tomb) that takes ``card``, or -1."""
        rank = RANK[card]
        for foundation, wanted in enumerate(self.wants):
            if wanted == rank:
                return foundation
        return -1

    def free_cell(self) -> int:
        return self.cells.index(EMPTY) if EMPTY in self.cells else -1


def wanted_within(rank: int, wants: Sequence[int], steps: int = NEAR_RANKS) -> bool:
    """Will a foundation want this rank within ``steps`` ranks?

    Precisely: the rank is 1 to ``steps`` steps after what some foundation
    wants now, counting the way that foundation builds.

    * The tomb (A-6) builds down and round: 6 5 4 3 2 A 6 5 ... A card of
      rank r is (w - r) mod 6 steps after the wanted rank w; it qualifies
      when that is 1, 2 or 3. Tomb wants 6: a 5, 4 or 3 qualifies; tomb wants
      2: an A, 6 or 5.
    * A corner (7-K) builds up: a card of rank r qualifies when some corner
      that is not complete wants w with 1 <= r - w <= 3. An empty corner
      wants a 7, so an 8, 9 or 10 qualifies while a corner is empty.

    Zero steps (the card fits now) is not "within": a fitting card is played.
    """
    if rank <= TOMB_CYCLE:
        return 1 <= (wants[TOMB] - rank) % TOMB_CYCLE <= steps
    return any(
        wanted != NO_RANK and 1 <= rank - wanted <= steps for wanted in wants[:TOMB]
    )


def rule_move(sight: Sight, near: bool = True, spare: bool = False) -> Move | None:
    """The careful player's move (``near=False``: the freeing player's;
    ``spare=True``: the spare-cell player's, see step 2).

    1. The top waste card fits a foundation: play it there (the first
       fitting one in the order nw, ne, sw, se, tomb; corners are
       interchangeable).
    2. Else, with a cell free, park it (in the first free cell) when
       a foundation will want it within three ranks (``wanted_within``; the
       careful player only), or when parking it frees the card beneath: the
       next waste card, which the player sees, fits a foundation now.
       With ``spare`` (the spare-cell player) a card is parked for being
       wanted within three ranks only while another cell stays free after
       it: the last free cell is kept for freeing the card beneath.
    3. Else turn cards (D), or turn the waste over (R) when the stock is
       empty and a pass is left.
    4. Else, with a cell free, park it anyway: it is the only move left and
       it brings the next waste card into play (without it the game is lost
       at once, so every sensible player does it).
    5. Else no move is left: the game is lost (None).

    In the traditional cross nothing is parked, so every look-ahead plays
    alike: ``cross_rule_move``.
    """
    if sight.cross:
        return cross_rule_move(sight)
    waste = sight.waste
    free = sight.free_cell()
    if waste:
        top = waste[-1]
        home = sight.fitting(top)
        if home >= 0:
            return TO_FOUNDATION[home]
        if free >= 0:
            frees_beneath = len(waste) >= 2 and sight.fitting(waste[-2]) >= 0
            room = not spare or sight.cells.count(EMPTY) >= 2
            if frees_beneath or (near and room and wanted_within(RANK[top], sight.wants)):
                return TO_CELL[free]
    if sight.stock_count:
        return DRAW
    if waste and sight.redeals_left:
        return REDEAL
    if waste and free >= 0:
        return TO_CELL[free]
    return None


def cross_home(sight: Sight) -> Move | None:
    """The cross's first fitting cross card home: the lowest fitting rank (so
    the tomb's before the corners'), from the first place (n, w, e, s) that
    holds that rank, to the first foundation that takes it. One canonical
    move per rank: ``real_choices`` offers the same one."""
    fitting = [(RANK[card], place) for place, card in enumerate(sight.cells)
               if card != EMPTY and sight.fitting(card) >= 0]
    if not fitting:
        return None
    _rank, place = min(fitting)
    return CROSS_TO[place][sight.fitting(sight.cells[place])]


def cross_rule_move(sight: Sight) -> Move | None:
    """The careful player of the traditional cross (no parking there).

    1. A cross card fits a foundation: play it home (``cross_home``); its
       place is refilled from the stock, which shows a new card.
    2. Else the top waste card fits: play it (first fitting foundation).
    3. Else turn a card (D), or turn the waste over (R) with a pass left.
    4. Else no move is left: the game is lost (None).

    Cross cards go first, as in the cross search's greedy line (its move
    order wins every deal it was measured on): a refill brings a new card
    into play at once, while the waste card stays playable under the next D.
    """
    home = cross_home(sight)
    if home is not None:
        return home
    waste = sight.waste
    if waste and sight.fitting(waste[-1]) >= 0:
        return TO_FOUNDATION[sight.fitting(waste[-1])]
    if sight.stock_count:
        return DRAW
    if waste and sight.redeals_left:
        return REDEAL
    return None


def careful_move(position: Position) -> Move | None:
    return rule_move(Sight.of(position), near=True)


def freeing_move(position: Position) -> Move | None:
    return rule_move(Sight.of(position), near=False)


def spare_cell_move(position: Position) -> Move | None:
    """The spare-cell player: the careful rule that never spends its last free
    cell on a card only wanted soon. The public site's figures for its
    "careful player" (seed 000: 1,260 3-card wins of deals 1-2,400) fit this
    rule, not ``careful_move``'s (docs/figures.md)."""
    return rule_move(Sight.of(position), near=True, spare=True)


def rule_with(sight: Sight, near: int) -> Move | None:
    """The careful player's rule with ``near`` ranks of look-ahead (0: the freeing
    player's rule; 3: the careful player's, ``rule_move``)."""
    if near in (0, 3) or sight.cross:  # the cross parks nothing: one rule
        return rule_move(sight, near=near == 3)
    # The careful rule with another look-ahead: park a top card that does not fit
    # when a foundation wants it within ``near`` ranks; else the freeing rule
    # (which parks only to free the card beneath, or turns cards).
    waste, free = sight.waste, sight.free_cell()
    if waste and free >= 0 and sight.fitting(waste[-1]) < 0 \
            and wanted_within(RANK[waste[-1]], sight.wants, near):
        return TO_CELL[free]
    return rule_move(sight, near=False)


def near_move(near: int) -> Callable[[Position], Move | None]:
    """The rule player with ``near`` ranks of look-ahead (0: the freeing player)."""

    def choose(position: Position) -> Move | None:
        return rule_with(Sight.of(position), near)

    return choose


# -- what the player remembers -----------------------------------------------


@dataclass(slots=True)
class Memory:
    """The stock order the player knows from what it saw (None: not known).

    Before the first redeal the stock holds only never-seen cards: unknown.
    On R the player has just seen the whole waste, which becomes the stock
    turned over; on D it turns the known cards off the top. In the cross a
    cross card played home (X) refills its place from the stock's top while
    the stock holds cards, so X pops the known top too.
    """

    stock: list[Card] | None = None

    def before(self, position: Position, move: Move) -> None:
        """Update from the player's own move, seen on the table before it."""
        if move.kind is Kind.REDEAL:
            self.stock = list(reversed(position.waste))
        elif move.kind is Kind.DRAW and self.stock is not None:
            del self.stock[len(self.stock) - min(position.variant.turn, len(self.stock)):]
        elif move.kind is Kind.CROSS and self.stock:
            self.stock.pop()  # the refill takes the stock's top

    def check(self, position: Position) -> None:
        if self.stock is not None:
            assert self.stock == position.stock, "the player's memory drifted"


def unseen_cards(position: Position) -> list[Card]:
    """The cards not in view (so in the stock), from the view alone, sorted."""
    seen = set(position.waste)
    seen.update(card for card in position.cells if card != EMPTY)  # cells or cross places
    for pile in position.foundations:
        seen.update(pile)
    unseen = [card for card in ALL_CARDS if card not in seen]
    assert len(unseen) == len(position.stock)
    return unseen


def known_stock(position: Position) -> list[Card] | None:
    """The stock order when the player knows it from memory, else None.

    Known exactly when a redeal has been made (see the module docstring): the
    stock is then the waste the player saw, turned over, less what it has
    turned since. Equal to ``Memory.stock`` along any game (tested). Also
    known, trivially, when at most one card is unseen.
    """
    if position.redeals_left < position.variant.redeals or len(position.stock) <= 1:
        return list(position.stock)
    return None


# -- the choices ---------------------------------------------------------------


def real_choices(position: Position) -> list[Move]:
    """The moves that differ, one representative each.

    Corners are interchangeable (RULES.md), so playing to any fitting corner
    is one choice; cells are interchangeable, so parking in any free cell is
    one choice; parking a card that fits is the same as playing it (it goes
    home at once), so it is no separate choice. What remains: play the top
    card (if it fits) or park it (if it does not and a cell is free), and
    turn cards (D) or the waste over (R).

    The cross (``cross_choices``) parks nothing and adds its cross cards.
    """
    sight = Sight.of(position)
    if sight.cross:
        return cross_choices(sight)
    choices: list[Move] = []
    if sight.waste:
        home = sight.fitting(sight.waste[-1])
        if home >= 0:
            choices.append(TO_FOUNDATION[home])
        elif sight.free_cell() >= 0:
            choices.append(TO_CELL[sight.free_cell()])
    if sight.stock_count:
        choices.append(DRAW)
    elif sight.waste and sight.redeals_left:
        choices.append(REDEAL)
    return choices


def cross_choices(sight: Sight) -> list[Move]:
    """The cross's real choices: one cross card home per fitting rank, the top
    waste card home, D or R.

    Cross cards of one rank are one choice: which place holds which card
    never matters for a win (any cross card may go to any foundation it fits,
    and the refill goes to whichever place was emptied, so the places are
    interchangeable; rule 2 of the cross search), and suits never matter
    either (rule 1). Each is offered as the move ``cross_home`` would name
    for it: the first place holding the rank, the first fitting foundation.
    """
    choices: list[Move] = []
    ranks_done: set[int] = set()
    for place, card in enumerate(sight.cells):
        if card == EMPTY or RANK[card] in ranks_done:
            continue
        foundation = sight.fitting(card)
        if foundation >= 0:
            ranks_done.add(RANK[card])
            choices.append(CROSS_TO[place][foundation])
    choices.sort(key=lambda move: RANK[sight.cells[move.place or 0]])
    if sight.waste and sight.fitting(sight.waste[-1]) >= 0:
        choices.append(TO_FOUNDATION[sight.fitting(sight.waste[-1])])
    if sight.stock_count:
        choices.append(DRAW)
    elif sight.waste and sight.redeals_left:
        choices.append(REDEAL)
    return choices


def cross_safe_play(position: Position, move: Move) -> bool:
    """The cross's one provably safe play: a cross card home at the closing table.

    With the stock and the waste both empty (in view), every card left is on
    the cross and no refill can happen; a card that fits may go home at once,
    because any win that plays it later can play it now (the cross search's
    rule 6b gives the argument: the foundation it joins wants its rank until
    a card of that rank arrives, and that card is interchangeable with it).
    Anywhere else no play is safe: a cross card's refill takes the stock's
    top out of the turning order, and a waste card played home changes which
    card a later refill from the waste takes.
    """
    return move.kind is Kind.CROSS and not position.stock and not position.waste


def safe_play(position: Position, move: Move) -> bool:
    """Playing the fitting top card is provably as good as anything else.

    The argument of ``search`` (rule 5), which needs only what the player
    knows: with the waste order fixed for the rest of the game (classic turn
    order: the classic deal, or no redeal left) and no other card of that
    rank among the unseen (stock) cards, burying it gains nothing.
    (The cross: ``cross_safe_play``.)
    """
    if position.variant.cross:
        return cross_safe_play(position, move)
    if move.kind is not Kind.FOUNDATION:
        return False
    fixed_order = position.variant.turn == 1 or position.redeals_left == 0
    if not fixed_order:
        return False
    rank = RANK[position.waste[-1]]
    return all(RANK[card] != rank for card in unseen_cards(position))


def same_move(a: Move, b: Move) -> bool:
    """Equal up to the symmetry of corners and cells.

    Cross moves (kind X) are one choice only from the same place: two places
    may hold different ranks, and the careful player and ``real_choices``
    name a rank by the same canonical place (``cross_home``)."""
    return a.kind is b.kind and (a.kind is not Kind.CROSS or a.place == b.place)


def _greedy_pass(
    position: Position, nodes: int, seconds: float | None
) -> tuple[str, list[str]]:
    """The search's win-finding pass alone (compiled core when built): a
    sampling player only counts wins, so the exact pass that ``solve``
    runs after a failed greedy pass would be wasted on it."""
    if position.variant.cross:  # the cross search's greedy pass (its rule 7)
        status, found, _nodes = driver.search_pass(
            cross_search.CrossSearch(), cross_search.State.of(position),
            Budget(nodes=nodes, seconds=seconds), False,
        )
        return status, found
    status, found, _nodes = search_pass(
        Table.of(position), position.variant.turn, Budget(nodes=nodes, seconds=seconds), False
    )
    return status, found


def find_line(
    position: Position, nodes: int, seconds: float | None = None
) -> tuple[str, list[str]]:
    """The search's win-finding pass alone, on the position as given.

    It plays every fitting waste card at once, so it finds real wins fast
    (each line it finds is a legal winning line of the engine) but its
    failure proves nothing. Returns ("won", line in RULES.md notation),
    ("failed", []) when it exhausts its restricted tree (almost always a lost
    position), or ("unknown", []) when the budget runs out.
    """
    status, found = _greedy_pass(position, nodes, seconds)
    if status == "won":
        if position.variant.cross:
            return "won", cross_search.to_notation(position, found)
        return "won", to_notation(position, found)
    return ("failed" if status == "exhausted" else "unknown"), []


def find_win(position: Position, nodes: int, seconds: float | None = None) -> bool:
    """Whether the win-finding pass finds a win within the budget."""
    return _greedy_pass(position, nodes, seconds)[0] == "won"


# -- the Tomb as a BlindGame -------------------------------------------------------


class TombBlind:
    """Napoleon's Tomb (both variants) for ``solver_worker.players``."""

    rule_players: Final[Mapping[str, Callable[[Position], Move | None]]] = MappingProxyType({
        "careful": careful_move, "freeing": freeing_move, "spare-cell": spare_cell_move,
        "near1": near_move(1), "near2": near_move(2),
    })

    def candidate_moves(self, position: Position) -> list[Move]:
        return real_choices(position)

    def same_choice(self, a: Move, b: Move) -> bool:
        return same_move(a, b)

    def safe_move(self, position: Position, move: Move) -> bool:
        return safe_play(position, move)

    def unseen(self, position: Position) -> list[Card]:
        return unseen_cards(position)

    def known_order(self, position: Position) -> list[Card] | None:
        return known_stock(position)

    def with_hidden(self, position: Position, order: Sequence[Card]) -> Position:
        twin = position.copy()
        twin.stock = list(order)
        return twin

    def sample_key(self, move: Move, order: Sequence[Card]) -> Hashable:
        # Equal ranks are interchangeable: the same rank order, the same search.
        # A cross move is one choice per place (its rank), so the place is in the key.
        place = b"" if move.place is None else bytes([move.place])
        return move.kind.value.encode() + place + b"|" + bytes(RANK[card] for card in order)

    def find_line(self, position: Position, nodes: int, seconds: float | None
                  ) -> tuple[str, list[str]]:
        return find_line(position, nodes, seconds)

    def find_win(self, position: Position, nodes: int, seconds: float | None) -> bool:
        return find_win(position, nodes, seconds)

    def new_memory(self) -> Memory:
        return Memory()

    def player_words(self, variant: str) -> Mapping[str, str]:
        return CROSS_PLAYER_WORDS if variant == "cross" else PLAYER_WORDS


PLAYER_WORDS: Final = MappingProxyType({
    "careful": _(
        "Plays a card that fits; otherwise parks every card a foundation will want "
        "within three ranks, even into its last free cell."),
    "spare-cell": _(
        "Plays like the careful player but keeps its last cell free, for parking a "
        "card only to free the card beneath it."),
    "freeing": _("Parks a card only to free the card beneath it, when that one fits."),
    "sampling": _(
        "Tries each move on many random orders of the cards it has not seen and "
        "plays the one that wins most of them, as the fair hint does."),
})
# The cross has no cells, so its careful player never parks.
CROSS_PLAYER_WORDS: Final = MappingProxyType({
    "careful": _(
        "Plays a cross card home, else the top waste card where it fits, else turns "
        "the next card: the cross has no cells to park a card in."),
})

TOMB_BLIND: Final = TombBlind()
