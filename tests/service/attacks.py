"""The fair-play attacks of issue 11, each played end to end against a running stack.

Each attack returns an Outcome: whether the site refused it, how long the refusal took
(from the attack's first request to the answer that refuses it, on the server's own
stack), and what the refusal said. tests/service/test_attacks.py asserts every one is
refused; bench/attacks.py prints the times.
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import psycopg
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from .lines import seeded_line
from .stack import ROOT, Stack, Visitor

PASSWORD = "tomb-of-the-emperor-1821"
PLAY = "/api/daily/three-card/play/"


@dataclass
class Outcome:
    attack: str
    refused: bool
    seconds: float
    detail: str


class Timer:
    def __init__(self) -> None:
        self.started = time.perf_counter()

    def seconds(self) -> float:
        return time.perf_counter() - self.started


def sql(stack: Stack, query: str, *args: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(stack.env["DATABASE_URL"]) as connection:
        return connection.execute(query, args).fetchall()  # type: ignore[arg-type]


def sign_up(stack: Stack, name: str, *, days_ago: int = 30, address: str | None = None,
            visitor: Visitor | None = None) -> Visitor:
    """A player signed up through the form; ``days_ago`` dates the account back (an older
    account, as an attacker's second account made weeks ago would be)."""
    visitor = visitor or Visitor(stack, address)
    made = visitor.http.post("/accounts/signup/", data={
        "username": name, "password1": PASSWORD, "password2": PASSWORD,
    }, headers={"X-CSRFToken": visitor.token})
    assert made.status_code == 302, made.text[:300]
    visitor.token = visitor.http.get("/api/csrf/").json()["csrf_token"]  # rotated at log-in
    if days_ago:
        sql(stack, "UPDATE auth_user SET date_joined = now() - make_interval(days => %s) "
                   "WHERE username = %s RETURNING id", days_ago, name)
    return visitor


def log_in(visitor: Visitor, name: str) -> None:
    visitor.http.post("/accounts/logout/", headers={"X-CSRFToken": visitor.token})
    visitor.token = visitor.http.get("/api/csrf/").json()["csrf_token"]
    answer = visitor.http.post("/accounts/login/", data={"username": name, "password": PASSWORD},
                               headers={"X-CSRFToken": visitor.token})
    assert answer.status_code == 302, answer.text[:300]
    visitor.token = visitor.http.get("/api/csrf/").json()["csrf_token"]


def today() -> str:
    return datetime.now(UTC).date().isoformat()


def cards_in(text: str) -> bool:
    """Any card token (e.g. "QH", "10S", "TD") in an answer that must carry none."""
    return bool(re.search(r"\b(?:10|[2-9TJQKA])[CDHS]\b", text))


# -- 1. today's deal only through one's own ranked attempt ---------------------

def visitor_reads_todays_deal(stack: Stack) -> Outcome:
    visitor = Visitor(stack)
    timer = Timer()
    answer = visitor.post(PLAY)
    seconds = timer.seconds()
    replay = visitor.post(f"/api/daily/three-card/{today()}/replay/")
    refused = (answer.status_code == 403 and replay.status_code == 409
               and not cards_in(answer.text + replay.text))
    visitor.close()
    return Outcome("visitor plays today's daily", refused, seconds, answer.json()["error"])


def new_account_reads_todays_deal(stack: Stack) -> Outcome:
    visitor = sign_up(stack, "newcomer", days_ago=0)
    timer = Timer()
    answer = visitor.post(PLAY)
    seconds = timer.seconds()
    play = visitor.get("/api/daily/three-card/").json()["play"]
    visitor.close()
    refused = answer.status_code == 403 and play["allowed"] is False and bool(play["opens_at"])
    return Outcome("account made today plays today's daily", refused, seconds,
                   answer.json()["error"])


def second_account_on_the_same_device(stack: Stack) -> Outcome:
    """The scout (an older account) turns the whole stock in its ranked attempt; the same
    browser then logs in as the main account, which plays the solver's line at machine
    speed. The main account's result must be held off every public board."""
    browser = sign_up(stack, "scout")
    scout_game = browser.post(PLAY).json()
    for _ in range(52):  # turn until the stock is through: the whole order has been seen
        if browser.post(f"/api/games/{scout_game['id']}/moves/", {"move": "D"}).status_code != 200:
            break
    sign_up(stack, "ace", address=browser.address)  # an older second account, same network
    log_in(browser, "ace")
    timer = Timer()
    game = browser.post(PLAY).json()
    held_at_start = browser.get("/api/daily/three-card/").json()["me"]["under_review"]
    seconds = timer.seconds()
    (seed,) = sql(stack, "SELECT seed FROM leaderboards_daily WHERE date = %s "
                         "AND variant = 'three-card'", today())[0]
    for move in seeded_line(seed):
        browser.post(f"/api/games/{game['id']}/moves/", {"move": move})
    me = browser.get("/api/daily/three-card/").json()["me"]
    board = browser.get(f"/api/daily/three-card/{today()}/board/").json()["entries"]
    field = browser.get("/api/daily/three-card/field/").json()["entries"]
    wins = browser.get("/api/boards/three-card/wins/").json()["entries"]
    public = {row["player"] for row in board + field + wins}
    (flags,) = sql(stack, "SELECT a.flags FROM leaderboards_attempt a JOIN auth_user u "
                          "ON u.id = a.user_id WHERE u.username = 'ace'")[0]
    browser.close()
    refused = (held_at_start is True and me["status"] == "won" and me["under_review"] is True
               and "ace" not in public)
    return Outcome("second, older account on the same device", refused, seconds,
                   f"held for review from its start; won at machine speed, flags: {flags}; "
                   f"public boards show {sorted(public)}")


def main_account_first_then_scout(stack: Stack) -> Outcome:
    """The order reversed: the main account opens its attempt and makes no move (its
    clock has not started); a scout on the same device then turns the whole stock; the
    main account plays the line. It must be held all the same."""
    browser = sign_up(stack, "main")
    game = browser.post(PLAY).json()
    sign_up(stack, "spotter", address=browser.address)
    log_in(browser, "spotter")
    timer = Timer()
    spot = browser.post(PLAY).json()
    for _ in range(52):
        if browser.post(f"/api/games/{spot['id']}/moves/", {"move": "D"}).status_code != 200:
            break
    log_in(browser, "main")
    held_now = browser.get("/api/daily/three-card/").json()["me"]["under_review"]
    seconds = timer.seconds()
    (seed,) = sql(stack, "SELECT seed FROM leaderboards_daily WHERE date = %s "
                         "AND variant = 'three-card'", today())[0]
    for move in seeded_line(seed):
        browser.post(f"/api/games/{game['id']}/moves/", {"move": move})
    board = browser.get(f"/api/daily/three-card/{today()}/board/").json()["entries"]
    browser.close()
    public = {row["player"] for row in board}
    refused = held_now is True and not {"main", "spotter"} & public
    return Outcome("main account first, then a scout on its device", refused, seconds,
                   f"both held for review; day board shows {sorted(public)}")


# -- 2. the keys ------------------------------------------------------------------

def site_on_placeholder_keys(stack: Stack) -> Outcome:
    """The site started with .env.example's keys as they are."""
    env = {**stack.env, "SECRET_KEY": "change-me-to-a-long-random-string",
           "DAILY_SECRET": "change-me-to-another-long-random-string"}
    timer = Timer()
    done = subprocess.run(
        [sys.executable, "-m", "uvicorn", "tombsite.asgi:application", "--host", "127.0.0.1",
         "--port", "0"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    seconds = timer.seconds()
    said = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
    refused = done.returncode != 0 and "refusing to start" in done.stderr
    return Outcome("site started on the placeholder keys", refused, seconds, said[:160])


# -- 3. the lockout -----------------------------------------------------------------

def lock_out_a_rival(stack: Stack) -> Outcome:
    """A stranger fails 50 log-ins for a rival's public name; the rival then logs in."""
    sign_up(stack, "rival").close()
    stranger = Visitor(stack)
    timer = Timer()
    answers, seconds = [], 0.0
    for number in range(50):
        answers.append(stranger.http.post("/accounts/login/", data={
            "username": "rival", "password": f"guess-{number}"},
            headers={"X-CSRFToken": stranger.token}))
        if answers[-1].status_code == 429 and not seconds:
            seconds = timer.seconds()  # the stranger's guesses stop here
    rival = Visitor(stack)
    home = rival.http.post("/accounts/login/", data={"username": "rival", "password": PASSWORD},
                           headers={"X-CSRFToken": rival.token})
    codes = [answer.status_code for answer in answers]
    stranger.close()
    rival.close()
    refused = home.status_code == 302 and codes.count(429) >= 45
    return Outcome("lock a rival out before midnight", refused, seconds,
                   f"stranger: {codes.count(200)} checked, {codes.count(429)} refused (429); "
                   f"rival logs in from home: {home.status_code}")


def register_a_look_alike(stack: Stack) -> Outcome:
    visitor = Visitor(stack)
    results = []
    timer = Timer()
    for name in ("admin", "\u0430dmin", "adm\u0456n", "\uff41\uff44\uff4d\uff49\uff4e"):
        answer = visitor.http.post("/accounts/signup/", data={
            "username": name, "password1": PASSWORD, "password2": PASSWORD},
            headers={"X-CSRFToken": visitor.token})
        results.append(answer.status_code)
    seconds = timer.seconds() / 4
    visitor.close()
    made = sql(stack, "SELECT count(*) FROM auth_user WHERE username ILIKE '%%dm%%'")[0][0]
    return Outcome("register admin look-alikes", made == 0 and 302 not in results, seconds,
                   f"answers {results}, accounts made: {made}")


def flood_sign_ups(stack: Stack, limit: int) -> Outcome:
    visitor = Visitor(stack)
    answers = []
    timer = Timer()
    for number in range(limit + 1):
        fresh = Visitor(stack, visitor.address)  # a fresh session, the same network
        answers.append(fresh.http.post("/accounts/signup/", data={
            "username": f"sock{number}", "password1": PASSWORD, "password2": PASSWORD},
            headers={"X-CSRFToken": fresh.token}))
        fresh.close()
    seconds = timer.seconds()
    visitor.close()
    codes = [answer.status_code for answer in answers]
    return Outcome("sign-up flood from one address", codes[-1] == 429 and 429 not in codes[:-1],
                   seconds, f"answers {codes}")


# -- 4. bad input -------------------------------------------------------------------

def bad_page_numbers(stack: Stack) -> Outcome:
    visitor = Visitor(stack)
    codes = []
    timer = Timer()
    for page in ("²", "1" * 5000):
        for url in (f"/api/daily/three-card/{today()}/board/?page={page}",
                    f"/api/boards/three-card/wins/?page={page}",
                    f"/napoleons-tomb/three-card/daily/{today()}/?page={page}",
                    f"/napoleons-tomb/three-card/boards/?board=wins&page={page}"):
            codes.append(visitor.get(url).status_code)
    seconds = timer.seconds() / len(codes)
    visitor.close()
    return Outcome("page numbers ² and 5,000 digits", set(codes) == {400}, seconds,
                   f"answers {sorted(set(codes))}")


def deep_json_body(stack: Stack) -> Outcome:
    visitor = Visitor(stack)
    game = visitor.new_game(1)
    timer = Timer()
    answer = visitor.http.post(f"/api/games/{game['id']}/moves/",
                               content="[" * 3000 + "]" * 3000,
                               headers={"X-CSRFToken": visitor.token,
                                        "Content-Type": "application/json"})
    seconds = timer.seconds()
    after = visitor.get(f"/api/games/{game['id']}/").json()["version"]
    visitor.close()
    return Outcome("JSON body nested 3,000 deep", answer.status_code == 400 and after == 0,
                   seconds, f"{answer.status_code} {answer.json().get('error', '')}")


def deep_socket_frame(stack: Stack) -> Outcome:
    visitor = Visitor(stack)
    game = visitor.new_game(1)

    async def attack() -> tuple[dict[str, Any], dict[str, Any], float]:
        async with visitor.socket(f"/ws/games/{game['id']}/") as socket:
            await socket.recv()  # the state
            timer = Timer()
            await socket.send("[" * 2000 + "]" * 2000)
            refused = json.loads(await socket.recv())
            seconds = timer.seconds()
            await socket.send(json.dumps({"type": "sync", "seq": 1}))
            synced = json.loads(await socket.recv())
            return refused, synced, seconds

    refused, synced, seconds = asyncio.run(attack())
    visitor.close()
    ok = refused["type"] == "error" and synced["type"] == "state"
    return Outcome("WebSocket frame [[[...]]] 4,000 characters", ok, seconds, refused["error"])


def hints_with_fresh_sessions(stack: Stack, address_limit: int) -> Outcome:
    """New visitor sessions from one address, one hint each: the address's allowance holds."""
    address = Visitor(stack).address
    codes = []
    timer = Timer()
    for _ in range(address_limit + 1):
        fresh = Visitor(stack, address)
        game = fresh.new_game(1)
        codes.append(fresh.post(f"/api/games/{game['id']}/hint/").status_code)
        fresh.close()
    seconds = timer.seconds()
    return Outcome("a hint per fresh session from one address", codes[-1] == 429
                   and 429 not in codes[:-1], seconds, f"answers {codes}")


def socket_from_another_origin(stack: Stack) -> Outcome:
    visitor = Visitor(stack)
    game = visitor.new_game(1)
    port = int(stack.base_url.rsplit(":", 1)[1])
    origins = [f"http://127.0.0.1:{port + 1}", f"https://127.0.0.1:{port}",
               "https://evil.example"]

    async def knock(origin: str) -> int:
        try:
            async with connect(f"{stack.ws_url}/ws/games/{game['id']}/", origin=origin,  # type: ignore[arg-type]
                               additional_headers={"Cookie": visitor.cookie_header}):
                return 101
        except InvalidStatus as error:
            return int(error.response.status_code)

    timer = Timer()
    codes = [asyncio.run(knock(origin)) for origin in origins]
    seconds = timer.seconds() / len(origins)
    visitor.close()
    return Outcome("WebSocket from another port or scheme", set(codes) == {403}, seconds,
                   f"handshakes {codes}")


def every_attack(stack: Stack) -> list[Callable[[], Outcome]]:
    limits = {"signup": int(stack.env["SIGNUP_RATE"].split("/")[0]),
              "hints": int(stack.env["HINT_ADDRESS_RATE"].split("/")[0])}
    return [
        lambda: visitor_reads_todays_deal(stack),
        lambda: new_account_reads_todays_deal(stack),
        lambda: second_account_on_the_same_device(stack),
        lambda: main_account_first_then_scout(stack),
        lambda: site_on_placeholder_keys(stack),
        lambda: lock_out_a_rival(stack),
        lambda: register_a_look_alike(stack),
        lambda: flood_sign_ups(stack, limits["signup"]),
        lambda: bad_page_numbers(stack),
        lambda: deep_json_body(stack),
        lambda: deep_socket_frame(stack),
        lambda: hints_with_fresh_sessions(stack, limits["hints"]),
        lambda: socket_from_another_origin(stack),
    ]


ATTACK_ENV = {
    # The site's own limits, low enough to reach in a test: a few accounts and hints
    # per address (the defaults are 5/hour and 120/minute).
    "SIGNUP_RATE": "3/hour", "HINT_ADDRESS_RATE": "4/minute", "HINT_RATE": "30/minute",
    "DAILY_VARIANTS": "three-card", "DAILY_SCREEN_BUDGET_SECONDS": "2",
    "DAILY_DIFFICULTY_GAMES": "0",
}

