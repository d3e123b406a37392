"""The play page loads in real Chromium without a JavaScript error."""


def test_play_page_loads(page) -> None:  # type: ignore[no-untyped-def]
    response = page.goto("/")
    assert response is not None and response.status == 200
    assert "Napoleon" in page.title()
