""""Winnable only" on every game's play page: offered exactly where the server has
proved deals, dealt by the button and by N (the box just ticked keeps the focus and
must not eat the key), a full table each time with the game's own home count; and a
refused deal leaves the table there with a translated message, never an empty one."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from game.freeplay import winnable_lines
from patience import GAMES, rules_of

from .board_driver import ready
from .conftest import OUTPUT, ROOT, Site, client_address, serving

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
EVERY_VARIANT = [(game.slug, slug) for game in GAMES.values() for slug in game.variants]
SHOTS = ROOT / "docs" / "screenshots"

CURRENT_GAME = """async () => {
  const id = new URLSearchParams(location.search).get('game');
  return id && (await (await fetch('/api/games/' + id + '/')).json());
}"""


def new_tab(chromium: Any, site: Site, viewport: dict[str, int] = LAPTOP,
            language: str | None = None) -> Any:
    context = chromium.new_context(base_url=site.base_url, viewport=viewport,
                                   extra_http_headers=client_address())
    if language:
        context.add_cookies([{"name": "django_language", "value": language,
                              "url": site.base_url}])
    context.set_default_timeout(15_000)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.errors = errors
    return tab


@pytest.fixture
def laptop(chromium: Any, site: Site) -> Iterator[Any]:
    tab = new_tab(chromium, site)
    yield tab
    tab.context.close()
    assert not tab.errors, f"JavaScript errors on the page: {tab.errors}"


def current_game(tab: Any) -> dict[str, Any]:
    game = tab.evaluate(CURRENT_GAME)
    assert game, "the page follows no game"
    return game


def wait_for_another_game(tab: Any, before: str | None) -> dict[str, Any]:
    tab.wait_for_function(
        "before => { const id = new URLSearchParams(location.search).get('game');"
        " return id && id !== before && document.querySelector('#table').ariaBusy === 'false'; }",
        arg=before)
    return current_game(tab)


def card_count(variant: str) -> int:
    rules = rules_of(variant)
    return rules.table(rules.variants[variant]).card_count


def assert_full_table(tab: Any, game: dict[str, Any]) -> None:
    """Every card of the deal is on the table: the state's piles hold them all, and each
    pile that holds a card shows one."""
    variant = game["variant"]["slug"]
    piles = game["state"]["piles"]
    held = sum(pile["down"] + len(pile["up"]) for pile in piles.values())
    assert held == card_count(variant), (variant, held)
    for name, pile in piles.items():
        if pile["down"] or pile["up"]:
            assert tab.locator(f'#table [data-slot="{name}"] .card').count() > 0, (variant, name)
    assert tab.inner_text("#message") == ""


def assert_winnable(tab: Any, game: dict[str, Any], variant: str) -> None:
    assert game["variant"]["slug"] == variant
    assert game["deal_kind"] == "winnable" and game["deal"] in winnable_lines(variant)
    assert "proved winnable" in tab.inner_text("#title")
    assert_full_table(tab, game)


@pytest.mark.parametrize(("game", "variant"), EVERY_VARIANT, ids=[v for _, v in EVERY_VARIANT])
def test_winnable_only_deals_by_the_button_and_by_n_in_every_variant(
        laptop: Any, game: str, variant: str) -> None:
    tab = laptop
    tab.goto(f"/{game}/{variant}/")
    ready(tab)
    before = current_game(tab)
    assert before["deal_kind"] == "number"
    assert_full_table(tab, before)
    offered = bool(winnable_lines(variant))  # the server's data: its proved deals
    assert tab.is_visible("#winnable-only") == offered
    if not offered:
        return
    tab.check("#winnable")

    tab.click("#new")
    by_button = wait_for_another_game(tab, before["id"])
    assert_winnable(tab, by_button, variant)

    tab.focus("#winnable")  # the box just ticked has the focus: N is still the page's key
    tab.keyboard.press("n")
    by_key = wait_for_another_game(tab, by_button["id"])
    assert_winnable(tab, by_key, variant)

    tab.reload()  # the box is remembered, and the first deal of a visit is winnable too
    ready(tab)
    assert tab.is_checked("#winnable")


@pytest.mark.parametrize("game", list(GAMES))
def test_the_home_counter_counts_the_game_s_own_cards(laptop: Any, game: str) -> None:
    tab = laptop
    variant = GAMES[game].default_variant.slug
    total = card_count(variant)
    tab.goto(f"/{game}/{variant}/")
    assert tab.inner_text("#home").endswith(f" of {total}")  # as the page comes, no game yet
    ready(tab)
    home = current_game(tab)["state"]["home"]
    assert tab.inner_text("#home") == f"{home} of {total}"
    has_a_tomb = "tomb" in current_game(tab)["state"]
    assert tab.locator("#tomb-counter").locator("..").is_hidden() != has_a_tomb


@pytest.mark.parametrize(("variant", "viewport"), [
    ("st-helena", "desktop"), ("st-helena", "phone"), ("cross", "desktop"), ("cross", "phone")])
def test_a_winnable_deal_looks_right(
        chromium: Any, site: Site, variant: str, viewport: str) -> None:
    tab = new_tab(chromium, site, LAPTOP if viewport == "desktop" else PHONE)
    game = next(game for game, slug in EVERY_VARIANT if slug == variant)
    tab.goto(f"/{game}/{variant}/")
    ready(tab)
    before = current_game(tab)["id"]
    tab.check("#winnable")
    tab.click("#new")
    assert_winnable(tab, wait_for_another_game(tab, before), variant)
    tab.wait_for_timeout(400)  # the deal's cards have landed
    tab.screenshot(path=str(OUTPUT / f"winnable-{variant}-{viewport}.png"))
    assert not tab.errors
    tab.context.close()


# -- a server with proved deals for one variant only -------------------------------------

@pytest.fixture(scope="module")
def classic_only(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    proved = tmp_path_factory.mktemp("winnable")
    shipped = ROOT / "solver_worker" / "data" / "winnable" / "classic.txt"
    (proved / "classic.txt").write_text(shipped.read_text())
    workdir = tmp_path_factory.mktemp("classic-only")
    with serving(workdir, WINNABLE_DEALS_DIR=str(proved)) as running:
        yield running


def test_the_option_is_absent_where_no_deal_is_proved_and_follows_the_variant(
        chromium: Any, classic_only: Site) -> None:
    tab = new_tab(chromium, classic_only)
    tab.goto("/")  # the Tomb: its variant chosen on the page, without a new address
    ready(tab)
    for variant, offered in [("classic", True), ("cross", False), ("three-card", False),
                             ("classic", True)]:
        before = current_game(tab)["id"]
        tab.select_option("#variant", variant)
        wait_for_another_game(tab, before)
        assert tab.is_visible("#winnable-only") == offered, variant
    for game in ("st-helena", "klondike"):
        tab.goto(f"/{game}/")
        ready(tab)
        assert tab.is_hidden("#winnable-only"), game

    assert not tab.errors
    tab.context.close()


def test_a_visit_with_the_box_ticked_deals_an_ordinary_deal_where_none_is_proved(
        chromium: Any, classic_only: Site) -> None:
    tab = new_tab(chromium, classic_only)
    tab.goto("/st-helena/")
    ready(tab)
    tab.evaluate("localStorage.setItem('tomb.winnable', 'on')")
    tab.goto("/napoleons-tomb/cross/")  # no cross game yet: the page's first request deals
    ready(tab)
    game = current_game(tab)
    assert game["deal_kind"] == "number" and tab.is_hidden("#winnable-only")
    assert_full_table(tab, game)
    assert not tab.errors
    tab.context.close()


def test_a_refused_winnable_deal_keeps_the_table_and_says_why_in_the_player_s_language(
        chromium: Any, classic_only: Site) -> None:
    """A page whose word on the proved deals is out of date (the server's list changed
    since it was loaded): the server refuses, the player keeps the game on the table."""
    tab = new_tab(chromium, classic_only, language="fi")
    tab.goto("/")
    ready(tab)
    tab.select_option("#variant", "classic")
    kept = wait_for_another_game(tab, current_game(tab)["id"])
    tab.check("#winnable")
    tab.evaluate("document.querySelector('#variant option[value=cross]').dataset.proved = '9'")

    tab.select_option("#variant", "cross")
    tab.wait_for_function("document.querySelector('#message').textContent !== ''")

    message = tab.inner_text("#message")
    assert "Napoleonin hauta, perinteinen risti" in message and "todistetusti" in message
    assert message.count("Napoleonin hauta") == 1
    assert current_game(tab)["id"] == kept["id"]  # the game before, still followed
    assert tab.input_value("#variant") == "classic"
    tab.screenshot(path=str(OUTPUT / "winnable-refused-fi.png"))
    assert_table_playable(tab, kept)
    assert not tab.errors
    tab.context.close()


def assert_table_playable(tab: Any, game: dict[str, Any]) -> None:
    piles = game["state"]["piles"]
    assert all(tab.locator(f'#table [data-slot="{name}"] .card').count() > 0
               for name, pile in piles.items() if pile["down"] or pile["up"])
    tab.evaluate("document.activeElement.blur()")  # off the variant's list, which takes letters
    tab.keyboard.press("d")  # the stock still turns: the table answers
    tab.wait_for_function("document.querySelector('#moves').textContent === '1'")
