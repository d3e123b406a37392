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

Mismatches whose fix lies outside the game API are listed in KNOWN, each with its fix;
schemathesis takes them as its baseline, so any other mismatch fails the run.
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

from .attacks import sign_up
from .stack import Stack, started_stack

pytestmark = pytest.mark.integration
EXAMPLES = 30  # per operation and phase
SEED = 25
REAL = 0.6  # how often a path id is one of the player's (else whatever is generated)

# (operation, check, failure, status): what is wrong and where it is fixed.
KNOWN: dict[tuple[str, str, str, str], str] = {
    ("GET /api/me/daily-stats/", "positive_data_acceptance", "RejectedPositiveData", "400"):
        "leaderboards/api.py MONTH: any text; the server takes YYYY-MM from FIRST_MONTH to "
        "LAST_MONTH (leaderboards.actions.checks.check_month)",
    ("GET /api/{game}/{variant}/boards/{board}/", "positive_data_acceptance",
     "RejectedPositiveData", "400"):
        "leaderboards/api.py: board is any text (wins, win-rate, streak: check_board), and "
        "PAGE an integer of any size (1 to MAX_PAGE: check_page)",
    ("GET /api/{game}/{variant}/daily/{day}/", "positive_data_acceptance",
     "RejectedPositiveData", "400"):
        "leaderboards/api.py: day is any text (YYYY-MM-DD: check_day, format date)",
    ("GET /api/{game}/{variant}/daily/{day}/board/", "positive_data_acceptance",
     "RejectedPositiveData", "400"):
        "leaderboards/api.py: day (as above) and PAGE (1 to MAX_PAGE)",
    ("POST /api/{game}/{variant}/daily/{day}/replay/", "positive_data_acceptance",
     "RejectedPositiveData", "400"):
        "leaderboards/api.py: day (as above)",
    ("POST /api/races/", "positive_data_acceptance", "RejectedPositiveData", "400"):
        "races/api.py: game and variant are any text; the server takes registered slugs "
        "that go together (game.schema's NewGameScheme says it for a new game)",
    ("POST /api/races/", "negative_data_rejection", "AcceptedNegativeData", "201"):
        'races/api.py: "visitors": null is the default (races check_bool), the schema '
        "says a boolean only (BooleanField(allow_null=True))",
    ("POST /api/races/{code}/options/", "negative_data_rejection", "AcceptedNegativeData",
     "200"):
        'races/api.py: "visitors": null leaves it as it is, as above',
    ("POST /api/games/{game_id}/moves/", "positive_data_acceptance", "RejectedPositiveData",
     "400"):
        "one body for every game: text another game's notation reads is refused 400 by this "
        "game's; game/actions.py _read_move could answer it 409 (the game refuses it), and "
        "the schema then list every game's moves",
}


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    env = {"DAILY_DAYS_AHEAD": "0", "DAILY_SCREEN_BUDGET_SECONDS": "2",
           "DAILY_DIFFICULTY_GAMES": "0", "HINT_BUDGET_SECONDS": "0.2"}
    with started_stack(tmp_path_factory.mktemp("schema-stack"), env, dailies=True) as running:
        yield running


def fuzzer_config(stack: Stack) -> dict[str, Any]:
    """The player's headers and the real ids the run may put in paths."""
    visitor = sign_up(stack, "fuzzer")
    games = [visitor.post("/api/games/", {"variant": variant, "deal": 2}).json()["id"]
             for variant in ("three-card", "st-helena", "turn-1")]
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


def write_baseline(path: Path) -> None:
    entries = [{"operation": operation, "check": check, "failure": failure,
                "signature": status, "reason": reason}
               for (operation, check, failure, status), reason in KNOWN.items()]
    path.write_text(json.dumps({"format_version": 1, "entries": entries}, indent=1))


def schemathesis_command() -> list[str]:
    found = shutil.which("st", path=str(Path(sys.executable).parent))
    assert found, "schemathesis' command (st) is not beside this Python"
    return [found]


def test_the_api_keeps_to_its_schema(stack: Stack) -> None:
    config, baseline = stack.log_dir / "schemathesis.toml", stack.log_dir / "baseline.json"
    write_config(config, fuzzer_config(stack))
    write_baseline(baseline)

    done = subprocess.run([
        *schemathesis_command(), "--config-file", str(config), "run",
        f"{stack.base_url}/api/schema/", "--url", stack.base_url, "--checks", "all",
        "--phases", "examples,coverage,fuzzing", "--max-examples", str(EXAMPLES),
        "--seed", str(SEED), "--workers", "1", "--no-shrink", "--baseline", str(baseline),
        "--request-timeout", "30", "--report", "junit", "--report-dir", str(stack.log_dir),
        "--no-color",
    ], cwd=stack.log_dir, capture_output=True, text=True, timeout=600)  # its cache: there

    (stack.log_dir / "schemathesis.txt").write_text(done.stdout + done.stderr)
    assert done.returncode == 0, (done.stdout + done.stderr)[-6000:]


def test_the_server_logged_no_traceback(stack: Stack) -> None:
    """Run after the fuzzing (file order): no request made the server fail."""
    log = (stack.log_dir / "server.log").read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
