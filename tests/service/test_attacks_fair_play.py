"""Issue 25's attacks on the daily, each played end to end on the real stack (uvicorn,
PostgreSQL, Redis, a Celery worker running the fair-play judge), and each held for
review off the public boards. The times are written to test-output/attacks-fair-play.json;
bench/attacks.py prints them from a run of its own.

The neighbour's lockout is played in test_login_integration.py, the race names in
test_races_integration.py and the REST flood in test_write_limits_integration.py, each
on a stack of its own.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from . import attacks_fair_play
from .stack import Stack, started_stack

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with started_stack(tmp_path_factory.mktemp("fair-play-stack"),
                       attacks_fair_play.FAIR_PLAY_ENV, dailies=True) as running:
        yield running


def test_every_attack_of_issue_25_is_held(stack: Stack) -> None:
    outcomes = [attack() for attack in attacks_fair_play.every_attack(stack)]

    report = [vars(outcome) for outcome in outcomes]
    (stack.log_dir / "attacks-fair-play.json").write_text(json.dumps(report, indent=1))
    print(json.dumps(report, indent=1))
    failed = [outcome for outcome in outcomes if not outcome.refused]
    assert not failed, failed
