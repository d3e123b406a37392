"""The solver as the service calls it: the daily screener, the hint and the fair hint.

The service reaches the solver through settings that name functions
(``DAILY_SCREENER``, ``HINT_SOLVER``, resolved by ``import_string`` in
leaderboards.dailies and game.actions) and through ``players.fair_hint``
(game.actions); the game app's Celery task ``game.answer_hint`` and the
dailies' tasks run them. These tests resolve the same names the same way and
call them with what the service passes: stored games come back from their
records, daily deals are specs with a seed. The Celery side is tested with
the tasks that own it (tests/service).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.utils.module_loading import import_string

from patience import EngineError
from patience.tomb import from_record, new_game, to_record
from solver_worker.players import fair_hint

SETTINGS = Path(__file__).resolve().parents[2] / "tombsite" / "settings.py"


def default_setting(name: str) -> Any:
    """The function a setting names by default, resolved as the service does."""
    found = re.search(rf'{name} = env\.str\("{name}", default="([\w.:]+)"\)',
                      SETTINGS.read_text())
    assert found, f"{name} has no default in the settings"
    return import_string(found.group(1).replace(":", "."))


def test_the_daily_screener_proves_a_seeded_deal_winnable_and_rates_it() -> None:
    screen = default_setting("DAILY_SCREENER")
    spec = {"seed": 2026_11_29, "variant": "three-card"}
    answer = screen(spec, 20.0, 1)  # as leaderboards.dailies.screen calls it
    assert answer["winnable"] is True and answer["verdict"] == "won"
    assert answer["line_length"] > 52
    assert 0.0 <= answer["difficulty"] <= 1.0
    again = screen(spec, 20.0, 1)
    assert {**again, "ms": None} == {**answer, "ms": None}  # a retry gives the same answer


def test_the_screener_refuses_an_unknown_variant_with_a_clear_error() -> None:
    screen = default_setting("DAILY_SCREENER")
    with pytest.raises(EngineError, match="not a variant"):
        screen({"seed": 1, "variant": "spider"}, 1.0, 0)


def test_the_hint_of_a_stored_game_names_a_move_and_no_card() -> None:
    hint = default_setting("HINT_SOLVER")
    record = to_record(new_game(5, "three-card"))
    first = hint(from_record(record), budget_s=0.6)  # as game.actions.ask_solver calls it
    assert first == {"move": "D", "verdict": "winnable", "line_length": first["line_length"]}
    assert first == hint(from_record(record), budget_s=0.6)


def test_the_fair_hint_of_a_stored_game_gives_a_move_and_a_chance() -> None:
    position = from_record(to_record(new_game(5, "three-card")))
    answer = fair_hint(position, budget_s=2.0)  # as game.actions.ask_fair_solver calls it
    assert answer["move"] in {move.notation for move in position.legal_moves()}
    assert 0.0 <= answer["chance"] <= 1.0

