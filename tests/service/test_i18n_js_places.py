"""Every pile a game's table sends the board is in the browser's catalog: its label in the
forms a sentence needs (tomb/places.js: the name, "from the …", "to the …", and "in the …"
for a cell) and what it accepts. A label the catalogs lack would be read out in English in
the middle of a Russian or Finnish sentence."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings

from patience import all_variants

LOCALE = Path(settings.BASE_DIR) / "locale"
PLACES_MODULE = Path(settings.BASE_DIR) / "frontend" / "static" / "tomb" / "places.js"
NUMBERED = re.compile(r"pile \d+")  # St. Helena's piles: places.js's "pile %(number)s" forms


def catalog_ids(language: str) -> set[str]:
    catalog = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "djangojs.po"))
    return {entry.msgid for entry in catalog if not entry.obsolete and not entry.msgctxt}


def wanted_ids() -> set[str]:
    """The msgids the board needs for every pile of every variant's table."""
    wanted: set[str] = set()
    for rules, variant in all_variants():
        for pile in rules.table(variant).piles:
            if NUMBERED.fullmatch(pile.label):
                wanted |= {"pile %(number)s", "from pile %(number)s", "to pile %(number)s"}
            else:
                wanted |= {pile.label, f"from the {pile.label}", f"to the {pile.label}"}
                if pile.role == "cell":
                    wanted.add(f"in the {pile.label}")
            if pile.accepts:
                wanted.add(pile.accepts)
    return wanted


def test_the_tables_name_piles_at_all() -> None:
    wanted = wanted_ids()
    assert {"north cell", "from the waste", "to the tomb", "in the north cell"} <= wanted
    assert len(wanted) > 60


@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES
                                      if code != settings.LANGUAGE_CODE])
def test_every_pile_label_and_what_it_accepts_is_in_the_js_catalog(language: str) -> None:
    missing = sorted(wanted_ids() - catalog_ids(language))
    assert not missing, (f"{language}/djangojs.po lacks {missing}: add them to "
                         f"{PLACES_MODULE.name}, then makemessages -d djangojs")
