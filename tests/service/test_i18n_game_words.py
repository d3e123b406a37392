"""Every word a game's package writes is in each language's catalog: its name, its
variants', its welcome, and each pile's label, what it takes and the forms a sentence
needs ("from the …", "to the …", "in the …", "the …"). The server translates them
(game.names) for the pages and for the board alike; a text the catalogs lack would be
read out in English in the middle of a Russian or Finnish sentence."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest
from django.conf import settings

from patience import all_variants
from patience.protocol import Pile
from solver_worker.games import player_words

LOCALE = Path(settings.BASE_DIR) / "locale"
OTHER_LANGUAGES = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def catalog(language: str) -> dict[str, str]:
    found = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))
    return {entry.msgid: entry.msgstr for entry in found
            if not entry.obsolete and not entry.msgctxt and "fuzzy" not in entry.flags}


def pile_texts(pile: Pile) -> set[str]:
    phrases = pile.phrases
    forms = () if phrases is None else (phrases.from_, phrases.to, phrases.in_, phrases.the)
    return {text for text in (pile.label, pile.accepts, *forms) if text}


def wanted_ids() -> set[str]:
    """The msgids of every registered game's words."""
    wanted: set[str] = set()
    for rules, variant in all_variants():
        wanted |= {rules.name, variant.name} | ({rules.welcome} if rules.welcome else set())
        wanted |= set(player_words(variant.slug).values())
        for pile in rules.table(variant).piles:
            wanted |= pile_texts(pile)
    return wanted


def test_the_games_name_their_piles_in_every_form() -> None:
    wanted = wanted_ids()
    assert {"north cell", "from the waste", "to the tomb", "in the north cell",
            "from pile %(number)s", "the tomb"} <= wanted
    assert len(wanted) > 90


def test_every_pile_of_every_table_has_its_forms() -> None:
    """The board says where a card went in the pile's own words: a game that names a pile
    must give its "from" and "to" forms, and a cell (where a card is parked) its "in"."""
    for rules, variant in all_variants():
        for pile in rules.table(variant).piles:
            assert pile.phrases is not None, (variant.slug, pile.name)
            assert pile.phrases.from_ and pile.phrases.to, (variant.slug, pile.name)
            assert pile.role != "cell" or pile.phrases.in_, (variant.slug, pile.name)


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_every_word_of_every_game_is_translated(language: str) -> None:
    translated = catalog(language)
    missing = sorted(text for text in wanted_ids() if not translated.get(text))
    assert not missing, f"{language}/django.po lacks {missing}: makemessages, then translate"


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_a_translated_numbered_form_keeps_its_number(language: str) -> None:
    translated = catalog(language)
    for text in wanted_ids():
        if "%(number)s" in text and text in translated:
            assert "%(number)s" in translated[text], (language, text)
