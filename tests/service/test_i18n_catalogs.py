"""The catalogs under locale/: every entry translated, none fuzzy, placeholders kept, the
plural forms all there, and the committed .mo files compiled from the .po files beside them
(README: "Languages"). The checker is run on bad samples too, so it cannot pass vacuously."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings

LOCALE = Path(settings.BASE_DIR) / "locale"
TRANSLATED = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
CATALOGS = sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdif]|%[sdif]|\{(\w*)\}")


def placeholders(text: str) -> list[str]:
    return sorted(match.group(0) for match in PLACEHOLDER.finditer(text))


def plural_count(catalog: polib.POFile) -> int:
    found = re.search(r"nplurals\s*=\s*(\d+)", catalog.metadata.get("Plural-Forms", ""))
    return int(found.group(1)) if found else 0


def entry_problems(entry: polib.POEntry, plurals: int) -> list[str]:
    name = f"{entry.msgctxt + ' | ' if entry.msgctxt else ''}{entry.msgid!r}"
    if "fuzzy" in entry.flags:
        return [f"fuzzy: {name}"]
    if entry.msgid_plural:
        forms = [entry.msgstr_plural.get(index, "") for index in range(plurals)]
        if len(entry.msgstr_plural) != plurals or not all(forms):
            return [f"untranslated (plural forms {len(entry.msgstr_plural)}/{plurals}): {name}"]
    else:
        forms = [entry.msgstr]
        if not entry.msgstr:
            return [f"untranslated: {name}"]
    problems = []
    wanted = placeholders(entry.msgid)
    for form in forms:
        if placeholders(form) != wanted:
            problems.append(f"placeholders {placeholders(form)} instead of {wanted}: {name}")
    return problems


def catalog_problems(path: Path) -> list[str]:
    """Everything wrong with one .po file (and its compiled .mo), one line each."""
    catalog = polib.pofile(str(path))
    language = path.parent.parent.name
    problems = []
    if catalog.metadata_is_fuzzy:
        problems.append("the header is marked fuzzy")
    if catalog.metadata.get("Language") != language:
        problems.append(f"the header names language {catalog.metadata.get('Language')!r}")
    plurals = plural_count(catalog)
    if not plurals:
        problems.append("the header has no Plural-Forms")
    entries = [entry for entry in catalog if not entry.obsolete]
    if not entries:
        problems.append("no entries")
    for entry in entries:
        problems.extend(entry_problems(entry, plurals))
    problems.extend(stale_compilation(path, entries))
    return [f"{path.relative_to(path.parents[2])}: {problem}" for problem in problems]


def stale_compilation(path: Path, entries: list[polib.POEntry]) -> list[str]:
    """The .mo the site reads must say what the .po says (run compilemessages, commit both)."""
    compiled = path.with_suffix(".mo")
    if not compiled.exists():
        return [f"no {compiled.name}: run compilemessages"]
    translations = {(entry.msgctxt, entry.msgid): entry for entry in polib.mofile(str(compiled))}
    stale = []
    for entry in entries:
        found = translations.get((entry.msgctxt, entry.msgid))
        if found is None or (found.msgstr, found.msgstr_plural) != (
                entry.msgstr, entry.msgstr_plural if entry.msgid_plural else {}):
            stale.append(f"{compiled.name} differs from the .po for {entry.msgid!r}: "
                         "run compilemessages")
    return stale


# -- the project's catalogs ------------------------------------------------------

def test_every_offered_language_has_its_catalogs() -> None:
    domains = {path.stem for path in CATALOGS}
    assert "django" in domains
    for code in TRANSLATED:
        for domain in domains:  # a domain made for one language is made for all
            assert (LOCALE / code / "LC_MESSAGES" / f"{domain}.po").exists(), (code, domain)
    assert {path.parent.parent.name for path in CATALOGS} == set(TRANSLATED)


@pytest.mark.parametrize("path", CATALOGS,
                         ids=lambda path: f"{path.parent.parent.name}-{path.stem}")
def test_every_entry_is_translated_and_compiled(path: Path) -> None:
    problems = catalog_problems(path)
    assert not problems, "\n".join(problems)


def test_the_catalogs_are_not_trivially_small() -> None:
    # The header and the account pages alone have some 40 strings: an emptied catalog fails.
    for path in LOCALE.glob("*/LC_MESSAGES/django.po"):
        assert len([e for e in polib.pofile(str(path)) if not e.obsolete]) >= 40, path


# -- the checker on bad samples ---------------------------------------------------

BAD_SAMPLE = '''\
msgid ""
msgstr ""
"Language: ru\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : "
"n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"

msgid "Play"
msgstr "Играть"

msgid "Rules"
msgstr ""

#, fuzzy
msgid "Daily"
msgstr "Ежедневно"

msgid "%(count)s card"
msgid_plural "%(count)s cards"
msgstr[0] "%(count)s карта"
msgstr[1] "%(count)s карты"
msgstr[2] ""

msgid "Deal %(deal)s"
msgstr "Расклад"
'''


def write_sample(tmp_path: Path, text: str, compile_it: bool = True) -> Path:
    folder = tmp_path / "locale" / "ru" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    path = folder / "django.po"
    path.write_text(text, encoding="utf-8")
    if compile_it:
        polib.pofile(str(path)).save_as_mofile(str(path.with_suffix(".mo")))
    return path


def test_the_checker_finds_untranslated_fuzzy_and_broken_entries(tmp_path: Path) -> None:
    problems = "\n".join(catalog_problems(write_sample(tmp_path, BAD_SAMPLE)))
    assert "untranslated: 'Rules'" in problems
    assert "fuzzy: 'Daily'" in problems
    assert "untranslated (plural forms 3/3): '%(count)s card'" in problems
    assert "placeholders [] instead of ['%(deal)s']: 'Deal %(deal)s'" in problems
    assert "'Play'" not in problems


def test_the_checker_finds_a_catalog_not_compiled_since_it_changed(tmp_path: Path) -> None:
    good = BAD_SAMPLE.split('msgid "Rules"')[0]
    path = write_sample(tmp_path, good)
    assert catalog_problems(path) == []
    path.write_text(good.replace("Играть", "Сыграть"), encoding="utf-8")
    assert any("differs from the .po for 'Play'" in p for p in catalog_problems(path))
    path.with_suffix(".mo").unlink()
    assert any("no django.mo" in p for p in catalog_problems(path))


NEW_CATALOG = '''\
# SOME DESCRIPTIVE TITLE.
#
#, fuzzy
msgid ""
msgstr ""
"Project-Id-Version: PACKAGE VERSION\\n"
"Last-Translator: FULL NAME <EMAIL@ADDRESS>\\n"
"Language-Team: LANGUAGE <LL@li.org>\\n"
"Language: \\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

#, fuzzy
msgid "Turn"
msgstr "Käännä"
'''


def test_makemessages_fills_in_a_new_catalog_s_header_and_nothing_else(tmp_path: Path) -> None:
    from accounts.management.commands.makemessages import fill_new_header

    path = tmp_path / "djangojs.po"
    path.write_text(NEW_CATALOG, encoding="utf-8")
    assert fill_new_header(path, "fi")
    catalog = polib.pofile(str(path))
    assert not catalog.metadata_is_fuzzy and catalog.metadata["Language"] == "fi"
    assert [entry.flags for entry in catalog] == [["fuzzy"]]  # the translator's to clear
    before = path.read_text(encoding="utf-8")
    assert not fill_new_header(path, "fi") and path.read_text(encoding="utf-8") == before
