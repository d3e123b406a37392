"""What every game's visible view shares (docs/view-contract.md): piles with face-down
cards as a count, and legal moves as paths with what may be picked up.

Kept here, beside the protocol, so no game writes the board's contract twice."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .protocol import MovePath, PileView


def pile_view(up: Iterable[str], down: int = 0) -> PileView:
    """A pile of ``down`` face-down cards under the face-up ``up`` (bottom first)."""
    return {"down": down, "up": list(up)}


def path(source: str, target: str, count: int = 1) -> MovePath:
    return {"from": source, "to": target, "count": count}


def pickable(paths: Iterable[MovePath]) -> dict[str, list[int]]:
    """For each pile some legal move lifts from, the run lengths that may be picked up."""
    counts: dict[str, set[int]] = {}
    for move in paths:
        counts.setdefault(move["from"], set()).add(move["count"])
    return {name: sorted(found) for name, found in counts.items()}


def paths_and_pickable(
    moves: Sequence[tuple[str, MovePath]],
) -> tuple[list[str], dict[str, MovePath], dict[str, list[int]]]:
    """``legal``, ``paths`` and ``pickable`` of a view from (notation, path) pairs."""
    paths = dict(moves)
    return [notation for notation, _ in moves], paths, pickable(paths.values())
