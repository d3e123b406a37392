"""The languages in Chromium: the menu switches the page with no script of its own, and
tomb/i18n.js has Django's catalog (strings and formats) before any module uses it.
Screenshots of the play page in Russian and Finnish go under test-output/."""

from __future__ import annotations

from typing import Any

from .conftest import OUTPUT

READ_THE_CATALOG = """async () => {
  const i18n = await import('/static/tomb/i18n.js');
  return {
    loaded: typeof window.gettext === 'function',
    language: i18n.language(),
    firstDay: window.get_format('FIRST_DAY_OF_WEEK'),
    cards: [1, 2, 5].map((n) => i18n.tnf('%(count)s card', '%(count)s cards', n)),
    named: i18n.tf('%(card)s went home', { card: 'K' }),
  };
}"""


def test_the_menu_switches_the_language_and_the_catalog_follows(page: Any) -> None:
    page.set_extra_http_headers({"Accept-Language": "en"})
    page.goto("/")
    assert page.locator("html").get_attribute("lang") == "en"
    english = page.evaluate(READ_THE_CATALOG)
    assert english["loaded"] and english["firstDay"] == 0
    assert english["cards"] == ["1 card", "2 cards", "5 cards"]
    assert english["named"] == "K went home"

    page.select_option("#language-choice", "ru")
    with page.expect_navigation():
        page.get_by_role("button", name="Change language").click()
    assert page.locator("html").get_attribute("lang") == "ru"
    assert page.get_by_role("link", name="Правила", exact=True).is_visible()
    russian = page.evaluate(READ_THE_CATALOG)
    assert russian["loaded"] and russian["language"] == "ru" and russian["firstDay"] == 1
    OUTPUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUTPUT / "i18n-play-ru.png"))

    page.select_option("#language-choice", "fi")
    with page.expect_navigation():
        page.get_by_role("button", name="Сменить язык").click()
    assert page.locator("html").get_attribute("lang") == "fi"
    assert page.get_by_role("link", name="Säännöt", exact=True).is_visible()
    assert page.evaluate(READ_THE_CATALOG)["firstDay"] == 1
    page.screenshot(path=str(OUTPUT / "i18n-play-fi.png"))


def test_i18n_js_falls_back_to_english_when_the_catalog_cannot_load(page: Any) -> None:
    page.set_extra_http_headers({"Accept-Language": "ru"})
    page.route("**/jsi18n/", lambda route: route.abort())
    page.goto("/rules/")  # no module of its own: only the one imported here
    assert page.evaluate("""async () => {
      const i18n = await import('/static/tomb/i18n.js');
      return [typeof window.gettext, i18n.t('Undo'),
              i18n.tnf('%(count)s card', '%(count)s cards', 5), i18n.language()];
    }""") == ["undefined", "Undo", "5 cards", "ru"]
