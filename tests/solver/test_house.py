"""The solver's shared parts: the driver, the one cell-settling routine, the blind registry.

The driver counts a node per position searched (a state entered that is not
already known to fail), as the Tomb's compiled core does; cell settling gives
the same cells and foundations whatever order the cards go home in (the
argument in ``relaxation.settle_cells``); the blind players' core asks a
game's knowledge for everything game-specific.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from patience import all_variants, game_named, rules_of
from patience.tomb import Kind, Status, new_game
from solver_worker import games, hints, rating
from solver_worker.driver import Budget, decide, search_pass
from solver_worker.games.tomb.blind import TOMB_BLIND, TombBlind
from solver_worker.games.tomb.relaxation import settle_cells, tomb_wants
from solver_worker.players import fair_hint

# -- the driver ------------------------------------------------------------------


@dataclass
class Countdown:
    """A toy game: from n, step down by 1 or 2; 0 wins when ``goal`` is 0, else
    nothing wins. Every state is entered at most once, so nodes are exact."""

    goal: int
    entered: int = 0

    def won(self, state: int) -> bool:
        return state == self.goal == 0

    def key(self, state: int) -> int:
        return state

    def dead(self, state: int) -> bool:
        self.entered += 1
        return False

    def children(self, state: int, exact: bool) -> Iterator[tuple[str, int]]:
        for step in (2, 1):
            if state - step >= 0:
                yield str(step), state - step


def test_the_driver_counts_each_position_searched_once() -> None:
    game = Countdown(goal=-1)  # nothing wins: the whole space is searched
    status, line, nodes = search_pass(game, 10, Budget(), exact=True)
    assert (status, line) == ("exhausted", [])
    assert nodes == game.entered == 11  # 10, 9, ..., 0: each once, the rest known failed


def test_the_driver_stops_past_its_node_budget_and_finds_wins() -> None:
    assert search_pass(Countdown(goal=-1), 10, Budget(nodes=4), exact=True) == (
        "budget", [], 5)
    assert search_pass(Countdown(goal=0), 5, Budget(), exact=True) == (
        "won", ["2", "2", "1"], 3)
    assert decide(Countdown(goal=-1), 6, Budget(nodes=1000)) == ("lost", [], 14)


# -- one cell-settling routine ---------------------------------------------------


def settled(cells: list[int], tomb: int, corners: list[int]) -> tuple[Any, ...]:
    cells, corners = cells[:], corners[:]
    tomb = settle_cells(cells, tomb, corners)
    return tuple(sorted(cells)), tomb, tuple(sorted(corners))


def test_settling_ends_the_same_whatever_the_order_of_cells_and_corners() -> None:
    rng = random.Random(3)
    moved = 0
    for _ in range(400):
        cells = [rng.randint(1, 13) for _ in range(rng.randint(0, 4))]
        tomb = rng.randint(0, 24)
        corners = [rng.randint(0, 7) for _ in range(4)]
        results = {settled(list(order), tomb, list(heights))
                   for order in itertools.permutations(cells)
                   for heights in itertools.permutations(corners)}
        assert len(results) == 1, (cells, tomb, corners)
        rest, new_tomb, new_corners = results.pop()
        # Nothing left fits, and nothing was lost or made up.
        assert all(rank != tomb_wants(new_tomb) if rank <= 6 else rank - 7 not in new_corners
                   for rank in rest)
        assert new_tomb + sum(new_corners) + len(rest) == tomb + sum(corners) + len(cells)
        moved += len(rest) < len(cells)
    assert moved > 50  # cards did go home: the check is not vacuous


# -- the blind players' registry -------------------------------------------------


def test_every_game_with_blind_knowledge_has_a_search_and_a_careful_player() -> None:
    for slug, knowledge in games.BLIND.items():
        assert slug in games.SOLVERS and game_named(slug).slug == slug
        assert "careful" in knowledge.rule_players
    assert games.blind_variants() == [
        "classic", "cross", "st-helena", "three-card", "turn-1", "turn-3", "two-deck-tomb"]
    assert {variant.slug for _, variant in all_variants()} == set(games.blind_variants())
    assert games.blind_of(new_game(1, "classic")) is TOMB_BLIND


class CarefulOnly(TombBlind):
    """The Tomb's knowledge with its careful player alone."""

    rule_players = {"careful": TombBlind.rule_players["careful"]}


def test_the_ladder_uses_the_rule_players_the_game_provides(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(games.BLIND, "classic", CarefulOnly())
    position = new_game(9, "classic")
    ladder = rating.ladder(games.blind_of(position))
    assert [policy.rule for policy in ladder] == [None, "careful", "careful", "careful", "careful"]
    found = rating.rate(position)
    assert found.games == sum(policy.seeds for policy in ladder) < rating.GAMES
    assert set(found.by_policy) == {policy.name for policy in ladder}


# The order the hints kept before they read pile roles: home, turn, turn over, park.
TOMB_ORDER = {Kind.FOUNDATION: 0, Kind.CROSS: 0, Kind.DRAW: 1, Kind.REDEAL: 2, Kind.CELL: 3}


@pytest.mark.parametrize("variant", ["classic", "three-card", "cross"])
def test_the_hints_rank_moves_by_pile_roles_as_the_tomb_ranked_its_kinds(variant: str) -> None:
    rng, compared = random.Random(2), 0
    for deal in range(1, 8):
        position = rules_of(variant).new_game(deal, variant)
        while position.status is Status.PLAYING:
            legal = position.legal_moves()
            ranked = sorted(legal, key=lambda move: TOMB_ORDER[move.kind])
            expected = next((move.notation for move in ranked
                             if after(position, move) is not Status.LOST), ranked[0].notation)
            assert hints.sensible_move(position) == expected
            compared += len({move.kind for move in legal}) > 1
            position.apply(rng.choice(legal))
    assert compared > 50


def test_the_hints_and_the_fair_hint_serve_a_game_with_no_blind_knowledge(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delitem(games.BLIND, "st-helena")  # every game has some now: take one away
    position = rules_of("st-helena").new_game(1, "st-helena")
    assert hints.sensible_move(position) in {move.notation for move in position.legal_moves()}
    assert fair_hint(position) == {"move": None, "chance": 0.0, "samples": 0, "exact": False}


def after(position: Any, move: Any) -> Any:
    trial = position.copy()
    trial.apply(move)
    return trial.status


# -- the deciding CLI's sample -------------------------------------------------------


def test_a_random_sample_of_deals_is_fixed_by_its_seed_and_its_rate_hides_no_unknown(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from solver_worker import solve
    from solver_worker.deal_ranges import sample_deals

    deals = sample_deals(50, seed=3)
    assert deals == sample_deals(50, seed=3) != sample_deals(50, seed=4)
    assert len(set(deals)) == 50 and deals == sorted(deals)
    assert all(1 <= deal <= 999_999 for deal in deals)
    rows = [{"result": "won", "ms": 1.0}] * 6 + [{"result": "unknown", "ms": 1.0}] * 4
    summary = solve.summarise(rows, 1.0)
    assert summary["won_range"] == [0.6, 1.0]
    low, high = summary["ci95"]
    assert 0.25 < low < 0.6 and high == 1.0  # the interval spans the whole range
    assert solve.main(["--variant", "three-card", "--sample", "3", "--seed", "5", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["deal"] for line in lines[:3]] == sample_deals(3, seed=5)
    assert json.loads(lines[-1])["won"] == 3


def test_restarts_are_asked_of_st_helena_only_and_within_the_budget(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from solver_worker import solve

    for refused in (["--variant", "classic", "--restart-share", "0.5"],
                    ["--variant", "st-helena", "--greedy-share", "0.5", "--restart-share", "0.6"],
                    ["--variant", "st-helena", "--restart-seed", "1"],
                    ["--variant", "st-helena", "--restart-share", "0.9", "--restart-seed", "-1"]):
        with pytest.raises(SystemExit) as exit_:
            solve.main([*refused, "--deals", "1", "--json"])
        assert exit_.value.code == 2
    assert capsys.readouterr().out == ""  # refused before any deal was searched
    assert solve.main(["--variant", "st-helena", "--deals", "148", "--budget-s", "30",
                       "--greedy-share", "0.05", "--restart-share", "0.9", "--json"]) == 0
    row = json.loads(capsys.readouterr().out.splitlines()[0])
    assert row["result"] == "won"  # the book's 10-s and 60-s runs left deal 148 unknown
