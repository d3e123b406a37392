"""The page to play on, its script and style, served by whitenoise."""

from __future__ import annotations

from .conftest import Browser


def test_the_play_page_has_the_controls_and_no_game_state(alice: Browser) -> None:
    game = alice.new_game()

    response = alice.get("/")

    assert response.status_code == 200
    page = response.content.decode()
    for control in ('id="new"', 'id="replay"', 'id="open-deal"', 'id="variant"', 'data-move="D"',
                    'id="undo"', 'id="hint"', 'id="fair-hint"', 'aria-live="polite"',
                    'data-size="XL"', "tomb/play.js"):
        assert control in page
    for slot in ("nw", "ne", "sw", "se", "tomb", "n", "w", "e", "s", "stock", "waste"):
        assert f'data-slot="{slot}"' in page
    assert game["id"] not in page  # the script fetches the table
    assert "csrftoken" in response.cookies


def test_the_script_and_style_are_served(alice: Browser) -> None:
    modules = ("play", "board", "input", "connection", "notation", "announcer")
    for path, kind in (*((f"/static/tomb/{name}.js", "javascript") for name in modules),
                       ("/static/tomb/play.css", "css")):
        response = alice.get(path)
        assert response.status_code == 200 and kind in response["Content-Type"]
        body = b"".join(response.streaming_content)
        assert len(body) > 100


def test_an_unknown_page_is_a_plain_404(alice: Browser) -> None:
    response = alice.get("/no-such-page/")
    assert response.status_code == 404 and "text/html" in response["Content-Type"]
