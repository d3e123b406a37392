"""A name's skeleton (in the spirit of Unicode UTS #39): two names that look alike on the
boards have one skeleton, so ``admin``, ``Admin``, fullwidth ``admin``, and ``admin`` with a
Cyrillic a (U+0430) or a Cyrillic i (U+0456) are one name.

skeleton = NFKC, casefold, each character replaced by its class's prototype, NFKC again.
The look-alike classes come from Unicode's confusables data as shipped by the
``confusable-homoglyphs`` package (its confusables.json, generated from confusables.txt),
not from a hand-typed table. Only single characters are folded: a look-alike made of
several characters (``rn`` for ``m``) keeps its own skeleton.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs import utils as confusables_data

# Directional marks wrap some right-to-left entries of the data; they are not part of it.
_MARKS = {"\u200e", "\u200f"}


def skeleton(name: str) -> str:
    folded = unicodedata.normalize("NFKC", name).casefold()
    table = _prototypes()
    return unicodedata.normalize("NFKC", "".join(table.get(char, char) for char in folded))


def normal_form(name: str) -> str:
    """The form a name is stored in (what Django's username field also does)."""
    return unicodedata.normalize("NFKC", name)


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character -> its class's prototype, casefolded.

    The data lists, for each character, the characters it is confused with; the classes are
    the connected groups of that relation. The prototype is the class's ASCII letter or
    digit when it has one (a letter first: "0" reads "o"), so skeletons read as plain Latin."""
    parent: dict[str, str] = {}

    def root(char: str) -> str:
        while parent.setdefault(char, char) != char:
            parent[char] = parent[parent[char]]
            char = parent[char]
        return char

    for char, entries in confusables_data.load("confusables.json").items():
        for entry in entries:
            # Grouped as the data has them: casefolding first chains classes together
            # (long s is s, and looks like f) until "staff" reads "fraff".
            other = "".join(c for c in entry["c"] if c not in _MARKS)
            if len(char) == 1 and len(other) == 1:
                parent[root(char)] = root(other)
    classes: dict[str, list[str]] = {}
    for char in list(parent):
        classes.setdefault(root(char), []).append(char)
    table: dict[str, str] = {}
    for members in classes.values():
        prototype = min(members, key=_preference).casefold()
        table.update((member, prototype) for member in members if member != prototype)
    return table


def _preference(char: str) -> tuple[int, str]:
    if char.isascii() and char.islower():
        return (0, char)
    if char.isascii() and char.isalpha():
        return (1, char)
    if char.isascii() and char.isdigit():
        return (2, char)
    return (3 if char.isascii() else 4, char)
