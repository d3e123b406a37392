"""Issue 11's attacks, each played end to end on the real stack (uvicorn behind the tests
as its trusted proxy, PostgreSQL, Redis, a Celery worker), and each refused.

The times each refusal took are written to test-output/attacks.json; bench/attacks.py
prints them from a run of its own.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from . import attacks
from .stack import Stack, started_stack

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with started_stack(tmp_path_factory.mktemp("attack-stack"), attacks.ATTACK_ENV,
                       dailies=True) as running:
        yield running


def test_every_attack_of_issue_11_is_refused(stack: Stack) -> None:
    outcomes = [attack() for attack in attacks.every_attack(stack)]

    report = [vars(outcome) for outcome in outcomes]
    (stack.log_dir / "attacks.json").write_text(json.dumps(report, indent=1))
    failed = [outcome for outcome in outcomes if not outcome.refused]
    assert not failed, failed
