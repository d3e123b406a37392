"""The page to play on, its script and style, served by whitenoise."""

from __future__ import annotations

from .conftest import Browser


def test_the_play_page_has_the_controls_and_no_game_state(alice: Browser) -> None:
    game = alice.new_game()

    response = alice.get("/")

    assert response.status_code == 200
    page = response.content.decode()
    for control in ('id="new"', 'data-move="D"', 'data-move="R"', 'data-move="F"',
                    'data-move="C"', 'id="undo"', 'id="hint"', "tomb/play.js"):
        assert control in page
    assert game["id"] not in page  # the script fetches the table
    assert "csrftoken" in response.cookies


def test_the_script_and_style_are_served(alice: Browser) -> None:
    for path, kind in (("/static/tomb/play.js", "javascript"), ("/static/tomb/play.css", "css")):
        response = alice.get(path)
        assert response.status_code == 200 and kind in response["Content-Type"]
        body = b"".join(response.streaming_content)
        assert len(body) > 100


def test_an_unknown_page_is_a_plain_404(alice: Browser) -> None:
    response = alice.get("/no-such-page/")
    assert response.status_code == 404 and "text/html" in response["Content-Type"]
