"""bench/first_core.py: the second search that checks the book's losses builds and decides."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from patience.tomb import new_game

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import first_core  # scripts beside the benchmarks, not a package
import solver as bench_solver


def has_commit(commit: str) -> bool:
    return subprocess.run(["git", "cat-file", "-e", f"{commit}^{{commit}}"],
                          cwd=first_core.ROOT, capture_output=True).returncode == 0


@pytest.mark.skipif(not has_commit(first_core.FIRST_COMMIT),
                    reason="a shallow clone lacks the first core")
def test_the_first_core_with_the_forgetting_table_decides_a_lost_and_a_won_deal(
        tmp_path: Path) -> None:
    out = tmp_path / "first_core.so"
    assert first_core.main([str(out), "--forgetting-table"]) == 0
    core = bench_solver.load_core(str(out))
    # A 1-MB table holds some 23,000 failed states: deal 1's proof (412,000 nodes)
    # runs on a full table that forgets, and must still come out lost.
    verdicts = {deal: bench_solver.old_core_solve(core, new_game(deal, "classic"), 60, 1)[0]
                for deal in (1, 2)}
    assert verdicts == {1: "lost", 2: "won"}


def test_a_source_without_the_table_section_is_refused() -> None:
    with pytest.raises(SystemExit, match="no table section"):
        first_core.with_forgetting_table("int main(void) { return 0; }")


def test_the_first_core_is_compiled_with_the_flags_setup_py_gives_the_cores() -> None:
    # The cores are C11; the flags come from setup.py's text, not a copy of them.
    assert "-std=c11" in first_core.setup_flags()


def test_a_setup_py_without_a_flags_list_is_refused(tmp_path: Path) -> None:
    setup_py = tmp_path / "setup.py"
    for text in ('FLAGS = "-O2"\nsetup()\n', 'FLAGS = ["-O2"] + EXTRA\nsetup()\n'):
        setup_py.write_text(text, encoding="utf-8")
        with pytest.raises(SystemExit, match="no FLAGS list"):
            first_core.setup_flags(setup_py)
