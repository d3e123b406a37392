"""The fair-play judge (solver_worker.clairvoyance) and the limits measured for it.

The judge: a winning line's positions are won in hindsight without a search; a move
that throws a won position away counts against clairvoyance; a choice every blind
player makes says nothing; the measure is read from the real search. The limits: the
shipped file is what the kept runs give (``python -m solver_worker.fairplay_measure
limits docs/runs/fair-play-*.jsonl.gz``), and at its bars honest wins are held at
most about as often as it says.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from patience import rules_of
from solver_worker import clairvoyance, fairplay_measure
from solver_worker.book import book_of

ROOT = Path(__file__).resolve().parents[2]
RUNS = sorted((ROOT / "docs" / "runs").glob("fair-play-*.jsonl.gz"))


def won_deal(variant: str, number: int = 0) -> tuple[object, tuple[str, ...]]:
    deal, decided = [(deal, decided) for deal, decided in sorted(book_of(variant).items())
                     if decided.result == "won"][number]
    return rules_of(variant).new_game(deal, variant), decided.line


def test_a_choice_that_throws_the_win_counts_against_clairvoyance() -> None:
    assert clairvoyance.term(True, 0.5) == pytest.approx(1.0)
    assert clairvoyance.term(False, 0.5) < 0
    assert clairvoyance.term(True, 0.99) < clairvoyance.term(True, 0.5)


def test_a_blind_players_own_line_says_little_with_it_in_the_panel() -> None:
    start, _ = won_deal("classic")
    line = fairplay_measure.rule_line(start, "careful")
    judged = clairvoyance.judge(start, line, panel=["careful"])
    assert judged.counted == 0 and judged.bits == 0


def test_the_judge_reads_a_solvers_line_and_leaves_the_start_alone() -> None:
    start, line = won_deal("three-card", 3)
    before = start.copy()
    judged = clairvoyance.judge(start, line)
    assert judged.kept == judged.counted and judged.thrown == 0
    assert [move.notation for move in start.moves] == [move.notation for move in before.moves]
    assert judged.bits == pytest.approx(sum(choice.bits for choice in judged.choices))


def test_the_time_bound_cuts_a_judgement_short() -> None:
    start, line = won_deal("classic", 5)
    judged = clairvoyance.judge(start, line, seconds=0.0)
    assert judged.cut_short and judged.counted == 0


def test_a_human_floor_counts_placements_and_turns() -> None:
    start, line = won_deal("three-card")
    floor = clairvoyance.human_floor_ms(start, line)
    assert clairvoyance.TURN_FLOOR_MS * len(line) < floor \
        <= clairvoyance.PLACEMENT_FLOOR_MS * len(line)


@pytest.mark.slow
@pytest.mark.skipif(not RUNS, reason="no kept fair-play runs")
def test_the_shipped_limits_are_what_the_kept_runs_give() -> None:
    rows = fairplay_measure.read_rows(RUNS)
    shipped = json.loads(clairvoyance.LIMITS_FILE.read_text())["variants"]
    for variant in sorted({row["variant"] for row in rows}):
        found = fairplay_measure.limits_of([row for row in rows if row["variant"] == variant],
                                           shipped[variant]["false_flags"])
        kept = shipped[variant]
        assert (found["bits"], found["running"], found["win_ms"]) == \
            (kept["bits"], kept["running"], kept["win_ms"]), variant
        honest = found["running_held"]["honest"]
        assert max(honest) <= 3 * kept["false_flags"], (variant, honest)
