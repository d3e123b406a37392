"""The board in Russian and Finnish: a move played on the board is announced in the page's
language (the card, where it came from and where it went, each in its case), the piles'
names are the language's, and a daily won on the board ends in a win overlay in that
language. Screenshots of the play page in both languages, on a desktop and a phone, go
under test-output/ (i18n-play-ru-1280x800.png, i18n-play-fi-390x844.png, ...): long
Russian and Finnish words must not break the layout."""

# Russian words are written with Cyrillic letters that look Latin: they are meant.
# ruff: noqa: RUF001

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from patience.tomb import THREE_CARD, Position, deal_from_seed, new_game, parse_move
from tests.service.lines import seeded_line, winning_line

from .board_driver import by_keyboard, ready, slot, still, wait_moves
from .conftest import OUTPUT, client_address
from .test_fair_play import todays_seed
from .test_pages import PASSWORD

DEAL = 1  # a 3-card deal the solver wins (test_board.py plays it to the end in English)
ENGLISH = re.compile(r"\b(?:went|turned|from the|picked up|You won|cards are home|stock|waste)\b")

# What each language must say, and words only it has.
WORDS: dict[str, dict[str, Any]] = {
    "ru": {
        "turned": "Из колоды в сброс:",  # "Stock turned: … on the waste."
        "script": re.compile(r"[а-яё]", re.IGNORECASE),
        "corner": "северо-западный угол",  # the pile's own name, not "north-west corner"
        "won": "Вы выиграли!",
        "home": "Все 52 карты на базах",
        "time": "Время",
        "board": "рейтинг",
    },
    "fi": {
        "turned": "Pakasta käännettiin:",
        "script": re.compile(r"[äö]", re.IGNORECASE),
        "corner": "luoteiskulma",
        "won": "Voitit!",
        "home": "Kaikki 52 korttia ovat peruspinoissa",
        "time": "Aika",
        "board": "tulostaulu",
    },
}


@pytest.fixture
def speaking(chromium: Any, site: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A page whose browser asks for one language (Playwright's locale: its Accept-Language)."""
    language, width, height = request.param
    context = chromium.new_context(base_url=site.base_url, locale=language,
                                   viewport={"width": width, "height": height},
                                   extra_http_headers=client_address())
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page, language
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def announced(page: Any) -> str:
    page.wait_for_function("document.querySelector('#announcer').textContent.trim() !== ''")
    return str(page.inner_text("#announcer"))


def open_deal_by_address(page: Any, deal: int) -> None:
    page.goto(f"/napoleons-tomb/three-card/?deal={deal}")
    ready(page)
    wait_moves(page, 0)


def label_of(page: Any, name: str) -> str:
    return str(page.get_attribute(slot(name), "aria-label"))


@pytest.mark.parametrize("speaking", [("ru", 1280, 800), ("fi", 1280, 800), ("ru", 390, 844),
                                      ("fi", 390, 844)], indirect=True,
                         ids=["ru-1280x800", "fi-1280x800", "ru-390x844", "fi-390x844"])
def test_a_move_on_the_board_is_announced_in_the_page_s_language(speaking: Any) -> None:
    page, language = speaking
    words = WORDS[language]
    open_deal_by_address(page, DEAL)
    assert page.locator("html").get_attribute("lang") == language
    corner = label_of(page, "nw")
    assert corner.startswith(words["corner"]) and not ENGLISH.search(corner), corner
    assert page.inner_text(slot("nw") + " .part") == words["corner"]

    line = winning_line(DEAL)
    position = new_game(DEAL, "three-card")
    page.focus(slot("stock"))
    said = []
    for turn, move in enumerate(line[:12]):
        by_keyboard(page, move)
        position.apply(parse_move(move))
        wait_moves(page, turn + 1)
        said.append(announced(page))
        page.evaluate("document.querySelector('#announcer').textContent = ''")
    assert said[0].startswith(words["turned"]), said[0]
    for sentence in said:  # whole sentences in the language, no English piece left in
        assert words["script"].search(sentence) and not ENGLISH.search(sentence), sentence
    placed = [s for s in said if not s.startswith(words["turned"])]
    assert placed, f"the first moves only turned the stock: {line[:12]}"

    # A card picked up from the waste, by pointer: said with its place's "from" form.
    still(page)
    if page.locator(slot("waste") + " .card.top").count():
        page.click(slot("waste") + " .card.top")
        picked = announced(page)
        assert words["script"].search(picked) and not ENGLISH.search(picked), picked
        page.keyboard.press("Escape")

    counter = page.inner_text("#home")
    assert re.fullmatch(r"\d+ (из|/) ?52|\d+/52", counter), counter
    still(page)
    size = "x".join(str(page.viewport_size[key]) for key in ("width", "height"))
    OUTPUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"i18n-play-{language}-{size}.png"))
    # Nothing spills sideways: the longest words fit the screen.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def sign_up_in_any_language(page: Any, site: Any) -> None:
    """test_pages.sign_up, by the form's field names rather than its English labels."""
    name = f"p{uuid.uuid4().hex[:10]}"
    page.goto("/accounts/signup/")
    page.fill("[name=username]", name)
    page.fill("[name=password1]", PASSWORD)
    page.fill("[name=password2]", PASSWORD)
    page.click("form:has([name=password2]) [type=submit]")
    page.wait_for_url(re.compile(r"/(\?.*)?$"))
    site.backdate_account(name, 30)


def play_all_but_the_last(page: Any, game: str, line: tuple[str, ...]) -> None:
    """The line's moves but the last, through the API (the board then plays the last)."""
    page.evaluate("""async ({game, moves}) => {
      const token = document.cookie.split("; ").find((c) => c.startsWith("csrftoken=")).slice(10);
      for (const move of moves) {
        const response = await fetch(`/api/games/${game}/moves/`, {method: "POST",
          credentials: "same-origin", body: JSON.stringify({move}),
          headers: {"Content-Type": "application/json", "X-CSRFToken": token}});
        if (!response.ok) throw new Error(`${move}: ${response.status} ${await response.text()}`);
      }
    }""", {"game": game, "moves": list(line[:-1])})


@pytest.mark.parametrize("speaking", [("ru", 1280, 800), ("fi", 1280, 800)], indirect=True,
                         ids=["ru", "fi"])
def test_a_daily_won_on_the_board_ends_in_the_page_s_language(speaking: Any, site: Any) -> None:
    page, language = speaking
    words = WORDS[language]
    sign_up_in_any_language(page, site)  # an account old enough for today's ranked daily
    game = page.evaluate("""async () => {
      const token = document.cookie.split("; ").find((c) => c.startsWith("csrftoken=")).slice(10);
      const response = await fetch("/api/daily/three-card/play/", {method: "POST",
        credentials: "same-origin", headers: {"X-CSRFToken": token}});
      return (await response.json()).id;
    }""")
    seed = todays_seed(site)
    line = seeded_line(seed)
    play_all_but_the_last(page, game, line)
    position = Position(deal_from_seed(seed), THREE_CARD)
    for move in line[:-1]:
        position.apply(parse_move(move))

    page.goto(f"/?game={game}")
    ready(page)
    assert words["script"].search(page.inner_text("#title")), page.inner_text("#title")
    wait_moves(page, len(line) - 1)
    page.focus(slot("stock"))
    by_keyboard(page, line[-1])
    page.wait_for_selector("#win[open]")
    assert page.inner_text("#win-title") == words["won"]
    assert words["home"] in page.inner_text("#win-text")
    assert words["time"] in page.inner_text("#win-facts")
    page.wait_for_function("words => document.querySelector('#announcer').textContent"
                           ".includes(words)", arg=words["won"])
    said = page.inner_text("#announcer")
    assert said.index(words["won"]) > 0  # the last move first, then the win
    assert not ENGLISH.search(said), said
    page.wait_for_function("document.querySelector('#win-rank').textContent !== ''")
    assert words["board"] in page.inner_text("#win-rank").lower()
    page.screenshot(path=str(OUTPUT / f"i18n-win-{language}.png"))


# St. Helena's piles are numbered and its foundations named by the card they start with.
ST_HELENA = {
    "ru": {"p5": "стопка 5: ", "k1": "база пик от короля", "a3": "база треф от туза"},
    "fi": {"p5": "pino 5: ", "k1": "patakuninkaan peruspino", "a3": "ristiässän peruspino"},
}


@pytest.mark.parametrize("speaking", [("ru", 390, 844), ("fi", 390, 844)], indirect=True,
                         ids=["ru", "fi"])
def test_st_helena_s_piles_are_named_in_the_page_s_language(speaking: Any) -> None:
    page, language = speaking
    page.goto("/st-helena/st-helena/?deal=1")
    ready(page)
    wait_moves(page, 0)
    for name, words in ST_HELENA[language].items():
        label = label_of(page, name)
        assert label.startswith(words) and not ENGLISH.search(label), label
        title = str(page.get_attribute(slot(name), "title"))
        assert WORDS[language]["script"].search(title) or language == "fi", title
        assert not re.search(r"\b(?:dealt|foundation|down from|up to)\b", title), title
    still(page)
    page.screenshot(path=str(OUTPUT / f"i18n-st-helena-{language}-390x844.png"))
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
