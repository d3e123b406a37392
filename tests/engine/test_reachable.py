"""How many distinct positions the first 12 moves reach, for deals 1-3 of each variant.

A breadth-first search over the legal moves from the start, depth 0 to 12
inclusive. Positions are the same when their table is the same: stock,
waste, cells, foundations and passes left; the history is left out, so two
move orders that lead to the same table count once. The counts pin the move
generator (turns, parking in each cell, every fitting foundation, automatic
moves) against an accidental change. Twelve moves never reach a redeal: the
first pass alone takes 18 turns (52 in classic).

An independent model of RULES.md at the end of this module recomputes the
first depths in the test (all twelve agreed when the fixture was written).

The fixture was written once by this module and is checked in:

    .venv/bin/python -m tests.engine.test_reachable --write
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from patience.tomb import CLASSIC, THREE_CARD, Position, Variant, deal_from_number

DEPTH = 12
DEALS = (1, 2, 3)
VARIANTS = (THREE_CARD, CLASSIC)
FIXTURE = Path(__file__).parent / "fixtures" / "reachable.json"

TableKey = tuple[object, ...]


def table_key(position: Position) -> TableKey:
    return (
        tuple(position.stock), tuple(position.waste), tuple(position.cells),
        tuple(map(tuple, position.foundations)), position.redeals_left,
    )


def new_positions_per_depth(number: int, variant: Variant, depth: int = DEPTH) -> list[int]:
    """How many positions are first reached at each depth 0..depth."""
    start = Position(deal_from_number(number), variant)
    seen = {table_key(start)}
    frontier = [start]
    counts = [1]
    for _ in range(depth):
        following = []
        for position in frontier:
            for move in position.legal_moves():
                position.apply(move)
                key = table_key(position)
                if key not in seen:
                    seen.add(key)
                    following.append(position.copy())
                position.undo()
        frontier = following
        counts.append(len(following))
    return counts


def compute() -> dict[str, Any]:
    counts = {
        variant.slug: {
            str(number): {"total": sum(per_depth), "new_at_depth": per_depth}
            for number in DEALS
            for per_depth in [new_positions_per_depth(number, variant)]
        }
        for variant in VARIANTS
    }
    return {
        "about": (
            "Distinct positions reachable within the first 12 moves (depth 0..12 "
            "inclusive), deduplicated by (stock, waste, cells, foundations, passes left); "
            "new_at_depth[d] counts those first reached after d moves."
        ),
        "depth": DEPTH,
        "counts": counts,
    }


def render(document: dict[str, Any]) -> str:
    """The fixture's text: one line per deal keeps it short and its diffs readable."""
    counts = document["counts"]
    lines = [
        "{",
        f' "about": {json.dumps(document["about"])},',
        f' "depth": {document["depth"]},',
        ' "counts": {',
    ]
    for i, (slug, entries) in enumerate(counts.items()):
        lines.append(f"  {json.dumps(slug)}: {{")
        for j, (number, entry) in enumerate(entries.items()):
            comma = "," if j < len(entries) - 1 else ""
            lines.append(f"   {json.dumps(number)}: {json.dumps(entry)}{comma}")
        lines.append("  }" + ("," if i < len(counts) - 1 else ""))
    lines += [" }", "}"]
    return "\n".join(lines) + "\n"


def expected() -> dict[str, dict[str, dict[str, object]]]:
    document = json.loads(FIXTURE.read_text())
    assert document["depth"] == DEPTH
    counts: dict[str, dict[str, dict[str, object]]] = document["counts"]
    return counts


@pytest.mark.slow
@pytest.mark.parametrize("number", DEALS)
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda variant: variant.slug)
def test_reachable_positions_within_12_moves(variant: Variant, number: int) -> None:
    per_depth = new_positions_per_depth(number, variant)
    assert {"total": sum(per_depth), "new_at_depth": per_depth} == (
        expected()[variant.slug][str(number)]
    )


def test_the_fixture_is_in_the_form_the_writer_gives() -> None:
    text = FIXTURE.read_text()
    assert render(json.loads(text)) == text
    assert sorted(expected()) == sorted(variant.slug for variant in VARIANTS)
    for counts in expected().values():
        assert sorted(counts) == [str(number) for number in DEALS]


# -- an independent model of RULES.md, to check the fixture's first depths ---------

Model = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...], int]


def model_wants(foundation: int, pile: tuple[int, ...]) -> int | None:
    ranks = [card % 13 + 1 for card in pile]
    if foundation == 4:  # the tomb: 6 down to A, four times round
        if len(ranks) == 24:
            return None
        return 6 if not ranks or ranks[-1] == 1 else ranks[-1] - 1
    if not ranks:
        return 7
    return None if ranks[-1] == 13 else ranks[-1] + 1


def model_home(piles: list[tuple[int, ...]], card: int) -> bool:
    """Put ``card`` on the first foundation (nw, ne, sw, se, tomb) that takes it."""
    for foundation, pile in enumerate(piles):
        if model_wants(foundation, pile) == card % 13 + 1:
            piles[foundation] = (*pile, card)
            return True
    return False


def model_settle(cells: list[int], piles: list[tuple[int, ...]]) -> None:
    moved = True
    while moved:
        moved = False
        for index, card in enumerate(cells):
            if card != -1 and model_home(piles, card):
                cells[index] = -1
                moved = True
                break


def model_successors(state: Model, turn: int) -> list[Model]:
    stock, waste, cells, piles, redeals = state
    following: list[Model] = []
    if stock:  # D: stock top is its last element; the last turned is on top
        count = min(turn, len(stock))
        turned = stock[len(stock) - count:][::-1]
        following.append((stock[: len(stock) - count], waste + turned, cells, piles, redeals))
    elif waste and redeals:  # R: the first card turned is turned first again
        following.append((waste[::-1], (), cells, piles, redeals - 1))
    if waste:
        top = waste[-1]
        for foundation in range(5):
            if model_wants(foundation, piles[foundation]) == top % 13 + 1:
                new_piles = list(piles)
                new_piles[foundation] = (*piles[foundation], top)
                new_cells = list(cells)
                model_settle(new_cells, new_piles)
                following.append((stock, waste[:-1], tuple(new_cells), tuple(new_piles), redeals))
        for cell in range(4):
            if cells[cell] == -1:
                new_cells = list(cells)
                new_cells[cell] = top
                new_piles = list(piles)
                model_settle(new_cells, new_piles)
                following.append((stock, waste[:-1], tuple(new_cells), tuple(new_piles), redeals))
    return following


def model_counts(number: int, variant: Variant, depth: int) -> list[int]:
    start: Model = (
        tuple(reversed(deal_from_number(number).cards)), (), (-1,) * 4, ((),) * 5,
        variant.passes - 1,
    )
    seen, frontier, counts = {start}, [start], [1]
    for _ in range(depth):
        following = []
        for state in frontier:
            for successor in model_successors(state, variant.turn):
                if successor not in seen:
                    seen.add(successor)
                    following.append(successor)
        frontier = following
        counts.append(len(following))
    return counts


MODEL_DEPTH = 9  # deep enough to pass parking in all cells and the first plays home


@pytest.mark.parametrize("number", DEALS)
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda variant: variant.slug)
def test_an_independent_model_agrees_with_the_fixture(variant: Variant, number: int) -> None:
    entry = expected()[variant.slug][str(number)]
    assert model_counts(number, variant, MODEL_DEPTH) == entry["new_at_depth"][: MODEL_DEPTH + 1]


def test_the_first_moves_are_counted_by_hand() -> None:
    # Deal 1, three-card: the only first move is D, which shows JD 2D 9H;
    # the 9H fits nothing, so after it come D or parking 9H in one of four
    # cells: 1, 1, 5. Classic shows JD alone: the same 1, 1, 5.
    assert new_positions_per_depth(1, THREE_CARD, 2) == [1, 1, 5]
    assert new_positions_per_depth(1, CLASSIC, 2) == [1, 1, 5]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the fixture")
    args = parser.parse_args()
    document = compute()
    text = render(document)
    if args.write:
        FIXTURE.write_text(text)
    print(text, end="")
