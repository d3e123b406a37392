"""Browser tests: the real site on uvicorn (embedded default) driven by Playwright in
Debian's headless Chromium.

The site runs as the README's run command runs it: one uvicorn process on a fresh SQLite
file, the in-memory channel layer and hints answered in-process. Playwright never
downloads a browser: it launches /usr/bin/chromium (CHROMIUM overrides).
"""

from __future__ import annotations

import itertools
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# Screenshots and server logs land here; CI keeps the directory as test output.
OUTPUT = Path(os.environ.get("TEST_OUTPUT", ROOT / "test-output"))
CLEARED_VARS = ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "CELERY_TASK_ALWAYS_EAGER",
                "HTTPS", "DJANGO_SETTINGS_MODULE", "DEBUG")


def _is_browser_test(item: pytest.Item) -> bool:
    return "tests/browser/" in str(item.fspath).replace(os.sep, "/")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Playwright's sync API keeps an event loop running in the main thread while it is
    # open, and asyncio.run() refuses to start under it: the browser tests run last, and
    # each module closes its Playwright (the `chromium` fixture is module-scoped).
    items.sort(key=_is_browser_test)
    for item in items:
        if _is_browser_test(item):
            item.add_marker(pytest.mark.browser)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _simple_player_reaches(seed: int, target: int) -> bool:
    """Does the tests' simple player (test_pages.PLAY: a card home, else turn, else
    turn the waste over, else park; the first such legal move) put ``target`` cards home
    on the 3-card deal of ``seed``? The same rule over the engine's legal moves, which
    are the board's ``legal`` list in the same order."""
    from patience import Status, rules_of

    rules = rules_of("three-card")
    position = rules.new_game(rules.deal_from_seed(seed), "three-card")
    for _ in range(600):
        if position.status is not Status.PLAYING or position.home >= target:
            break
        legal = [str(move.notation) for move in position.legal_moves()]
        move = (next((m for m in legal if m.startswith("F")), None)
                or next((m for m in legal if m in ("D", "R")), None)
                or next((m for m in legal if m.startswith("C")), None))
        if move is None:
            break
        position.apply(rules.parse_move(move))
    return position.home >= target


def _daily_secret_for_simple_play() -> str:
    """A DAILY_SECRET whose every 3-card candidate of the day (and of the next, near
    UTC midnight) lets the simple player put 3 cards home. The daily is a random deal
    of the secret, and about 2% of deals stop that player sooner (70 of 3,000 seeds),
    which failed the daily tests that play to 3 cards now and then."""
    from django.conf import settings
    from django.test import override_settings

    from leaderboards.days import candidate_seed

    now = datetime.now(UTC)
    days = [now.date()] + ([(now + timedelta(hours=1)).date()] if now.hour == 23 else [])
    while True:
        secret = "browser-tests-daily-" + os.urandom(24).hex()
        with override_settings(DAILY_SECRET=secret):
            seeds = [candidate_seed(day, "three-card", index) for day in days
                     for index in range(settings.DAILY_MAX_CANDIDATES)]
        if all(_simple_player_reaches(seed, 3) for seed in seeds):
            return secret


def _require_chromium() -> None:
    if shutil.which(CHROMIUM) or Path(CHROMIUM).exists():
        return
    message = f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


class Site:
    """One uvicorn process serving the site on the embedded default."""

    running: Site | None = None  # the session's site, for helpers that set up its players

    def __init__(self, workdir: Path, **env: str) -> None:
        self.database = workdir / "site.sqlite3"
        self.port = _free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.env = {k: v for k, v in os.environ.items() if k not in CLEARED_VARS}
        self.env.update(
            DJANGO_SETTINGS_MODULE="tombsite.settings",
            DATABASE_URL=f"sqlite:///{self.database}",
            ALLOWED_HOSTS="127.0.0.1,localhost",
            SECRET_KEY="browser-tests-" + os.urandom(24).hex(),
            DAILY_SECRET=_daily_secret_for_simple_play(),
            WS_RATE_PER_SECOND="1000",  # the tests play faster than a person
            WS_BURST="1000",
            SIGNUP_RATE="1000/hour",  # every test player signs up from 127.0.0.1
            # The tests' players win dailies along the solver's line, cheats by
            # construction: the fair-play judge runs where it is tested (test_fair_play).
            FAIR_PLAY_REVIEW="off",
            # The tests play the 3-card daily: the site's background maker makes it at
            # start-up (classic's screening would only take a core from the tests).
            DAILY_VARIANTS="three-card",
        )
        self.env.update(env)
        self.log = (OUTPUT / f"site-{self.port}.log").open("wb")
        self.process: subprocess.Popen[bytes] | None = None

    def manage(self, *args: str) -> str:
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env,
                              check=True, capture_output=True)
        return done.stdout.decode()

    def start(self, wait_for_dailies: bool = True) -> None:
        self.manage("migrate", "--noinput")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "tombsite.asgi:application", "--host", "127.0.0.1",
             "--port", str(self.port), "--ws-max-size", "65536", "--no-access-log",
             # The tests stand in for the site's proxy: each browser context names its
             # own client address (client_address), as players behind one proxy would.
             "--proxy-headers", "--forwarded-allow-ips", "127.0.0.1"],
            cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process.poll() is None, "the site exited; see its log under test-output"
            try:
                if httpx.get(self.base_url + "/api/csrf/", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        else:
            raise RuntimeError("the site did not answer within 60 s")
        if wait_for_dailies:
            self.wait_for_daily("three-card")

    def wait_for_daily(self, variant: str, timeout: float = 300) -> None:
        """Until today's daily is made (the site makes it in the background at start-up)."""
        deadline = time.monotonic() + timeout
        while httpx.get(f"{self.base_url}/api/daily/{variant}/", timeout=5).status_code == 503:
            assert time.monotonic() < deadline, f"no {variant} daily within {timeout} s"
            time.sleep(0.5)

    def backdate_account(self, name: str, days: int) -> None:
        """Make a player's account ``days`` old: a player whose account is older than
        today's daily may play it ranked (a newer one waits for the next day's)."""
        joined = (datetime.now(UTC) - timedelta(days=days)).strftime("%Y-%m-%d %H:%M:%S")
        with sqlite3.connect(self.database, timeout=20) as database:
            database.execute("UPDATE auth_user SET date_joined = ? WHERE username = ?",
                             (joined, name))

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()


@contextmanager
def serving(workdir: Path, **env: str) -> Iterator[Site]:
    """A site of its own for as long as the block runs (the one sign_up ages players on),
    with extra settings."""
    _require_chromium()
    OUTPUT.mkdir(parents=True, exist_ok=True)
    running, before = Site(workdir, **env), Site.running
    running.start()
    Site.running = running
    try:
        yield running
    finally:
        Site.running = before
        running.stop()


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    with serving(tmp_path_factory.mktemp("site")) as running:
        yield running


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    _require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"])
        yield browser
        browser.close()


_ADDRESSES = itertools.count(1)


def client_address() -> dict[str, str]:
    """Headers for a new browser context: a client address of its own, as the proxy in
    front of the site would say (the daily's fair-play check compares addresses)."""
    number = next(_ADDRESSES)
    return {"X-Forwarded-For": f"198.18.{number // 256 % 256}.{number % 256}"}


@pytest.fixture
def page(chromium, site: Site) -> Iterator[object]:  # type: ignore[no-untyped-def]
    """A fresh browser context (its own cookies, device and address: a new visitor)."""
    context = chromium.new_context(base_url=site.base_url, viewport={"width": 1280, "height": 900},
                                   extra_http_headers=client_address())
    context.set_default_timeout(15_000)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
