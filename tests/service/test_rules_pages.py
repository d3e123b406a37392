"""Every game's rules page, in English, Russian and Finnish: a labelled picture of its
table, the steps of play as an ordered list, and questions; the Tomb's page explains the
traditional cross; St. Helena's says where a pile's place limits its card and shows its
measured win rates. No words of the new text left in English on the ru/fi pages."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from patience import GAMES

from .conftest import Browser

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "ru", "fi")
PAGES = {"napoleons-tomb": "/rules/", "st-helena": "/st-helena/rules/",
         "klondike": "/klondike/rules/"}


class Outline(HTMLParser):
    """What the tests look for: the labels of a picture of the table (an SVG's text, a
    drawn pile's name), the steps (the items of <ol class="steps">), the h2 ids, and the
    page's visible text."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, dict[str, str]]] = []
        self.labels: list[str] = []
        self.steps = 0
        self.ids: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "li" and any(t == "ol" and "steps" in a.get("class", "")
                               for t, a in self.stack[-1:]):
            self.steps += 1
        if tag == "h2" and "id" in found:
            self.ids.append(found["id"])
        self.stack.append((tag, found))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if not data.strip() or any(t in ("style", "script", "title") for t, _ in self.stack):
            return
        self.text.append(data)
        inside_picture = any(t == "svg" or "drawn-table" in a.get("class", "")
                             for t, a in self.stack)
        labelled = self.stack and ("label" in self.stack[-1][1].get("class", "")
                                   or "drawn-name" in self.stack[-1][1].get("class", ""))
        if inside_picture and labelled:
            self.labels.append(data.strip())


def outline(browser: Browser, url: str, language: str) -> Outline:
    browser.client.cookies["django_language"] = language
    response = browser.get(url)
    assert response.status_code == 200, (url, language)
    parsed = Outline()
    parsed.feed(response.content.decode())
    return parsed


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_s_rules_page_has_a_labelled_picture_steps_and_questions(
        alice: Browser, game: str, language: str) -> None:
    page = outline(alice, PAGES.get(game, f"/{game}/rules/"), language)

    assert len(page.labels) >= 5, (game, language, page.labels)
    assert page.steps >= 5, (game, language)
    assert "steps" in page.ids and "faq" in page.ids, page.ids


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_drawn_table_names_every_pile_of_the_game(alice: Browser, language: str) -> None:
    page = outline(alice, "/st-helena/rules/", language)
    # twelve piles, eight foundations and the stock, each named once in the picture
    assert len(page.labels) == 21 and len(set(page.labels)) == 21, page.labels


def test_st_helena_s_picture_shades_the_piles_by_what_their_place_allows(alice: Browser) -> None:
    html = alice.get("/st-helena/rules/").content.decode()
    picture = html[html.index('class="drawn-table"'):html.index("</figure>")]
    shades = re.findall(r'drawn-pile role-pile fan-\w+ shade-(\d)', picture)
    # p1-p4 Kings only, p5-p6 either, p7-p10 Aces only, p11-p12 either
    assert shades == list("000011222211")
    assert "shade-" not in "".join(re.findall(r'drawn-pile role-foundation[^"]*', picture))
    key = html[html.index('class="table-key"'):]
    assert "pile 1 to pile 4" in key and "pile 5, pile 6, pile 11, pile 12" in key
    assert "pile 7 to pile 10" in key


def test_st_helena_s_page_explains_the_places_the_redeals_and_its_win_rates(
        alice: Browser) -> None:
    text = " ".join(outline(alice, "/st-helena/rules/", "en").text)
    for words in ("While the stock lasts, the place decides", "Redeal, twice",
                  "Why can a card not go to the foundation it fits?",
                  "What does a redeal do to the order of the cards?",
                  "The solver, which sees the stock", "Careful player"):
        assert words in text, words


def test_the_tomb_s_page_has_the_cross_with_its_picture_steps_and_questions(
        alice: Browser) -> None:
    html = alice.get("/rules/").content.decode()
    page = outline(alice, "/rules/", "en")
    assert page.ids.index("variants") < page.ids.index("cross") < page.ids.index("faq")
    assert 'href="#cross"' in html and 'href="/napoleons-tomb/cross/"' in html
    cross = html[html.index('<section aria-labelledby="cross">'):]
    cross = cross[:cross.index("</section>")]
    assert cross.count("<li>") >= 6 and "cross, north" in cross and "cross, south" in cross
    for words in ("A cross place fills itself", "What differs from the 3-card and classic deals",
                  "grand tomb"):
        assert words in cross, words
    assert "What is a grand tomb?" in html and "Why did a place of the cross stay empty?" in html


# The new text's English, which must not show on the Russian and Finnish pages.
ENGLISH = {
    "/rules/": ["The traditional cross", "Deal the cross", "A cross place fills itself",
                "What is a grand tomb?", "cross, north", "Why did a place of the cross"],
    "/st-helena/rules/": ["While the stock lasts", "Redeal, twice", "Are the two decks mixed?",
                          "Piles of one colour take the same cards", "pile 1 to pile 4",
                          "Where this site chooses", "No card moves by itself"],
    "/klondike/rules/": ["Step by step", "Piles of one colour", "On this page",
                         "Build the columns down"],
}


@pytest.mark.parametrize("language", ["ru", "fi"])
@pytest.mark.parametrize("url", sorted(ENGLISH))
def test_the_new_text_is_translated(alice: Browser, url: str, language: str) -> None:
    text = " ".join(outline(alice, url, language).text)
    for words in ENGLISH[url]:
        assert words not in text, (url, language, words)


@pytest.mark.parametrize(("language", "welcome"), [
    ("en", "the piles above the Kings play only to Kings"),
    ("ru", "стопки над королями играют только на королей"),
    ("fi", "kuninkaiden yläpuolen pinot pelaavat vain kuninkaille"),
])
def test_st_helena_s_welcome_says_what_is_true_on_a_phone(
        alice: Browser, language: str, welcome: str) -> None:
    alice.client.cookies["django_language"] = language
    html = alice.client.get("/st-helena/", follow=True).content.decode()
    line = html[html.index('id="welcome"'):]
    line = line[:line.index("</p>")]
    assert welcome in line and "point at" not in line


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_phone_picture_puts_stock_and_waste_below_as_the_board_does(game: str) -> None:
    """On a phone the picture is laid out as the board lays the table there: the stock and
    the waste on a row of their own under the rest, the columns they leave closed up;
    a table whose other piles fill every column keeps its places."""
    from game.payloads import table_of
    from game.rules_page import narrow_places

    table = table_of(GAMES[game].default_variant.slug)
    piles = [dict(pile) for pile in table["piles"]]
    size = narrow_places(table, piles)
    cells = {(pile["narrow_row"], pile["narrow_col"]) for pile in piles}
    assert len(cells) == len(piles)  # no two piles on one place
    assert all(0 <= row < size["rows"] and 0 <= col < size["cols"] for row, col in cells)
    below = [pile for pile in piles if pile["role"] in ("stock", "waste")]
    rest = [pile for pile in piles if pile not in below]
    if size["cols"] < table["cols"]:  # rearranged: stock first, on the last row
        assert {pile["narrow_row"] for pile in below} == {size["rows"] - 1}
        assert below[0]["role"] == "stock" or min(
            pile["narrow_col"] for pile in below if pile["role"] == "stock") == 0
        assert max(pile["narrow_row"] for pile in rest) < size["rows"] - 1
    else:
        assert all((pile["narrow_row"], pile["narrow_col"]) == (pile["row"], pile["col"])
                   for pile in piles)


def test_the_two_deck_phone_picture_has_six_columns() -> None:
    from game.payloads import table_of
    from game.rules_page import narrow_places

    table = table_of("two-deck-tomb")
    piles = [dict(pile) for pile in table["piles"]]
    assert narrow_places(table, piles) == {"rows": 6, "cols": 6}
