"""The daily page and the rules page in Russian and Finnish, in Chromium at desktop size:
translated words, the date as the language writes it. Screenshots go under test-output/
(i18n-daily-ru.png, i18n-rules-fi.png, ...) for a person to look at."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import OUTPUT

WORDS = {
    "ru": {"/napoleons-tomb/three-card/daily/": ["Партия дня", "Ваша партия", "Рейтинги"],
           "/rules/": ["Как играть в «Гробницу Наполеона»", "Шаг за шагом", "Клавиши"]},
    "fi": {"/napoleons-tomb/three-card/daily/": ["Päivän peli", "Sinun pelisi", "Tulostaulut"],
           "/rules/": ["Näin pelaat Napoleonin hautaa", "Vaihe vaiheelta", "Näppäimet"]},
}


@pytest.mark.parametrize("code", ["ru", "fi"])
def test_the_daily_and_rules_pages_in_the_language(page: Any, code: str) -> None:
    page.set_extra_http_headers({"Accept-Language": code})
    OUTPUT.mkdir(parents=True, exist_ok=True)
    for url, words in WORDS[code].items():
        page.goto(url)
        assert page.locator("html").get_attribute("lang") == code
        text = page.locator("main, body").first.inner_text()
        for word in words:
            assert word in text, (code, url, word)
        name = "daily" if "daily" in url else "rules"
        page.screenshot(path=str(OUTPUT / f"i18n-{name}-{code}.png"), full_page=name == "daily")
