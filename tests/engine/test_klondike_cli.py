"""Klondike's command line, ``python -m patience.klondike``.

Exit codes as the Tomb's: 0 done, 1 an illegal move, 2 bad input (a bad deal
number or notation; argparse also uses 2 for bad arguments).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from patience.klondike.cli import main

REPO_ROOT = Path(__file__).resolve().parents[2]
GOLDEN = json.loads((Path(__file__).parent / "fixtures" / "klondike_golden_deals.json")
                    .read_text())["deals"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "patience.klondike", *args],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=60, check=False,
    )


def test_deal_prints_the_layout_as_pysol_cards_does() -> None:
    result = run("deal", "1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == GOLDEN["1"]


@pytest.mark.parametrize(("number", "variant"), [(1, "turn-1"), (32000, "turn-3")])
def test_deal_json(number: int, variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", str(number), "--variant", variant, "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    talon, *rows = GOLDEN[str(number)]
    assert printed["deal"] == number
    assert printed["stock"] == talon.removeprefix("Talon: ").split()
    assert printed["tableau"] == [row.replace("<", "").replace(">", "").split() for row in rows]
    assert [len(column) for column in printed["tableau"]] == [1, 2, 3, 4, 5, 6, 7]


def test_play_json_prints_the_visible_view() -> None:
    result = run("play", "--deal", "1", "--variant", "turn-1", "--moves", "D D D w-t3",
                 "--json")
    assert result.returncode == 0, result.stderr
    view = json.loads(result.stdout)
    assert view["log"] == ["D", "D", "D", "w-t3"]
    assert view["piles"]["waste"]["up"] == ["4H", "AC"]
    assert view["piles"]["t3"] == {"down": 2, "up": ["5C", "4D"]}
    assert (view["score"], view["status"], view["stock_count"]) == (5, "playing", 21)


def test_play_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--deal", "1", "--variant", "turn-3", "--moves", "D t6-f3"]) == 0
    out = capsys.readouterr().out
    assert "status       playing" in out
    assert "waste        4H AC 4D  (3 cards)" in out
    assert "t6  ## ## ## ## QD" in out
    assert "score 15" in out


def test_an_illegal_move_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--deal", "1", "--moves", "D w-t1"]) == 1
    error = capsys.readouterr().err
    assert error.startswith("move 2 (w-t1) is illegal: the 4 of hearts does not go onto")


@pytest.mark.parametrize("argv", [
    ["deal", "0"], ["deal", "abc"], ["play", "--deal", "1000000"],
    ["play", "--deal", "1", "--moves", "D t1-t1"],
])
def test_bad_input_exits_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_a_bad_variant_is_an_argparse_error() -> None:
    result = run("play", "--deal", "1", "--variant", "turn-2")
    assert result.returncode == 2 and "turn-2" in result.stderr
