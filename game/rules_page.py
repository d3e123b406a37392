"""What a rules page draws from a game's table: its piles grouped by what they take,
for the labelled picture and its key. Nothing here names a game."""

from __future__ import annotations

from typing import Any, Final

from django.utils.translation import gettext


def _runs(numbers: list[int]) -> list[list[int]]:
    """Consecutive places in the table's order, as runs: [0, 1, 2, 3], [4, 5]."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and runs[-1][-1] == number - 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return runs


def _named(labels: list[str], places: list[int]) -> str:
    """The piles of one group by name: a run of three or more as "pile 7 to pile 10",
    shorter runs one by one ("pile 5, pile 6, pile 11, pile 12")."""
    by_place = dict(zip(places, labels, strict=True))
    parts: list[str] = []
    for run in _runs(places):
        if len(run) > 2:
            parts.append(gettext("%(first)s to %(last)s")
                         % {"first": by_place[run[0]], "last": by_place[run[-1]]})
        else:
            parts.extend(by_place[place] for place in run)
    return ", ".join(parts)


def pile_groups(table: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The table's piles, each with the number of its group, and the groups: piles that
    take the same, named together once ("pile 1 to pile 4") rather than the same sentence
    four times. The piles of a group share a colour in the picture, so a rule that hangs
    on a pile's place shows where it holds."""
    groups: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    piles: list[dict[str, Any]] = []
    for place, pile in enumerate(table["piles"]):
        if pile["accepts"] not in index:
            index[pile["accepts"]] = len(groups)
            groups.append({"accepts": pile["accepts"], "labels": [], "places": [],
                           "role": pile["role"], "number": len(groups)})
        group = groups[index[pile["accepts"]]]
        group["labels"].append(pile["label"])
        group["places"].append(place)
        piles.append({**pile, "group": group["number"]})
    for group in groups:
        group["size"] = len(group["places"])
        group["names"] = _named(group.pop("labels"), group.pop("places"))
    shades = _shades(groups)
    for pile in piles:
        pile["shade"] = shades[pile["group"]]
    for group in groups:
        group["shade"] = shades[group["number"]]
    return piles, groups


BELOW_ON_A_PHONE: Final = ("stock", "waste")


def narrow_places(table: dict[str, Any], piles: list[dict[str, Any]]) -> dict[str, int]:
    """The picture on a phone, as the board lays the table there (frontend table.js,
    stackedLayout): the stock and the waste on a row of their own under the rest, the
    columns they leave empty closed up. Each pile gains ``narrow_row`` and ``narrow_col``;
    the answer is the narrow grid's size, the table's own where that changes nothing."""
    rest = [pile for pile in piles if pile["role"] not in BELOW_ON_A_PHONE]
    aside = [pile for pile in piles if pile["role"] in BELOW_ON_A_PHONE]
    used = sorted({pile["col"] for pile in rest})
    if not rest or not aside or len(used) == table["cols"]:
        for pile in piles:
            pile["narrow_row"], pile["narrow_col"] = pile["row"], pile["col"]
        return {"rows": table["rows"], "cols": table["cols"]}
    below = max(pile["row"] for pile in rest) + 1
    for pile in rest:
        pile["narrow_row"], pile["narrow_col"] = pile["row"], used.index(pile["col"])
    aside.sort(key=lambda pile: pile["role"] != "stock")
    for col, pile in enumerate(aside):
        pile["narrow_row"], pile["narrow_col"] = below, col
    return {"rows": below + 1, "cols": max(len(used), len(aside))}


MOST_SHADES = 4  # more groups of one kind than this would be a rainbow, not a key


def _shades(groups: list[dict[str, Any]]) -> list[int | None]:
    """A colour for each group, numbered within its kind of pile (role), where that kind
    comes in two to four groups of several piles each: the piles whose place decides what
    they take. A kind whose piles all take the same, or each something of its own (a
    foundation for each suit), gets none."""
    shades: list[int | None] = []
    for group in groups:
        kin = [other for other in groups if other["role"] == group["role"]]
        by_place = 1 < len(kin) <= MOST_SHADES and all(other["size"] > 1 for other in kin)
        shades.append(kin.index(group) if by_place else None)
    return shades
