"""The page to play on, its script and style, served by whitenoise."""

from __future__ import annotations

import gzip
import json
import re
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


IMPORT = re.compile(r"""^import\s[^;]*?from\s+"\./([\w-]+\.js)";""", re.MULTILINE | re.DOTALL)


def loaded_by(static: Path, first: str) -> set[Path]:
    """A module and every module it imports, however deep (static ES imports)."""
    found: set[Path] = set()
    waiting = [static / first]
    while waiting:
        module = waiting.pop()
        if module not in found:
            found.add(module)
            waiting += [module.parent / name for name in IMPORT.findall(module.read_text())]
    return found


def test_the_boards_script_and_style_stay_light_as_served() -> None:
    # The board must stay lean (issue 6): every .js and .css the play page loads (a race's
    # board too: its strip). What a player waits for is the bytes on the wire: whitenoise
    # serves each file as collected, brotli or gzip (issue 26; gzip is counted, brotli is
    # smaller still). The board's own drawn cards (faces.js, cards.css: issue 26) and its
    # fitted table took it past the 165 KB it once kept before compression; 192 KB bounds
    # what the browser must parse. The other pages' scripts (the daily, the race rooms,
    # the replay) load only there.
    static = Path(__file__).resolve().parents[2] / "frontend" / "static"
    tomb = static / "tomb"
    board = {tomb / "play.css", tomb / "pages.css", tomb / "cards.css",
             *loaded_by(tomb, "play.js"), *loaded_by(tomb, "race-strip.js")}
    assert len(board) >= 14  # the board's modules and stylesheets are all counted
    assert tomb / "faces.js" in board
    raw = sum(path.stat().st_size for path in board)
    wire = sum(len(gzip.compress(path.read_bytes())) for path in board)
    assert wire < 70 * 1024, f"{wire} bytes of JS and CSS on the board, gzipped"
    assert raw < 192 * 1024, f"{raw} bytes of JS and CSS on the board"
    everything = [path for path in static.rglob("*") if path.suffix in (".js", ".css")]
    assert sum(len(gzip.compress(path.read_bytes())) for path in everything) < 90 * 1024
