"""The engine's command line, run as a user runs it: ``python -m patience.tomb``.

Exit codes: 0 on success, 1 when a move is illegal, 2 on bad input (a bad
deal number or notation; argparse also uses 2 for bad arguments).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from engine_builders import golden_deals

REPO_ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "patience.tomb", *args],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=60, check=False,
    )


def test_the_repo_root_is_where_the_engine_lives() -> None:
    assert (REPO_ROOT / "patience" / "tomb" / "__main__.py").is_file()


@pytest.mark.parametrize("number", [1, 32000])
def test_deal_json_prints_the_stock_top_first(number: int) -> None:
    result = run("deal", str(number), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"deal": number, "stock": golden_deals()[number]}


def test_deal_prints_the_stock_as_text() -> None:
    result = run("deal", "1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == golden_deals()[1]


def test_play_json_prints_the_visible_view() -> None:
    result = run("play", "--deal", "1", "--moves", "D D C D", "--json")
    assert result.returncode == 0, result.stderr
    view = json.loads(result.stdout)
    # Deal 1 turns JD 2D 9H, then JC 5D 7H; 7H is parked and goes home at
    # once (nw corner); then 7C 5H KD.
    assert view["variant"] == "three-card"
    assert view["log"] == ["D", "D", "C@n", "D"]
    assert view["stock_count"] == 43
    assert view["waste"] == ["JD", "2D", "9H", "JC", "5D", "7C", "5H", "KD"]
    assert view["foundations"]["nw"] == ["7H"]
    assert view["cells"] == {"n": None, "w": None, "e": None, "s": None}
    assert view["status"] == "playing"
    assert "stock" not in view


def test_play_classic_json() -> None:
    result = run("play", "--deal", "1", "--variant", "classic", "--moves", "D D", "--json")
    assert result.returncode == 0, result.stderr
    view = json.loads(result.stdout)
    assert view["variant"] == "classic"
    assert view["waste"] == ["JD", "2D"]


def test_play_prints_a_readable_table() -> None:
    result = run("play", "--deal", "1", "--moves", "D D C D")
    assert result.returncode == 0, result.stderr
    assert "stock        43 cards" in result.stdout
    assert "status       playing" in result.stdout


def test_an_illegal_move_exits_1_with_the_reason_on_stderr() -> None:
    result = run("play", "--deal", "1", "--moves", "D F", "--json")
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.strip() == (
        "move 2 (F) is illegal: the 9 of hearts fits no corner (they want a 7)"
    )


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(("deal", "0"), id="deal 0"),
        pytest.param(("deal", "1000000"), id="deal 1000000"),
        pytest.param(("deal", "abc"), id="deal abc"),
        pytest.param(("play", "--deal", "-3"), id="play negative deal"),
        pytest.param(("play", "--deal", "12a", "--moves", "D"), id="play deal 12a"),
        pytest.param(("play", "--deal", "1", "--moves", "D X"), id="junk move"),
    ],
)
def test_bad_input_exits_2_with_a_readable_error(args: tuple[str, ...]) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    assert "Traceback" not in result.stderr


def test_an_unknown_variant_is_refused_by_the_argument_parser() -> None:
    result = run("play", "--deal", "1", "--variant", "four-card")
    assert result.returncode == 2
    assert "invalid choice" in result.stderr


def test_a_superscript_deal_number_exits_2_not_with_a_traceback() -> None:
    # ENGINE BUG: "²" passes str.isdigit() in parse_deal_number, then int()
    # raises a plain ValueError that main() does not catch (it catches only
    # EngineError): the CLI prints a traceback and exits 1.
    result = run("deal", "\u00b2")
    assert "Traceback" not in result.stderr
    assert result.returncode == 2
