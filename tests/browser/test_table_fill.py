"""A table that fills the screen, and nothing covering a card: for every game and variant on
a laptop (1280x800) and a phone (390x844), in English, Russian and Finnish.

- The piles (the bounding box of every .slot) fill at least 70% of the laptop's height or
  75% of its width, and 85% of the phone's width; the page never scrolls.
- Nothing written on the table covers a card or the rank an empty pile starts with: the
  pile names of a first visit, the counts, the hint's message, the welcome and the box
  of a lost deal each sit in their own space (rectangles from getBoundingClientRect).
- A pile's name is one line in any language; cut short, it shows at least five letters,
  else it is left out and the caption shows the counts alone; its whole name is in the
  pile's title and accessible name.
- The card sizes S, M, L and XL differ on a laptop, for every game.
- A long Klondike column (a real one, reached along a solver's line) fans to fit at
  every size, on both screens.
- The phone's header shows every link (Sign up, Log in, the language menu) with no
  sideways scroll.

The figures measured go to test-output/table-fill.json; screenshots of each table to
test-output/table-<game>-<variant>-<desktop|phone>.png (docs/screenshots keeps a copy)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from patience import rules_of
from solver_worker.driver import Budget
from solver_worker.games import solve_position

from .board_driver import open_menu, ready, slot, still, wait_moves
from .conftest import OUTPUT, client_address
from .test_board_devices import LOSING_CLASSIC
from .test_new_games import latest_game, play_by_api

VARIANTS = ["classic", "three-card", "cross", "st-helena", "turn-1", "turn-3"]
SCREENS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
LANGUAGES = ["en", "ru", "fi"]
SIZES = ["S", "M", "L", "XL"]
DEAL = 5
# A turn-1 deal whose solver line builds a column of 17 cards (6 face down) on its way.
LONG_COLUMN_DEAL = 27
LONG_COLUMN = 15  # at least this many cards in the column the test looks at
FIGURES = OUTPUT / "table-fill.json"

# The piles' bounding box against the viewport.
FILL = """() => {
  const boxes = [...document.querySelectorAll('#table .slot')]
    .map((s) => s.getBoundingClientRect());
  const left = Math.min(...boxes.map((b) => b.left));
  const right = Math.max(...boxes.map((b) => b.right));
  const top = Math.min(...boxes.map((b) => b.top));
  const bottom = Math.max(...boxes.map((b) => b.bottom));
  const card = document.querySelector('#table .slot .card').getBoundingClientRect();
  return { width: (right - left) / innerWidth, height: (bottom - top) / innerHeight,
    right, bottom, card: card.width,
    scroll: [document.documentElement.scrollWidth, innerWidth,
             document.documentElement.scrollHeight, innerHeight] };
}"""

# Every shown thing that writes on or beside the table, against every card's rectangle
# (an empty pile's card carries the rank it starts with): the overlaps, in words.
OVERLAPS = """() => {
  const shown = (element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
  };
  const covers = [...document.querySelectorAll(
    '#table .cap > *, #message, #end, #welcome, #actions, #bar, #dock, .race-strip')]
    .filter((element) => shown(element) && element.textContent.trim() !== '');
  const cards = [...document.querySelectorAll('#table .card')].filter(shown);
  const found = [];
  for (const cover of covers) {
    const a = cover.getBoundingClientRect();
    for (const card of cards) {
      const b = card.getBoundingClientRect();
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 0.5 && y > 0.5) {
        const pile = card.closest('[data-slot]').dataset.slot;
        found.push(`${cover.id || cover.className} "${cover.textContent.trim().slice(0, 30)}" on `
          + `${card.dataset.card || card.textContent.trim() || 'a card'} of ${pile}`);
      }
    }
  }
  return found;
}"""

# Each pile name of a first visit: shown or left out (its caption shows the counts
# alone); a shown one is one line, and where the line cuts it, how many of its letters
# and the ellipsis fit; every name said whole by its pile.
NAMES = """() => {
  const canvas = document.createElement('canvas').getContext('2d');
  const lettersShown = (part, style) => {
    canvas.font = style.font;
    const room = part.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
      - canvas.measureText('\u2026').width;
    const text = part.firstChild;
    const range = document.createRange();
    range.setStart(text, 0);
    let letters = 0;
    while (letters < text.length) {
      range.setEnd(text, letters + 1);
      if (range.getBoundingClientRect().width > room) break;
      letters += 1;
    }
    return letters;
  };
  const uncovered = '#table .slot:not(.foundation.full, .cell.full, .pile.full) .part';
  return [...document.querySelectorAll(uncovered)]
    .map((part) => {
      const slot = part.closest('[data-slot]');
      const style = getComputedStyle(part);
      const shown = part.getBoundingClientRect().width > 0;
      const cut = shown && part.scrollWidth > part.clientWidth + 1;
      return { pile: slot.dataset.slot, name: part.textContent, shown, cut,
        height: part.getBoundingClientRect().height,
        line: parseFloat(style.lineHeight) || 1.2 * parseFloat(style.fontSize),
        letters: cut ? lettersShown(part, style) : part.textContent.length,
        said: (slot.title || '') + ' ' + (slot.getAttribute('aria-label') || '') };
    });
}"""
# A name cut shorter than this many letters tells a player nothing: it is left out.
NAME_SHOWN = 5


def address(variant: str) -> str:
    return f"/{rules_of(variant).slug}/{variant}/"


def shot_name(variant: str, screen: str) -> str:
    return f"table-{rules_of(variant).slug}-{variant}-{screen}.png"


def record(key: str, figures: dict[str, Any]) -> None:
    """Keep the figures measured, for the record (a run's file, rewritten per test)."""
    known = json.loads(FIGURES.read_text()) if FIGURES.exists() else {}
    known[key] = figures
    FIGURES.write_text(json.dumps(known, indent=1, sort_keys=True))


@pytest.fixture
def screen_tab(chromium: Any, site: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A new visitor (a first visit: the piles are named) on one screen, in one language."""
    screen, language = request.param
    phone = screen == "phone"
    context = chromium.new_context(base_url=site.base_url, viewport=SCREENS[screen],
                                   locale=language, has_touch=phone, is_mobile=phone,
                                   extra_http_headers=client_address())
    context.set_default_timeout(20_000)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab, screen, language
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def open_variant(tab: Any, variant: str, deal: int = DEAL) -> None:
    tab.goto(f"{address(variant)}?deal={deal}")
    ready(tab)
    wait_moves(tab, 0)
    tab.wait_for_function("document.querySelector('#table .slot .card') !== null")
    still(tab)


def settle(tab: Any) -> None:
    """Two frames: the table refits after a resize before it is measured."""
    tab.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def choose_size(tab: Any, size: str) -> None:
    open_menu(tab)
    tab.click(f'[data-size="{size}"]')
    tab.evaluate("document.querySelector('#menu').open = false")
    settle(tab)


def assert_fills(tab: Any, screen: str, figures: dict[str, Any]) -> None:
    width, height = figures["width"], figures["height"]
    if screen == "desktop":
        assert height >= 0.70 or width >= 0.75, f"the piles fill {width:.0%} x {height:.0%}"
    else:
        assert width >= 0.85, f"the piles fill {width:.0%} of the phone's width"
    scroll_width, inner_width, scroll_height, inner_height = figures["scroll"]
    assert scroll_width <= inner_width and scroll_height <= inner_height, figures["scroll"]


def assert_nothing_covers_a_card(tab: Any) -> None:
    assert tab.evaluate(OVERLAPS) == []


SCREEN_LANGUAGES = [(screen, language) for screen in SCREENS for language in LANGUAGES]


@pytest.mark.parametrize("screen_tab", SCREEN_LANGUAGES, indirect=True,
                         ids=[f"{s}-{lang}" for s, lang in SCREEN_LANGUAGES])
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_table_fills_the_screen_and_its_names_cover_no_card(screen_tab: Any,
                                                                 variant: str) -> None:
    tab, screen, language = screen_tab
    open_variant(tab, variant)
    assert tab.is_visible("#welcome")  # a first visit: every empty pile is named
    figures = tab.evaluate(FILL)
    record(f"{variant} {screen} {language}", {"width": round(figures["width"], 3),
                                               "height": round(figures["height"], 3),
                                               "card": round(figures["card"], 1)})
    assert_fills(tab, screen, figures)
    assert_nothing_covers_a_card(tab)
    names = tab.evaluate(NAMES)
    assert names, "a first visit names the piles"
    if screen == "desktop":
        assert any(name["shown"] for name in names), "a laptop has room for the names"
    for name in names:
        assert name["name"] in name["said"], f"{name['name']} is said nowhere whole"
        if not name["shown"]:
            continue
        assert name["height"] < 1.6 * name["line"] + 4, f"{name['name']} takes more than a line"
        if name["cut"]:
            assert name["letters"] >= NAME_SHOWN, (
                f"{name['name']} is cut to {name['letters']} letters on the {name['pile']}")
    # Once the welcome is read the names go, and the table takes the room it left.
    tab.click("#welcome-ok")
    settle(tab)
    after = tab.evaluate(FILL)
    assert_fills(tab, screen, after)
    assert after["card"] >= figures["card"]
    if language == "en":
        tab.screenshot(path=str(OUTPUT / shot_name(variant, screen)))


@pytest.mark.parametrize("screen_tab", [("desktop", "en"), ("phone", "en")], indirect=True,
                         ids=["desktop", "phone"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_hint_s_message_has_its_own_line(screen_tab: Any, variant: str) -> None:
    tab, screen, _ = screen_tab
    open_variant(tab, variant)
    before = tab.evaluate(FILL)
    tab.click("#hint")
    tab.wait_for_function("/^(Hint|No move)/.test(document.querySelector('#message').textContent)")
    tab.wait_for_function("document.querySelector('#table .slot.hinted') !== null"
                          " || !document.querySelector('#message').textContent.startsWith('Hint')")
    settle(tab)
    assert_nothing_covers_a_card(tab)
    after = tab.evaluate(FILL)
    assert_fills(tab, screen, after)
    # The line was kept for it: the table stays (on a phone a hint of three lines or more
    # may take a line from a table that fills the height, and the cards shrink a little).
    moved = abs(after["card"] - before["card"])
    assert moved < (1 if screen == "desktop" else 0.06 * before["card"]), (before, after)


@pytest.mark.parametrize("screen_tab", [("desktop", "en"), ("phone", "en")], indirect=True,
                         ids=["desktop", "phone"])
def test_the_box_of_a_lost_deal_covers_no_card(screen_tab: Any) -> None:
    tab, screen, _ = screen_tab
    open_variant(tab, "classic", 2)
    play_by_api(tab, latest_game(tab)["id"], list(LOSING_CLASSIC))
    tab.reload()
    ready(tab)
    tab.wait_for_selector("#end.lost:not([hidden])")
    settle(tab)
    assert "lost" in tab.inner_text("#end-text")
    assert_nothing_covers_a_card(tab)
    assert_fills(tab, screen, tab.evaluate(FILL))
    for button in ("#end-undo", "#end-replay", "#end-new"):
        box = tab.locator(button).bounding_box()
        assert box and box["y"] + box["height"] <= SCREENS[screen]["height"], button
    tab.screenshot(path=str(OUTPUT / f"table-lost-classic-{screen}.png"))


@pytest.mark.parametrize("screen_tab", [("desktop", "en")], indirect=True, ids=["desktop"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_card_sizes_differ_on_a_laptop(screen_tab: Any, variant: str) -> None:
    tab, _, _ = screen_tab
    open_variant(tab, variant)
    widths = {}
    for size in [*SIZES, "auto"]:
        choose_size(tab, size)
        figures = tab.evaluate(FILL)
        scroll_width, inner_width, scroll_height, inner_height = figures["scroll"]
        assert scroll_width <= inner_width and scroll_height <= inner_height, (size, figures)
        widths[size] = figures["card"]
    record(f"{variant} sizes", widths)
    assert widths["S"] < widths["M"] < widths["L"] < widths["XL"] <= widths["auto"] + 0.5, widths


def longest_column_line(variant: str, deal: int) -> tuple[list[str], str]:
    """The moves of a solver's winning line up to where one column is longest, and that column."""
    rules = rules_of(variant)
    position = rules.new_game(deal, variant)
    line = list(solve_position(position, Budget(seconds=5)).line)
    assert line, "the solver wins the deal"
    table = rules.table(rules.variants[variant])
    columns = {pile.name for pile in table.piles if pile.fan == "down"}
    best = (0, 0, "")
    for played, move in enumerate(line):
        for name, pile in rules.visible_view(position)["piles"].items():
            count = pile["down"] + len(pile["up"])
            if name in columns and count > best[0]:
                best = (count, played, name)
        position.apply(rules.parse_move(move))
    count, played, name = best
    assert count >= LONG_COLUMN, f"the longest column on the way has {count} cards"
    return line[:played], name


@pytest.mark.parametrize("screen_tab", [("desktop", "en"), ("phone", "en")], indirect=True,
                         ids=["desktop", "phone"])
def test_a_long_klondike_column_fans_to_fit(screen_tab: Any) -> None:
    tab, screen, _ = screen_tab
    moves, column = longest_column_line("turn-1", LONG_COLUMN_DEAL)
    open_variant(tab, "turn-1", LONG_COLUMN_DEAL)
    game = latest_game(tab)["id"]
    play_by_api(tab, game, moves)
    tab.goto(f"{address('turn-1')}?game={game}")
    ready(tab)
    wait_moves(tab, len(moves))
    cards = tab.locator(slot(column) + " .card").count()
    assert cards >= LONG_COLUMN, cards
    for size in [*SIZES, "auto"]:
        choose_size(tab, size)
        fit = tab.evaluate("""(name) => {
          const pile = document.querySelector(`#table [data-slot="${name}"]`);
          const cards = [...pile.querySelectorAll('.card')].map((c) => c.getBoundingClientRect());
          const box = pile.getBoundingClientRect();
          const stage = document.querySelector('#stage').getBoundingClientRect();
          const faces = [...pile.querySelectorAll('.card[data-card]')]
            .map((c) => c.getBoundingClientRect());
          const steps = faces.slice(1).map((b, i) => b.top - faces[i].top);
          return { last: cards[cards.length - 1].bottom, pile: box.bottom, stage: stage.bottom,
                   height: innerHeight,
                   step: Math.min(...steps), width: faces[0].width,
                   scroll: document.documentElement.scrollHeight - innerHeight };
        }""", column)
        assert fit["last"] <= fit["pile"] + 0.5, (size, fit)
        assert fit["pile"] <= fit["stage"] + 0.5 <= fit["height"] + 0.5, (size, fit)
        assert fit["scroll"] <= 0, (size, fit)
        # The face-up steps shrink, but each still shows a corner's rank.
        assert fit["step"] >= 0.12 * fit["width"], (size, fit)
    assert_nothing_covers_a_card(tab)
    tab.screenshot(path=str(OUTPUT / f"table-klondike-long-column-{screen}.png"))


@pytest.mark.parametrize("screen_tab", [("phone", language) for language in LANGUAGES],
                         indirect=True, ids=LANGUAGES)
@pytest.mark.parametrize("where", ["/", "/rules/", "/klondike/turn-1/"])
def test_the_phone_header_shows_every_link(screen_tab: Any, where: str) -> None:
    tab, _, language = screen_tab
    tab.goto(where)
    tab.wait_for_selector(".site-header")
    found = tab.evaluate("""() => {
      const inside = (element) => { const b = element.getBoundingClientRect();
        return b.width > 0 && b.left >= 0 && b.right <= innerWidth + 0.5 && b.top >= 0; };
      const items = [...document.querySelectorAll(
        '.site-header a, .site-header select, .site-header button')];
      return { off: items.filter((item) => !inside(item))
                 .map((item) => item.textContent.trim() || item.id),
               count: items.length, scroll: [document.documentElement.scrollWidth, innerWidth],
               headerScroll: [document.querySelector('.site-header').scrollWidth,
                              document.querySelector('.site-header').clientWidth] };
    }""")
    assert found["off"] == [], f"off the screen in {language}: {found['off']}"
    for item in ("a[href*='signup']", "a[href*='login']", "#language-choice"):
        assert tab.locator(f".site-header {item}").is_visible(), item
    assert found["scroll"][0] <= found["scroll"][1], found
    assert found["headerScroll"][0] <= found["headerScroll"][1], found
