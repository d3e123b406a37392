"""Every game's rules page fits a phone: at 390x844, in English, Russian and Finnish, the
page never scrolls sideways and the labelled picture of the table (each pile and its
name) lies inside the screen. Screenshots of the pictures to
test-output/rules-picture-<game>-<language>-phone.png."""

from __future__ import annotations

from typing import Any

import pytest

from patience import GAMES

from .conftest import OUTPUT, client_address

PHONE = {"width": 390, "height": 844}
LANGUAGES = ["en", "ru", "fi"]

# The page's width against the screen's, and the drawn piles reaching past its edges.
FITS = """() => {
  const drawn = '.drawn-table .drawn-pile, .drawn-table .drawn-name, .table-svg';
  const outside = [...document.querySelectorAll(drawn)]
    .filter((element) => {
      const box = element.getBoundingClientRect();
      return box.left < -0.5 || box.right > innerWidth + 0.5;
    })
    .map((element) => element.textContent.trim());
  const picture = document.querySelector('.drawn-table, .table-svg');
  return { scroll: document.documentElement.scrollWidth, width: innerWidth, outside,
           picture: picture !== null, language: document.documentElement.lang };
}"""


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_rules_page_s_picture_fits_a_phone(chromium: Any, site: Any, game: str,
                                               language: str) -> None:
    context = chromium.new_context(base_url=site.base_url, viewport=PHONE, locale=language,
                                   has_touch=True, is_mobile=True,
                                   extra_http_headers=client_address())
    try:
        tab = context.new_page()
        tab.goto(f"/{game}/rules/")
        tab.wait_for_load_state("load")
        found = tab.evaluate(FITS)
        assert found["language"] == language, found
        assert found["picture"], f"no picture of the table on {game}'s rules page"
        assert found["scroll"] <= found["width"], f"{game} in {language} scrolls sideways: {found}"
        assert found["outside"] == [], f"{game} in {language}: off the screen {found['outside']}"
        tab.locator(".drawn-table, .table-svg").first.scroll_into_view_if_needed()
        tab.screenshot(path=str(OUTPUT / f"rules-picture-{game}-{language}-phone.png"))
    finally:
        context.close()
