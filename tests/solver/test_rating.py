"""The difficulty rating: graded stock-blind players, a measured win rate, bands."""

from __future__ import annotations

import json
from typing import Any

import pytest

from patience.tomb import Position, Status, new_game
from solver_worker import rate as rate_cli
from solver_worker.rating import (
    BANDS,
    GAMES,
    POLICIES,
    Policy,
    band_of,
    chooser,
    cuts_from,
    load_bands,
    play,
    rate,
    thresholds,
)

BY_NAME = {policy.name: policy for policy in POLICIES}


def moves_of(position: Position, policy: Policy, seed: int) -> list[str]:
    game, choose, played = position.copy(), chooser(policy, seed), []
    while game.status is Status.PLAYING and (move := choose(game)) is not None:
        game.apply(move)
        played.append(move.notation)
    return played


def test_a_noisy_policy_replays_the_same_game_for_a_seed_and_another_for_another_seed() -> None:
    position = new_game(7, "three-card")
    for name in ("random", "careful~30"):
        policy = BY_NAME[name]
        assert moves_of(position, policy, 3) == moves_of(position, policy, 3)
        assert len({tuple(moves_of(position, policy, seed)) for seed in range(6)}) > 1


def test_a_policy_decides_from_what_it_sees_not_from_the_stock_order() -> None:
    # Same table in view, two different stock orders: the same first choices.
    position = new_game(11, "classic")
    twin = position.copy()
    twin.stock = list(reversed(twin.stock))
    for policy in POLICIES:
        first, other = chooser(policy, 5), chooser(policy, 5)
        assert first(position) == other(twin)


def test_the_rating_is_a_win_rate_measured_over_every_policy_and_seed() -> None:
    position = new_game(1, "three-card")
    rating = rate(position)
    assert rating.games == GAMES == sum(policy.seeds for policy in POLICIES) > 100
    for policy in POLICIES:
        assert rating.by_policy[policy.name] == sum(
            play(position, policy, seed) for seed in range(policy.seeds))
    assert rating.wins == sum(rating.by_policy.values())
    assert rating.rate == rating.wins / rating.games
    assert rate(position) == rating  # the same deal, the same rating


def test_the_ladder_is_graded_and_the_ratings_spread_the_deals() -> None:
    ratings = [rate(new_game(deal, "three-card")) for deal in range(1, 31)]
    wins = {name: sum(r.by_policy[name] for r in ratings) / BY_NAME[name].seeds
            for name in BY_NAME}
    assert wins["random"] < wins["careful~30"] < wins["careful~3"]
    assert len({r.wins for r in ratings}) > 10
    assert any(r.by_policy["careful"] == 0 for r in ratings)  # the careful player loses some


def test_bands_come_from_thresholds_with_a_deal_at_a_cut_in_the_easier_band() -> None:
    cuts = [0.3, 0.2, 0.1]
    assert [band_of(rate, cuts) for rate in (0.9, 0.3, 0.25, 0.2, 0.15, 0.1, 0.05, 0.0)] == [
        "easy", "easy", "medium", "medium", "hard", "hard", "expert", "expert"]


def test_cuts_split_the_distribution_in_quarters_and_expert_holds_at_most_the_never_won() -> None:
    rates = [i / 100 for i in range(100)]
    cuts = cuts_from(rates)
    counts = {band: sum(band_of(r, cuts) == band for r in rates) for band in BANDS}
    assert all(24 <= count <= 26 for count in counts.values())
    many_zeros = [0.0] * 60 + [0.1] * 20 + [0.2] * 20
    cuts = cuts_from(many_zeros)
    assert cuts[0] > cuts[1] > cuts[2] > 0
    assert sum(band_of(r, cuts) == "expert" for r in many_zeros) == 60


def test_the_shipped_bands_cover_each_variant_with_three_falling_cuts() -> None:
    data = load_bands()
    for variant in ("three-card", "classic"):
        cuts = thresholds(variant, data)
        assert len(cuts) == 3 and cuts[0] > cuts[1] > cuts[2] > 0
        assert data["variants"][variant]["deals"] >= 200
        assert data["variants"][variant]["command"].startswith("python -m solver_worker.rate")


def test_the_command_prints_each_deal_and_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert rate_cli.main(["--variant", "three-card", "--deals", "1-4", "--jobs", "1",
                          "--json", "--winnable-only"]) == 0
    lines: list[dict[str, Any]] = [json.loads(line) for line in capsys.readouterr().out.split("\n")
                                   if line]
    rows, summary = lines[:-1], lines[-1]
    assert [row["deal"] for row in rows] == [1, 2, 3, 4]
    assert all(row["winnable"] and row["games"] == GAMES for row in rows)
    assert summary["rated"] == 4 and sum(b["deals"] for b in summary["histogram"]) == 4
    assert sum(summary["bands"].values()) == 4


def test_the_command_refuses_bad_arguments_with_status_2() -> None:
    for argv in (["--deals", "5-1"], ["--jobs", "0"], ["--variant", "spider"]):
        with pytest.raises(SystemExit) as stopped:
            rate_cli.main(argv)
        assert stopped.value.code == 2
