"""The page to play on, its script and style, served by whitenoise."""

from __future__ import annotations

import json
from pathlib import Path

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
    # The table comes as data (its piles, no card), for the board script to draw at once.
    table = json.loads(page.split('id="table-data" type="application/json">')[1].split("<")[0])
    assert [pile["name"] for pile in table["piles"]] == [
        "nw", "n", "ne", "w", "tomb", "e", "sw", "s", "se", "stock", "waste"]
    # The page names the game to resume (so the script never asks for one that does not
    # exist), but the script fetches the table: no state, no card, is rendered.
    assert page.count(game["id"]) == 1 and f'"three-card": "{game["id"]}"' in page
    assert '"stock_count":' not in page and '"waste":' not in page
    assert "csrftoken" in response.cookies


def test_the_script_and_style_are_served(alice: Browser) -> None:
    modules = ("play", "board", "input", "connection", "notation", "announcer", "motion",
               "looks", "overlay")
    for path, kind in (*((f"/static/tomb/{name}.js", "javascript") for name in modules),
                       ("/static/tomb/play.css", "css")):
        response = alice.get(path)
        assert response.status_code == 200 and kind in response["Content-Type"]
        body = b"".join(response.streaming_content)
        assert len(body) > 100


def test_an_unknown_page_is_a_plain_404(alice: Browser) -> None:
    response = alice.get("/no-such-page/")
    assert response.status_code == 404 and "text/html" in response["Content-Type"]


def test_all_the_sites_script_and_style_stay_under_150_kb() -> None:
    # The board must stay lean (issue 6): every .js and .css served, before compression.
    static = Path(__file__).resolve().parents[2] / "frontend" / "static"
    files = [path for path in static.rglob("*") if path.suffix in (".js", ".css")]
    total = sum(path.stat().st_size for path in files)
    assert len(files) >= 7  # the board's modules and the pages' files are all counted
    assert total < 150 * 1024, f"{total} bytes of JS and CSS"
