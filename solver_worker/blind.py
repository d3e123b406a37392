"""What a game tells the blind players: the ``BlindGame`` protocol.

The game loop, the sampling player, the fair hint and the rating ladder
(``players``, ``rating``) know no game. A game
lends them its knowledge through one object of this shape, registered by the
game's slug in ``solver_worker.games.BLIND``; ``players``' docstring says what
each part must guarantee for the players to stay honest.

Positions and moves are the game's own (``patience``' ``PositionLike`` and
``MoveLike``: ``status``, ``moves``, ``legal_moves``, ``apply``, ``copy``,
``variant``; ``notation``), so they are typed ``Any`` here.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Protocol

from patience.cards import Card

# A rule player: the move it plays in a position, or None when it has none left.
Chooser = Callable[[Any], Any | None]


class Memory(Protocol):
    """What a player remembers along one game beyond the view (may be nothing)."""

    def before(self, position: Any, move: Any) -> None:
        """Called with each move just before it is applied."""
        ...

    def check(self, position: Any) -> None:
        """After each move: raise AssertionError if the memory disagrees with the engine."""
        ...


class BlindGame(Protocol):
    """A game's knowledge for players who cannot see its hidden cards."""

    @property
    def rule_players(self) -> Mapping[str, Chooser]:
        """Deterministic rule players by name, deciding from the view alone.

        "careful" is required: it is the default move, the tie-break of the
        sampling player and the base of the rating ladder. "freeing", "near1"
        and "near2" rank in the ladder when a game has them."""
        ...

    def candidate_moves(self, position: Any) -> list[Any]:
        """The moves that really differ, one per class of symmetric moves."""
        ...

    def same_choice(self, a: Any, b: Any) -> bool:
        """Whether two moves are one choice (equal up to the game's symmetries)."""
        ...

    def safe_move(self, position: Any, move: Any) -> bool:
        """True only if ``move`` is provably as good as any other (no sampling needed)."""
        ...

    def unseen(self, position: Any) -> list[Card]:
        """The hidden cards, found from the view alone (sorted: no order leaks)."""
        ...

    def known_order(self, position: Any) -> list[Card] | None:
        """The hidden cards' order when the player knows it (it saw them), else None."""
        ...

    def with_hidden(self, position: Any, order: Sequence[Card]) -> Any:
        """A copy of ``position`` with its hidden cards in ``order`` (a resample)."""
        ...

    def sample_key(self, move: Any, order: Sequence[Card]) -> Hashable:
        """Equal keys for (move, order) pairs the search cannot tell apart."""
        ...

    def find_line(self, position: Any, nodes: int, seconds: float | None
                  ) -> tuple[str, list[str]]:
        """A win-finding search: ("won", line in notation), ("failed", []) when
        its (possibly unsoundly pruned) tree held no win, or ("unknown", [])."""
        ...

    def find_win(self, position: Any, nodes: int, seconds: float | None) -> bool:
        """``find_line(...)[0] == "won"``, without writing the line out."""
        ...

    def new_memory(self) -> Memory:
        """A fresh memory for one game from its start."""
        ...

    def player_words(self, variant: str) -> Mapping[str, str]:
        """What each rule player does, in a sentence for the rules pages, by player
        (English msgids marked with ``patience.words.gettext_noop``; the site translates)."""
        ...
