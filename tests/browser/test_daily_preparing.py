"""A fresh site answers the daily page at once while today's deal is being made, says so
with the maker's progress, and shows the deal by itself once it is ready."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import OUTPUT, Site, client_address


@pytest.fixture(scope="module")
def fresh_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    # No dailies made at start-up: the first visit finds none and hands it to the maker.
    running = Site(tmp_path_factory.mktemp("fresh"), DAILY_PREPARE_AT_START="false")
    running.start(wait_for_dailies=False)
    yield running
    running.stop()


def test_the_page_says_the_deal_is_being_prepared_then_shows_it(
    chromium: Any, fresh_site: Site
) -> None:
    context = chromium.new_context(base_url=fresh_site.base_url,
                                   viewport={"width": 1280, "height": 900},
                                   extra_http_headers=client_address())
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    first = page.goto("/daily/three-card/")
    assert first is not None and first.status == 200
    expect(page.get_by_role("heading", name="Today's deal is being prepared")).to_be_visible()
    expect(page.get_by_label("Candidates screened")).to_be_attached()
    page.screenshot(path=str(OUTPUT / "daily-being-prepared.png"), full_page=True)

    # The script polls and reloads into the deal: a visitor is invited to log in.
    expect(page.locator("#not-yet")).to_be_visible(timeout=120_000)
    expect(page.locator("#preparing")).to_have_count(0)
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
