"""Schemathesis against the OpenAPI schema, on the real stack (uvicorn, PostgreSQL, Redis).

Every operation of /api/schema/ gets generated requests, valid and invalid,
from a logged-in player with a CSRF token, so writes are exercised too. Half
of the generated game ids are replaced by a real game of that player's, and
half of the variants by a real variant, so moves, undos and hints reach the
rules and not only the 404 of an unknown game. Each answer must be no 5xx,
a status code the schema documents, a body that matches the schema, and
(for requests that break the schema) a refusal; afterwards the server's log
must show no traceback. Bounded: a few dozen examples per operation and no
shrinking past that, about half a minute in all.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from .stack import Stack, Visitor, require_services

pytestmark = pytest.mark.integration
PASSWORD = "tomb-of-the-emperor"
EXAMPLES = 20  # per operation and mode
CHECKS = [
    not_a_server_error, status_code_conformance, content_type_conformance,
    response_schema_conformance, negative_data_rejection,
]


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    require_services()
    running = Stack(tmp_path_factory.mktemp("schema-stack"))
    running.env.update(
        # Today's daily is made by the worker on the first request: keep it short.
        DAILY_VARIANTS="three-card", DAILY_DAYS_AHEAD="0", DAILY_SCREEN_BUDGET_SECONDS="2",
        DAILY_DIFFICULTY_GAMES="0", HINT_BUDGET_SECONDS="0.2",
    )
    try:
        running.start()
        yield running
    finally:
        running.stop()


class Player:
    """A logged-in player: a requests session with its cookies, its CSRF token, one game."""

    def __init__(self, stack: Stack) -> None:
        visitor = Visitor(stack)
        response = visitor.http.post("/accounts/signup/", data={
            "username": "fuzzer", "password1": PASSWORD, "password2": PASSWORD,
        }, headers={"X-CSRFToken": visitor.token})
        assert response.status_code == 302, response.text[:300]
        visitor.token = visitor.http.get("/api/csrf/").json()["csrf_token"]  # rotated at log-in
        self.token = visitor.token
        self.game_id = visitor.new_game(2)["id"]
        # Made before fuzzing: the first ask hands it to the worker (503 meanwhile).
        deadline = time.monotonic() + 120
        while (daily := visitor.get("/api/daily/three-card/")).status_code == 503:
            assert time.monotonic() < deadline and "progress" in daily.json(), daily.text
            time.sleep(0.5)
        assert daily.status_code == 200, daily.text
        self.session = requests.Session()
        self.session.cookies.update(dict(visitor.http.cookies.items()))
        visitor.close()


@pytest.fixture(scope="module")
def fuzzer(stack: Stack) -> Player:
    return Player(stack)


@pytest.fixture(scope="module")
def api_schema(stack: Stack) -> Any:
    return schemathesis.openapi.from_url(f"{stack.base_url}/api/schema/")


def operations() -> list[tuple[str, GenerationMode]]:
    """Each operation with valid data; with invalid data where the schema lets data be
    invalid (a body, a typed parameter: any text is a valid path segment).
    Read at collection from the schema the site itself generates."""
    from drf_spectacular.generators import SchemaGenerator

    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    found = []
    for path, methods in paths.items():
        for method, operation in methods.items():
            label = f"{method.upper()} {path}"
            found.append((label, GenerationMode.POSITIVE))
            typed = [parameter for parameter in operation.get("parameters", [])
                     if parameter["schema"].get("type") != "string"]
            if typed or "requestBody" in operation:
                found.append((label, GenerationMode.NEGATIVE))
    return found


def aim_at_real_things(case: Any, fuzzer: Player) -> None:
    """Half of the well-formed game ids become the player's game, half of the variants real."""
    path = case.path_parameters or {}
    game_id = path.get("game_id")
    if isinstance(game_id, str) and _is_uuid(game_id) and int(game_id[-1], 16) % 2 == 0:
        path["game_id"] = fuzzer.game_id
    variant = path.get("variant")
    if isinstance(variant, str) and len(variant) % 2 == 0:
        path["variant"] = "three-card"


def _is_uuid(text: str) -> bool:
    try:
        return str(uuid.UUID(text)) == text.lower()
    except ValueError:
        return False


@pytest.mark.parametrize(("label", "mode"), operations())
def test_the_api_keeps_to_its_schema(
    label: str, mode: GenerationMode, api_schema: Any, stack: Stack, fuzzer: Player
) -> None:
    method, path = label.split(" ", 1)
    # Pytest 9 and schemathesis' own pytest plugin disagree, so drive Hypothesis directly.
    @given(case=api_schema[path][method].as_strategy(mode))
    @settings(
        max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
        phases=[Phase.explicit, Phase.generate],  # shrinking would run past the time bound
        suppress_health_check=list(HealthCheck),
    )
    def call(case: Any) -> None:
        aim_at_real_things(case, fuzzer)
        case.call_and_validate(
            base_url=stack.base_url, session=fuzzer.session,
            headers={"X-CSRFToken": fuzzer.token}, checks=CHECKS, timeout=30,
        )

    call()


def test_the_server_logged_no_traceback(stack: Stack, fuzzer: Player) -> None:
    """Run after the fuzzing (file order): no request made the server fail."""
    log = (stack.log_dir / "server.log").read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
