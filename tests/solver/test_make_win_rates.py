"""scripts/make_win_rates.py record: what it keeps of a solve over a random sample."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import make_win_rates  # a script, not a package


def test_a_samples_verdicts_are_kept_without_their_lines_for_a_rerun(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(make_win_rates, "RUNS", tmp_path)
    monkeypatch.setattr(make_win_rates, "SAMPLES", tmp_path / "samples")
    output = tmp_path / "output.jsonl"
    rows = [{"deal": 70, "variant": "st-helena", "result": "won", "nodes": 5, "ms": 3.0,
             "line": ["D", "R"]},
            {"deal": 8, "variant": "st-helena", "result": "unknown", "nodes": 9, "ms": 1000.0,
             "line": []},
            {"summary": True, "won": 1, "lost": 0, "unknown": 1, "deals": 2, "total_s": 1.0}]
    output.write_text("".join(json.dumps(row) + "\n" for row in rows))
    command = ("python -m solver_worker.solve --variant st-helena --sample 2 --seed 1 "
               "--budget-s 1 --json")

    kept = make_win_rates.record(command.split(), output)

    assert kept.name == "solve-st-helena-sample-2.json"
    assert json.loads(kept.read_text())["command"] == command
    with gzip.open(tmp_path / "samples" / "st-helena-sample-2.jsonl.gz", "rt") as lines:
        verdicts = [json.loads(text) for text in lines]
    assert [(row["deal"], row["result"]) for row in verdicts[:-1]] == [(8, "unknown"),
                                                                        (70, "won")]
    assert all("line" not in row for row in verdicts) and verdicts[-1]["summary"]
