"""The rules page, My statistics and sign-up in real Chromium at a desktop and a phone
size: screenshots under test-output/ (looked at by a person), and checks that nothing
overflows the phone's width and the text keeps its contrast."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import OUTPUT, ROOT
from .test_pages import CONTRAST, sign_up

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
WIDEST = "() => document.documentElement.scrollWidth"

# Deals a winnable 3-card game and plays the solver's stored line for it, as the page's
# script would; returns the last answer.
PLAY_WINNABLE = """async (lines) => {
  const token = document.cookie.split("; ").find((c) => c.startsWith("csrftoken=")).slice(10);
  const post = async (url, body) => (await fetch(url, {method: "POST",
    credentials: "same-origin", body: JSON.stringify(body),
    headers: {"Content-Type": "application/json", "X-CSRFToken": token}})).json();
  let game = await post("/api/games/", {variant: "three-card", winnable: true});
  for (const move of lines[game.deal]) game = await post(`/api/games/${game.id}/moves/`, {move});
  return game;
}"""


def proved_lines() -> dict[str, list[str]]:
    text = (ROOT / "solver_worker" / "data" / "winnable" / "three-card.txt").read_text()
    return {deal: line.split() for deal, line in (row.split(" ", 1) for row in text.splitlines())}


def shoot(page: Any, name: str) -> None:
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        assert page.evaluate(WIDEST) <= viewport["width"], (name, size)  # no sideways scroll
        page.screenshot(path=str(OUTPUT / f"page-{name}-{size}.png"), full_page=True)


def test_the_rules_page(page: Any) -> None:
    page.goto("/rules/")
    expect(page.get_by_role("heading", level=1)).to_have_text("How to play Napoleon's Tomb")
    expect(page.get_by_role("navigation", name="Site").get_by_role("link", name="Rules")
           ).to_have_attribute("aria-current", "page")
    assert page.evaluate(CONTRAST)["ratio"] >= 1
    shoot(page, "rules")
    page.set_viewport_size({"width": 360, "height": 740})  # the narrowest phone asked for
    assert page.evaluate(WIDEST) <= 360


def test_klondikes_rules_page(page: Any) -> None:
    """Klondike's page is made from its guide: the labelled table, the steps, the
    site's choices and the questions, with nothing wider than the phone."""
    page.goto("/klondike/rules/")
    expect(page.get_by_role("heading", level=1)).to_have_text("How to play Klondike")
    expect(page.get_by_role("img", name="The table, each pile named")).to_be_visible()
    for heading in ("The table", "Step by step", "Where this site chooses", "Questions"):
        expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
    assert page.locator(".drawn-pile").count() == 13  # stock, waste, 4 foundations, 7 columns
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    shoot(page, "rules-klondike")


def test_my_statistics_with_free_play_and_a_daily(page: Any) -> None:
    page.goto("/me/stats/")  # nothing played yet: a welcome to a first game
    expect(page.get_by_role("heading", name="Your statistics start with your first game")
           ).to_be_visible()
    shoot(page, "my-stats-visitor")

    sign_up(page)
    won = page.evaluate(PLAY_WINNABLE, proved_lines())
    assert won["status"] == "won" and won["deal_kind"] == "winnable"
    assert won["free_play"]["winnable_only"] and won["free_play"]["new_best"] == ["time", "moves"]
    page.goto("/me/stats/")
    three = page.locator("section.free-variant",
                         has=page.get_by_role("heading", name="3-card deal"))
    expect(three.locator("dt:text-is('Games') + dd")).to_have_text("1")
    expect(three.locator("dt:text-is('Wins') + dd")).to_have_text("1")
    winnable = three.get_by_role("row", name="Winnable deals only")
    expect(winnable).to_contain_text(str(won["moves"]))
    assert page.evaluate(CONTRAST)["ratio"] >= 1
    shoot(page, "my-stats")


@pytest.mark.parametrize("errors", [False, True], ids=["form", "errors"])
def test_the_sign_up_form(page: Any, errors: bool) -> None:
    page.goto("/accounts/signup/")
    if errors:
        page.get_by_label("Username").fill("x y")
        page.locator("[name=password1]").fill("short")
        page.locator("[name=password2]").fill("other")
        page.get_by_role("button", name="Sign up").click()
        expect(page.get_by_role("alert")).to_be_visible()
    assert page.evaluate(CONTRAST)["ratio"] >= 1
    shoot(page, "signup-errors" if errors else "signup")
