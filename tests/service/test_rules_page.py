"""The rules page: server-rendered, linked from every page's navigation and footer,
quoting the proved-deal counts that ship (the win rates: test_rules_win_rates.py)."""

from __future__ import annotations

import re

import pytest

from game import freeplay

from .conftest import Browser

pytestmark = pytest.mark.django_db


def test_the_rules_page_renders_without_a_script(alice: Browser) -> None:
    response = alice.get("/rules/")
    page = response.content.decode()

    assert response.status_code == 200 and "<script" not in page
    headings = re.findall(r"<h2 id=\"([a-z-]+)\"", page)
    assert headings == ["contents-title", "steps", "variants", "cross", "daily", "statistics",
                        "keys", "faq"]
    assert page.count("<h1>") == 1
    for words in ("6 down to Ace, four times", "from the waste only", "cannot be undone",
                  "mark the result assisted", "UTC", "unassisted before assisted",
                  "shown as a range", "Only what you have seen"):
        assert words in page, words
    for key in ("Enter", "D", "U", "H", "G", "N", "Esc"):
        assert f"<kbd>{key}</kbd>" in page, key


def test_it_quotes_the_proved_deals_that_ship(alice: Browser) -> None:
    page = alice.get("/rules/").content.decode()
    three, classic = (len(freeplay.winnable_lines(v)) for v in ("three-card", "classic"))

    assert f"from {three} proved 3-card deals and {classic} proved classic ones" in page


@pytest.mark.parametrize("url", ["/", "/rules/", "/napoleons-tomb/three-card/daily/archive/",
                                 "/accounts/signup/", "/accounts/login/", "/me/stats/"])
def test_every_page_links_the_rules_in_its_navigation_and_footer(
    alice: Browser, url: str
) -> None:
    page = alice.get(url).content.decode()

    nav = page[page.index('<nav aria-label="Site"'):page.index("</nav>")]
    footer = page[page.index('<footer'):]
    assert 'href="/rules/"' in nav and 'href="/rules/"' in footer
    assert 'href="/me/stats/"' in nav


def test_the_navigation_marks_the_page_it_is_on(alice: Browser) -> None:
    page = alice.get("/rules/").content.decode()

    assert '<a href="/rules/" aria-current="page">Rules</a>' in page
    assert page.count('aria-current="page"') == 1
