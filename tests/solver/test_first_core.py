"""bench/first_core.py: the second search that checks the book's losses builds and decides."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from patience.tomb import new_game

BENCH = Path(__file__).resolve().parents[2] / "bench"
FIRST_COMMIT = "0d9ede3"


def bench_module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def has_commit(commit: str) -> bool:
    return subprocess.run(["git", "cat-file", "-e", f"{commit}^{{commit}}"], cwd=BENCH.parent,
                          capture_output=True).returncode == 0


@pytest.mark.skipif(not has_commit(FIRST_COMMIT), reason="a shallow clone lacks the first core")
def test_the_first_core_with_the_forgetting_table_decides_a_lost_and_a_won_deal(
        tmp_path: Path) -> None:
    first_core, solver = bench_module("first_core"), bench_module("solver")
    out = tmp_path / "first_core.so"
    assert first_core.main([str(out), "--commit", FIRST_COMMIT, "--forgetting-table"]) == 0
    core = solver.load_core(str(out))
    # A 1-MB table holds some 23,000 failed states: deal 1's proof (412,000 nodes)
    # runs on a full table that forgets, and must still come out lost.
    verdicts = {deal: solver.old_core_solve(core, new_game(deal, "classic"), 60, 1)[0]
                for deal in (1, 2)}
    assert verdicts == {1: "lost", 2: "won"}


def test_a_source_without_the_table_section_is_refused() -> None:
    first_core = bench_module("first_core")
    with pytest.raises(SystemExit, match="no table section"):
        first_core.with_forgetting_table("int main(void) { return 0; }")
