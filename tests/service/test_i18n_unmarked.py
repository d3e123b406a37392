"""No user-facing text left unmarked for translation, in the templates under
frontend/templates and the modules under frontend/static/tomb (issue 16).

Templates: the text between tags and the title / aria-label / placeholder / alt (and like)
attributes, outside {% translate %} and {% blocktranslate %}, and literal strings handed to
an include or a default filter. Modules: string literals assigned to textContent, title and
the like, set as aria-label / title / placeholder / alt, or passed to a function that shows
or announces text (announce, say, ...), unless inside t() / tn() / tnf() / tc() (tomb/i18n.js)
or gettext() and friends; and any literal that reads like a sentence, wherever it is.

Files nobody has marked yet are allow-listed below; a second test proves each still has
unmarked text, so the list can only shrink, and that the checker finds text in bad samples.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.template.base import Lexer, TokenType

ROOT = Path(settings.BASE_DIR)
TEMPLATES = ROOT / "frontend" / "templates"
MODULES = ROOT / "frontend" / "static" / "tomb"

# Not marked yet: the second round of issue 16 marks these and empties the tuple.
NOT_YET_MARKED: tuple[str, ...] = (
)

LETTER = re.compile(r"[^\W\d_]")
MARK = "\x00"  # stands for a template tag or variable: never user-facing text itself
# Elements whose content is code or a key's name, not words to translate.
VERBATIM = frozenset({"script", "style", "kbd", "code", "samp"})
USER_ATTRIBUTES = frozenset({"title", "aria-label", "aria-description", "aria-roledescription",
                             "aria-valuetext", "placeholder", "alt", "label"})


@dataclass(frozen=True)
class Finding:
    line: int
    text: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.text!r}"


def is_text(value: str) -> bool:
    return bool(LETTER.search(value.replace(MARK, "")))


# Prose in a tag's argument (a with="..." or a default:"..." filter), not a name or a path.
PROSE = re.compile(r"[^\W_][\w\s'\u2019.,!?…:;-]*")


def is_prose(value: str) -> bool:
    return bool(PROSE.fullmatch(value)) and is_text(value) and (
        " " in value.strip() or value[:1].isupper())


# -- templates --------------------------------------------------------------------

TAG_LITERALS = re.compile(r"""(?:\bwith\s+|\s)\w+=(?P<q>["'])(?P<a>.*?)(?P=q)"""
                          r"""|\|(?:default|default_if_none|yesno):(?P<r>["'])(?P<b>.*?)(?P=r)""")


class TextFinder(HTMLParser):
    """Text nodes and user-facing attributes of HTML whose template tags are MARKs."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.raw = 0  # depth inside <script> / <style> / <kbd> / <code> / <samp>
        self.found: list[Finding] = []

    def here(self) -> int:
        return self.getpos()[0]  # the template's line: each tag's MARK keeps its newlines

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VERBATIM:
            self.raw += 1
        for name, value in attrs:
            if name in USER_ATTRIBUTES and value and is_text(value):
                self.found.append(Finding(self.here(), f'{name}="{value.replace(MARK, "…")}"'))
        if tag == "input" and dict(attrs).get("type") in ("submit", "button", "reset"):
            value = dict(attrs).get("value") or ""
            if is_text(value):
                self.found.append(Finding(self.here(), f'value="{value}"'))

    def handle_endtag(self, tag: str) -> None:
        if tag in VERBATIM:
            self.raw = max(0, self.raw - 1)

    def handle_data(self, data: str) -> None:
        if not self.raw and is_text(data):
            # The line where the words start, not where the text node does.
            line = self.here() + data[:len(data) - len(data.lstrip())].count("\n")
            self.found.append(Finding(line, " ".join(data.replace(MARK, "…").split())))


def unmarked_in_template(source: str) -> list[Finding]:
    """User-facing text of a Django template that no translate tag covers."""
    html: list[str] = []  # the template with each tag a MARK, line for line
    found: list[Finding] = []
    skipping = ""  # the end tag of a block whose content is not text (translated, comment)
    for token in Lexer(source).tokenize():
        content = token.contents.strip()
        newlines = "\n" * token.contents.count("\n")
        if skipping:
            if token.token_type == TokenType.BLOCK and content.split()[:1] == [skipping]:
                skipping = ""
            html.append(newlines)
            continue
        if token.token_type == TokenType.TEXT:
            html.append(token.contents)
            continue
        html.append(MARK + newlines)
        word = content.split()[0] if content else ""
        if token.token_type == TokenType.BLOCK and word in ("blocktranslate", "blocktrans"):
            skipping = "end" + word
        elif token.token_type == TokenType.BLOCK and word == "comment":
            skipping = "endcomment"
        elif token.token_type in (TokenType.BLOCK, TokenType.VAR):
            for match in TAG_LITERALS.finditer(content):
                literal = match.group("a") or match.group("b") or ""
                if is_prose(literal):
                    found.append(Finding(token.lineno, literal))
    finder = TextFinder()
    finder.feed("".join(html))
    finder.close()
    return sorted(found + finder.found, key=lambda finding: finding.line)


# -- JavaScript modules -----------------------------------------------------------

@dataclass(frozen=True)
class Token:
    kind: str  # "name", "string", "punct", "number"
    text: str  # a string's static text (template literals: the parts outside ${})
    line: int


ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0"}


def unescape(source: str, backslash: int) -> tuple[str, int]:
    """The character an escape at `backslash` stands for, and the index after it."""
    kind = source[backslash + 1:backslash + 2]
    if kind == "u" and source[backslash + 2:backslash + 3] == "{":
        end = source.index("}", backslash)
        return chr(int(source[backslash + 3:end], 16)), end + 1
    if kind in ("u", "x"):
        width = 4 if kind == "u" else 2
        digits = source[backslash + 2:backslash + 2 + width]
        return chr(int(digits, 16)), backslash + 2 + width
    return ESCAPES.get(kind, kind), backslash + 2


def js_tokens(source: str, start: int = 0, line: int = 1,
              stop_at_brace: bool = False) -> tuple[list[Token], int, int]:
    """A small JavaScript tokenizer: names, strings (template literals with their ${}
    expressions tokenized in place, in parentheses), numbers and punctuation; comments and
    regular-expression literals dropped. Returns the tokens, where it stopped and the line."""
    tokens: list[Token] = []
    index, depth = start, 0
    while index < len(source):
        char = source[index]
        if char == "\n":
            line += 1
            index += 1
        elif char.isspace():
            index += 1
        elif source.startswith("//", index):
            index = source.find("\n", index) if "\n" in source[index:] else len(source)
        elif source.startswith("/*", index):
            end = source.find("*/", index + 2)
            end = len(source) if end < 0 else end + 2
            line += source.count("\n", index, end)
            index = end
        elif char in "\"'":
            end, text = index + 1, []
            while end < len(source) and source[end] != char:
                if source[end] == "\\":
                    escaped, end = unescape(source, end)
                    text.append(escaped)
                    continue
                text.append(source[end])
                end += 1
            tokens.append(Token("string", "".join(text), line))
            index = end + 1
        elif char == "`":
            literal_line, index, text, inner = line, index + 1, [], []
            while index < len(source) and source[index] != "`":
                if source[index] == "\\":
                    escaped, index = unescape(source, index)
                    text.append(escaped)
                elif source.startswith("${", index):
                    text.append(MARK)
                    parts, index, line = js_tokens(source, index + 2, line, stop_at_brace=True)
                    inner += [Token("punct", "(", line), *parts, Token("punct", ")", line)]
                else:
                    line += source[index] == "\n"
                    text.append(source[index])
                    index += 1
            tokens.append(Token("string", "".join(text), literal_line))
            tokens += inner
            index += 1
        elif char == "/" and not (tokens and (tokens[-1].kind in ("name", "number", "string")
                                              or tokens[-1].text in (")", "]", "}"))):
            end, in_class = index + 1, False  # a regular expression literal
            while end < len(source) and (source[end] != "/" or in_class):
                if source[end] == "\\":
                    end += 1
                elif source[end] == "[":
                    in_class = True
                elif source[end] == "]":
                    in_class = False
                end += 1
            index = end + 1
            while index < len(source) and source[index].isalpha():
                index += 1
        elif char.isalpha() or char in "_$":
            end = index
            while end < len(source) and (source[end].isalnum() or source[end] in "_$"):
                end += 1
            tokens.append(Token("name", source[index:end], line))
            index = end
        elif char.isdigit():
            end = index
            while end < len(source) and (source[end].isalnum() or source[end] in "._"):
                end += 1
            tokens.append(Token("number", source[index:end], line))
            index = end
        else:
            if stop_at_brace:
                if char == "{":
                    depth += 1
                elif char == "}":
                    if depth == 0:
                        return tokens, index + 1, line
                    depth -= 1
            tokens.append(Token("punct", char, line))
            index += 1
    return tokens, index, line


# Calls whose string arguments are marked for translation (tomb/i18n.js and Django's own).
MARKERS = frozenset({"t", "tn", "tnf", "tc", "gettext", "ngettext", "pgettext", "npgettext",
                     "gettext_noop"})
# Properties that show text, and calls that show or announce it.
TEXT_PROPERTIES = frozenset({"textContent", "innerText", "innerHTML", "outerHTML", "title",
                             "placeholder", "alt", "ariaLabel", "ariaDescription",
                             "ariaValueText", "label"})
TEXT_CALLS = frozenset({"announce", "say", "askFirst", "showHint", "onError", "fieldStatus",
                        "alert", "confirm", "prompt", "createTextNode", "emptyHtml", "badge",
                        "refuse", "fact"})
# A line's comment saying a sentence-like literal is not text (a log line, a test hook).
NOT_TEXT = "i18n: not text"
SENTENCE = re.compile(r"[^\W\d_]{2,}[,;:]?\s+[^\W\d_]{2,}")
# Selectors, media queries, markup and units read like words but are code.
CODE_LIKE = re.compile(r"[#\[\]{}=<>|\\]|\.[a-z]|^[a-z-]+:|^\(.*:.*\)$|\b(?:px|rem|em|vh|vw)\b"
                       r"|^[a-z][a-z0-9-]*(?:,\s*[a-z][a-z0-9-]*)+$")


def expression_end(tokens: list[Token], start: int) -> int:
    """Index past an expression starting at `start`: at a `;`, `,` or closing bracket on its
    own level, or at the line's end when no operator continues it."""
    depth, index = 0, start
    while index < len(tokens):
        text = tokens[index].text if tokens[index].kind == "punct" else ""
        if text in ("(", "[", "{"):
            depth += 1
        elif text in (")", "]", "}"):
            if depth == 0:
                return index
            depth -= 1
        elif text in (";", ",") and depth == 0:
            return index
        index += 1
        if depth == 0 and index < len(tokens) and tokens[index].line > tokens[index - 1].line \
                and tokens[index - 1].kind != "punct" and (
                tokens[index].kind != "punct" or tokens[index].text in ("(", "[", "{")):
            return index
    return index


def call_end(tokens: list[Token], open_paren: int) -> int:
    depth = 0
    for index in range(open_paren, len(tokens)):
        if tokens[index].kind == "punct" and tokens[index].text in "([{":
            depth += 1
        elif tokens[index].kind == "punct" and tokens[index].text in ")]}":
            depth -= 1
            if depth == 0:
                return index
    return len(tokens)


def marked_spans(tokens: list[Token]) -> list[tuple[int, int]]:
    return [(index + 1, call_end(tokens, index + 1)) for index, token in enumerate(tokens[:-1])
            if token.kind == "name" and token.text in MARKERS and tokens[index + 1].text == "("
            and (index == 0 or tokens[index - 1].text != ".")]


def shown_spans(tokens: list[Token]) -> list[tuple[int, int]]:
    """Token ranges whose strings reach the page as text."""
    spans = []
    for index, token in enumerate(tokens[:-2]):
        following = tokens[index + 1]
        if token.kind == "name" and token.text in TEXT_PROPERTIES and index and \
                tokens[index - 1].text == "." and following.text in ("=", "+"):
            start = index + 2 + (following.text == "+")
            spans.append((start, expression_end(tokens, start)))
        elif token.kind == "name" and following.text == "(" and (
                index == 0 or tokens[index - 1].text != "function"):
            end = call_end(tokens, index + 1)
            if token.text in TEXT_CALLS:
                spans.append((index + 2, end))
            elif token.text == "setAttribute" and tokens[index + 2].kind == "string" and \
                    tokens[index + 2].text in USER_ATTRIBUTES:
                spans.append((index + 3, end))
    return spans


def unmarked_in_module(source: str) -> list[Finding]:
    """User-facing string literals of a JavaScript module that no t()/tn()/tc() covers."""
    tokens, _, _ = js_tokens(source)
    marked = marked_spans(tokens)
    found: dict[int, Finding] = {}
    for start, end in shown_spans(tokens):
        for index in range(start, end):
            token = tokens[index]
            text = re.sub(r"<[^>]*>", " ", token.text)  # innerHTML's markup is not text
            if token.kind == "string" and is_text(text) and \
                    not any(low <= index < high for low, high in marked):
                found[index] = Finding(token.line, token.text.replace(MARK, "${…}"))
    lines = source.splitlines()
    for index, token in enumerate(tokens):
        sentence = token.text.replace(MARK, " ")
        if token.kind == "string" and index not in found and SENTENCE.search(sentence) \
                and not CODE_LIKE.search(sentence) \
                and not any(low <= index < high for low, high in marked) \
                and NOT_TEXT not in lines[token.line - 1]:
            found[index] = Finding(token.line, token.text.replace(MARK, "${…}"))
    return sorted(found.values(), key=lambda finding: finding.line)


# -- the project's files ----------------------------------------------------------

def project_files() -> list[Path]:
    return sorted([*TEMPLATES.rglob("*.html"), *MODULES.rglob("*.js")])


def name_of(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def unmarked(path: Path) -> list[Finding]:
    source = path.read_text(encoding="utf-8")
    return unmarked_in_template(source) if path.suffix == ".html" else unmarked_in_module(source)


def test_there_are_files_to_check() -> None:
    names = {name_of(path) for path in project_files()}
    assert "frontend/templates/base.html" in names and "frontend/static/tomb/i18n.js" in names
    assert len(names) > 20


@pytest.mark.parametrize("path", [p for p in project_files() if name_of(p) not in NOT_YET_MARKED],
                         ids=name_of)
def test_every_user_facing_string_is_marked(path: Path) -> None:
    findings = unmarked(path)
    assert not findings, f"{name_of(path)} has unmarked text:\n" + "\n".join(map(str, findings))


@pytest.mark.parametrize("name", NOT_YET_MARKED)
def test_each_allow_listed_file_still_has_unmarked_text(name: str) -> None:
    """Once a file is marked, take it off NOT_YET_MARKED: the list only shrinks."""
    path = ROOT / name
    assert path.exists(), f"{name} is gone: take it off NOT_YET_MARKED"
    assert unmarked(path), f"{name} is marked now: take it off NOT_YET_MARKED"


# -- the checker on samples -------------------------------------------------------

BAD_TEMPLATE = """{% load i18n %}<h1>{% translate "Daily" %}</h1>
<p>Your best time</p>
<button aria-label="Close the overlay">{% translate "Close" %}</button>
<img alt="{{ name }} wins" src="x.png">
{% include "x.html" with submit="Log in" %}
{% blocktranslate %}Fine here{% endblocktranslate %}<span title="{% translate 'Fine' %}">·</span>
<script>const bad = "not text to a template";</script><kbd>Esc</kbd> <code>make all</code>
{{ value|default:"Nobody yet" }}
"""

BAD_MODULE = """import { t, tn, tf } from "./i18n.js";
$("#a").textContent = "Copied";
$("#b").textContent = t("Fine");
el.setAttribute("aria-label", `${name}: empty`);
el.setAttribute("data-x", "shown");
announce(ok ? t("Fine") : "You won!");
say(tf(t("Deal %(n)s"), { n: 3 }));
const NAMES = { home: "went home to the tomb" };
const selector = ".slot .card";  // code, not text
console.warn("the socket closed early");  // i18n: not text
const query = "(prefers-reduced-motion: reduce)", fields = "input, select, textarea";
$("#c").title = tn("one card", "many cards", n) + " left";
slot.innerHTML = `<span class="x">${t("Fine")}</span>`;
slot.innerHTML = `<span class="x">Stock</span>`;
"""


def test_the_template_checker_finds_unmarked_text() -> None:
    found = {finding.text for finding in unmarked_in_template(BAD_TEMPLATE)}
    assert found == {"Your best time", 'aria-label="Close the overlay"', 'alt="… wins"',
                     "Log in", "Nobody yet"}


def test_the_template_checker_passes_marked_text() -> None:
    good = ('{% load i18n %}<title>{% block title %}{% translate "Play" %}{% endblock %}</title>'
            '<a href="{% url "x" %}"{% if a %} aria-current="page"{% endif %}>{% translate "A" %}'
            '</a> · 52 {# a comment #}{% comment %}Not shown{% endcomment %}')
    assert unmarked_in_template(good) == []


def test_the_module_checker_finds_unmarked_strings() -> None:
    found = [(finding.line, finding.text) for finding in unmarked_in_module(BAD_MODULE)]
    assert found == [(2, "Copied"), (4, "${…}: empty"), (6, "You won!"),
                     (8, "went home to the tomb"), (12, " left"),
                     (14, '<span class="x">Stock</span>')]


def test_the_module_checker_passes_marked_strings() -> None:
    good = 'import { t } from "./i18n.js";\nannounce(t("Share line copied"));\n' \
           'const re = /a "b" c/g; x.textContent = String(n);\n// a "comment with words"\n' \
           'x.textContent = "\\u00b7 \\u{2713}";\n'
    assert unmarked_in_module(good) == []
