"""bench/book_rerun.py: what a re-run of a book's undecided deals may change in it."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from patience.sthelena import new_game
from solver_worker.book import write_book
from solver_worker.games.sthelena.search import Budget, solve

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import book_rerun  # a script beside the benchmarks, not a package

FIRST = "python -m solver_worker.solve --variant classic --deals <the book's unknown deals>"
CHECKED_9 = f"{FIRST} --budget-s 60 --json, merged by python bench/book_rerun.py" \
            f"{book_rerun.CHECKED}9)"


def row(deal: int, result: str) -> dict[str, Any]:
    return {"deal": deal, "variant": "classic", "result": result, "nodes": 1, "ms": 1.0,
            "line": []}


def test_a_loss_goes_in_only_once_checked_and_a_decided_deal_never_changes() -> None:
    book = [row(1, "unknown"), row(2, "unknown"), row(3, "lost")]
    rerun = {1: row(1, "lost"), 2: row(2, "lost"), 3: row(3, "unknown")}

    rows, changes = book_rerun.merged("classic", book, rerun, checked_lost={1})

    assert [r["result"] for r in rows] == ["lost", "unknown", "lost"]
    assert changes == ["deal 1: unknown -> lost"]


def test_a_deal_still_undecided_keeps_its_longest_search() -> None:
    book = [row(1, "unknown"), {**row(2, "unknown"), "ms": 90.0}]
    rerun = {1: {**row(1, "lost"), "ms": 60.0, "nodes": 7}, 2: row(2, "unknown")}

    rows, changes = book_rerun.merged("classic", book, rerun, checked_lost=set())

    assert rows[0] == {**row(1, "unknown"), "ms": 60.0, "nodes": 7}  # unchecked: not lost
    assert rows[1]["ms"] == 90.0 and changes == []


def test_a_win_whose_line_does_not_win_stops_the_merge() -> None:
    with pytest.raises(SystemExit, match="does not win"):
        book_rerun.merged("classic", [row(5, "unknown")], {5: row(5, "won")}, set())


def test_a_kept_record_merged_before_adds_its_losses_but_not_its_time(tmp_path: Path) -> None:
    kept = tmp_path / "solve-classic-unknown.json"
    kept.write_text(json.dumps({"summary": {"total_s": 500.0}, "deals": {
        "7": {"result": "lost", "ms": 9.0, "nodes": 3}, "8": {"result": "unknown"}}}))
    output = tmp_path / "rerun.jsonl"
    output.write_text(json.dumps(row(7, "lost")) + "\n"
                      + json.dumps({"summary": True, "total_s": 42.5}) + "\n")

    rows, spent_s, merged_before = book_rerun.read_rerun(kept, "classic")
    assert spent_s == 0.0 and merged_before
    assert rows[7]["result"] == "lost" and rows[7]["line"] == [] and set(rows) == {7, 8}
    # solve's output, whatever its file is called (some kept ones end in .json)
    rows, spent_s, merged_before = book_rerun.read_rerun(output, "classic")
    assert spent_s == 42.5 and not merged_before and set(rows) == {7}
    output.rename(tmp_path / "kept-output.json")
    assert book_rerun.read_rerun(tmp_path / "kept-output.json", "classic")[1:] == (42.5, False)


def test_a_rerun_checked_again_keeps_its_place_on_the_kept_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(book_rerun, "KEPT_RUNS", tmp_path)
    kept = tmp_path / "solve-classic-deals-1-2400.json"
    kept.write_text(json.dumps({"command": "first", "reruns": [CHECKED_9]}))
    book = tmp_path / "classic-1-2400.jsonl.gz"

    book_rerun.note_on_kept_run("classic", book, {"won": 1}, CHECKED_9.replace("9)", "23)"),
                                merged_before=True)
    book_rerun.note_on_kept_run("classic", book, {"won": 2}, f"{FIRST} --budget-s 120 --json")
    with pytest.raises(SystemExit, match="give the --budget-s and --flags"):
        book_rerun.note_on_kept_run("classic", book, {"won": 3}, f"{FIRST} --budget-s 300 --json",
                                    merged_before=True)

    run = json.loads(kept.read_text())
    assert run["reruns"] == [CHECKED_9.replace("9)", "23)"), f"{FIRST} --budget-s 120 --json"]
    assert run["summary"] == {"won": 2}


def test_a_fresh_rerun_with_the_same_command_is_listed_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two re-runs typed alike (say, a new restart seed left out of --flags) each spent
    their time: both stay on the record."""
    monkeypatch.setattr(book_rerun, "KEPT_RUNS", tmp_path)
    kept = tmp_path / "solve-classic-deals-1-2400.json"
    kept.write_text(json.dumps({"command": "first", "reruns": [CHECKED_9]}))

    book_rerun.note_on_kept_run("classic", tmp_path / "classic-1-2400.jsonl.gz", {}, CHECKED_9)

    assert json.loads(kept.read_text())["reruns"] == [CHECKED_9, CHECKED_9]


def test_a_samples_unknown_deal_won_again_goes_into_its_verdicts_and_kept_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(book_rerun, "KEPT_RUNS", tmp_path)
    monkeypatch.setattr(book_rerun, "SAMPLES", tmp_path)
    first = ("python -m solver_worker.solve --variant st-helena --sample 2 --seed 1 "
             "--budget-s 1 --json")
    (tmp_path / "solve-st-helena-sample-2.json").write_text(json.dumps({"command": first}))
    verdicts = tmp_path / "st-helena-sample-2.jsonl.gz"
    write_book(verdicts, [{"deal": 3, "result": "unknown", "nodes": 9, "ms": 1000.0},
                          {"deal": 5, "result": "won", "nodes": 9, "ms": 10.0},
                          {"summary": True, "total_s": 1.01}])
    won = solve(new_game(3), Budget(nodes=100_000))
    assert won.verdict == "won"
    rerun = tmp_path / "rerun.jsonl"
    rerun.write_text(json.dumps({"deal": 3, "variant": "st-helena", "result": "won",
                                 "nodes": won.nodes, "ms": 40.0, "line": won.line}) + "\n"
                     + json.dumps({"summary": True, "total_s": 0.04}) + "\n")

    assert book_rerun.main(["--variant", "st-helena", "--budget-s", "5", "--book", str(verdicts),
                            str(rerun)]) == 0

    with gzip.open(verdicts, "rt", encoding="utf-8") as lines:
        *rows, summary = [json.loads(text) for text in lines]
    assert [(r["deal"], r["result"]) for r in rows] == [(3, "won"), (5, "won")]
    # the time is the sample's and the re-run's (1.01 + 0.04), rounded as solve rounds it
    assert (summary["won"], summary["unknown"], summary["total_s"]) == (2, 0, 1.1)
    assert all("line" not in r for r in rows)  # a sample keeps verdicts only
    kept = json.loads((tmp_path / "solve-st-helena-sample-2.json").read_text())
    assert (kept["summary"]["won"], kept["summary"]["unknown"]) == (2, 0)
    assert kept["reruns"] == ["python -m solver_worker.solve --variant st-helena --deals <the "
                              "sample's unknown deals> --budget-s 5 --json, merged by python "
                              "bench/book_rerun.py"]


def test_book_takes_only_a_kept_sample_never_a_book_that_hints_read(tmp_path: Path) -> None:
    # A sample keeps no lines: merging a real book as one would strip its lines.
    classic_book = book_rerun.the_book("classic")
    for path in (classic_book, book_rerun.SAMPLES / "classic-1-2400.jsonl.gz",
                 book_rerun.SAMPLES / "st-helena-sample-20000.jsonl.gz"):
        with pytest.raises(SystemExit, match="--book takes a kept sample"):
            book_rerun.a_sample("classic", path)
    with pytest.raises(SystemExit, match="no such sample"):
        book_rerun.a_sample("classic", book_rerun.SAMPLES / "classic-sample-7.jsonl.gz")
    kept = book_rerun.SAMPLES / "st-helena-sample-20000.jsonl.gz"
    assert book_rerun.a_sample("st-helena", kept) == kept
