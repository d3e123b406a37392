"""Schemathesis against the OpenAPI schema, on the real stack (uvicorn, PostgreSQL, Redis).

Schemathesis' own runner (``st run``) with every check it has (no 5xx, status codes,
content types, headers and bodies the schema documents, schema-breaking requests
refused, schema-valid ones taken, and the rest) over every operation of /api/schema/:
its examples, its coverage phase (the boundary values: "0" as a day, -710 as a page) and
its fuzzing, from a logged-in player with a CSRF token, so writes are exercised too.
The ids in paths are often that player's own games (one of each registered game), race
room and today's date, so moves and undos reach the rules and not only a 404. Today's
dailies are made first: a daily still being prepared is a documented 503, which the
"no 5xx" check would count. Bounded: a fixed seed and a few dozen examples an operation.

No baseline: a single mismatch fails the run (its report is in the stack's log folder).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from patience import GAMES

from .attacks import sign_up
from .stack import Stack, started_stack

pytestmark = pytest.mark.integration
EXAMPLES = 30  # per operation and phase
SEED = 25
REAL = 0.6  # how often a path id is one of the player's (else whatever is generated)

@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    env = {"DAILY_DAYS_AHEAD": "0", "DAILY_SCREEN_BUDGET_SECONDS": "2",
           "DAILY_DIFFICULTY_GAMES": "0", "HINT_BUDGET_SECONDS": "0.2"}
    with started_stack(tmp_path_factory.mktemp("schema-stack"), env, dailies=True) as running:
        yield running


def fuzzer_config(stack: Stack) -> dict[str, Any]:
    """The player's headers and the real ids the run may put in paths."""
    visitor = sign_up(stack, "fuzzer")
    games = [visitor.post("/api/games/", {"game": rules.slug, "deal": 2}).json()["id"]
             for rules in GAMES.values()]
    race = visitor.post("/api/races/", {"variant": "three-card"}).json()["code"]
    today = datetime.now(UTC).date().isoformat()
    return {"headers": {"Cookie": visitor.cookie_header, "X-CSRFToken": visitor.token},
            "dictionaries": {"games": games, "races": [race], "days": [today]}}


def write_config(path: Path, found: dict[str, Any]) -> None:
    lines = ["[headers]", *(f"{name} = {json.dumps(value)}"
                            for name, value in found["headers"].items())]
    for name, values in found["dictionaries"].items():
        lines += [f"[dictionaries.{name}]", f"values = {json.dumps(values)}"]
    lines += ["[parameters]", *(
        f'"path.{name}" = {{ dictionary = "{values}", probability = {REAL} }}'
        for name, values in (("game_id", "games"), ("code", "races"), ("day", "days")))]
    path.write_text("\n".join(lines) + "\n")


def schemathesis_command() -> list[str]:
    found = shutil.which("st", path=str(Path(sys.executable).parent))
    assert found, "schemathesis' command (st) is not beside this Python"
    return [found]


def test_the_api_keeps_to_its_schema(stack: Stack) -> None:
    config = stack.log_dir / "schemathesis.toml"
    write_config(config, fuzzer_config(stack))

    done = subprocess.run([
        *schemathesis_command(), "--config-file", str(config), "run",
        f"{stack.base_url}/api/schema/", "--url", stack.base_url, "--checks", "all",
        "--phases", "examples,coverage,fuzzing", "--max-examples", str(EXAMPLES),
        "--seed", str(SEED), "--workers", "1", "--no-shrink",
        "--request-timeout", "30", "--report", "junit", "--report-dir", str(stack.log_dir),
        "--no-color",
    ], cwd=stack.log_dir, capture_output=True, text=True, timeout=600)  # its cache: there

    (stack.log_dir / "schemathesis.txt").write_text(done.stdout + done.stderr)
    assert done.returncode == 0, (done.stdout + done.stderr)[-6000:]


def test_the_server_logged_no_traceback(stack: Stack) -> None:
    """Run after the fuzzing (file order): no request made the server fail."""
    log = (stack.log_dir / "server.log").read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
