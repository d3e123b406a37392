"""Races over REST on the unit layer: rooms, the start, the race, its end and the rematch.

Named players: carol opens the rooms (logged in), dave joins (logged in), and the
visitors vera and walt join by name. Time is the clock fixture's, moved by hand.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from game.models import Game
from game.schema import variants_of_another_game
from patience import GAMES, all_variants
from races.models import Entry, Race

from .conftest import Browser, Clock, regular
from .lines import seeded_line

NEW = {"variant": "three-card", "minutes": 5, "visitors": True}


@pytest.fixture(autouse=True)
def quick_races(settings: Any) -> None:
    settings.RACE_SCREEN_BUDGET_SECONDS = 2.0
    settings.RACE_COUNTDOWN_SECONDS = 5.0


@pytest.fixture
def vera(db: Any) -> Browser:
    return Browser()


@pytest.fixture
def walt(db: Any) -> Browser:
    return Browser()


def open_room(owner: Browser, **options: Any) -> dict[str, Any]:
    response = owner.post("/api/races/", {**NEW, **options})
    assert response.status_code == 201, response.content
    return dict(response.json())


def act(browser: Browser, code: str, what: str, body: Any = None, expect: int = 200) -> Any:
    response = browser.post(f"/api/races/{code}/{what}/", body)
    assert response.status_code == expect, response.content
    return response.json()


def room_of(browser: Browser, code: str) -> dict[str, Any]:
    response = browser.get(f"/api/races/{code}/")
    assert response.status_code == 200, response.content
    return dict(response.json())


def started_race(owner: Browser, *others: Browser, names: tuple[str, ...] = ()) -> str:
    """A room with ``others`` in it, all ready, started; returns its code."""
    code = open_room(owner)["code"]
    for number, other in enumerate(others):
        act(other, code, "join", {"name": names[number] if names else f"player {number}"})
        act(other, code, "ready", {"ready": True})
    assert act(owner, code, "start")["state"] == "running"
    return code


def play(browser: Browser, room: dict[str, Any], moves: Any) -> Any:
    game_id = room["me"]["game"]
    answer = None
    for move in moves:
        answer = browser.move(game_id, move)
        assert answer.status_code == 200, answer.content
    return answer


def line_of(code: str) -> tuple[str, ...]:
    return seeded_line(Race.objects.get(code=code).seed)


def play_until_home(browser: Browser, code: str) -> int:
    """Play the winning line until a card is home; returns how many moves that took."""
    game_id = room_of(browser, code)["me"]["game"]
    line, played = line_of(code), 0
    while played == 0 or browser.get(f"/api/games/{game_id}/").json()["home"] == 0:
        assert browser.move(game_id, line[played]).status_code == 200
        played += 1
    return played


# -- rooms ------------------------------------------------------------------------

def test_a_room_opens_with_its_owner_in_it(carol_browser: Browser) -> None:
    room = open_room(carol_browser)
    assert room["state"] == "lobby" and room["owner"] == "carol"
    assert room["url"] == f"/race/{room['code']}/" and len(room["code"]) >= 10
    assert [player["name"] for player in room["players"]] == ["carol"]
    assert room["me"]["owner"] is True and room["me"]["game"] is None
    assert room["variant"]["slug"] == "three-card" and room["card_count"] == 52


def test_only_a_logged_in_player_opens_a_room(alice: Browser) -> None:
    response = alice.post("/api/races/", NEW)
    assert response.status_code == 403


def test_rooms_are_rate_limited(carol_browser: Browser, settings: Any) -> None:
    settings.RACE_CREATE_RATE = "2/hour"
    open_room(carol_browser)
    open_room(carol_browser)
    refused = carol_browser.post("/api/races/", NEW)
    assert refused.status_code == 429
    assert refused.json()["wait"] > 0 and int(refused["Retry-After"]) > 0


def test_players_join_once(carol_browser: Browser, dave_browser: Browser, vera: Browser) -> None:
    code = open_room(carol_browser)["code"]
    room = act(dave_browser, code, "join")
    assert [player["name"] for player in room["players"]] == ["carol", "dave"]
    act(dave_browser, code, "join", expect=409)
    act(carol_browser, code, "join", expect=409)
    room = act(vera, code, "join", {"name": "  Vera  "})
    assert room["me"]["owner"] is False and room["players"][-1]["name"] == "Vera"
    act(vera, code, "join", {"name": "Vera again"}, expect=409)


def test_visitors_need_a_name_and_the_owners_leave(
    carol_browser: Browser, vera: Browser, walt: Browser
) -> None:
    code = open_room(carol_browser, visitors=False)["code"]
    act(vera, code, "join", {"name": "Vera"}, expect=403)
    act(carol_browser, code, "options", {"visitors": True})
    for bad in ({}, {"name": ""}, {"name": "x" * 25}, {"name": 7}, {"name": "a\u0000b"}):
        act(vera, code, "join", bad, expect=400)
    act(vera, code, "join", {"name": "Vera"})
    act(walt, code, "join", {"name": "vera"}, expect=400)  # the same name, another case


RESERVED = "that name is reserved: choose another"
IN_THE_ROOM = "someone in this race goes by that name, or one that looks like it: choose another"
AN_ACCOUNT = "that name is an account's, or looks like one: choose another, or log in"


@pytest.mark.parametrize(("name", "refusal"), [
    ("admin", RESERVED),
    ("\u0430dmin", RESERVED),  # a Cyrillic a
    ("\uff21\uff24\uff2d\uff29\uff2e", RESERVED),  # fullwidth ADMIN
    ("Support", RESERVED),
    ("c\u0430rol", IN_THE_ROOM),  # the owner's name with a Cyrillic a
    ("CAROL", IN_THE_ROOM),
    ("V\u0435ra", IN_THE_ROOM),  # the other visitor's, with a Cyrillic e
    ("dave", AN_ACCOUNT),  # an account not in this room
    ("D\u0430ve", AN_ACCOUNT),
])
def test_visitor_names_follow_the_account_rules(
    carol_browser: Browser, dave: User, vera: Browser, walt: Browser, name: str, refusal: str
) -> None:
    code = open_room(carol_browser)["code"]
    act(vera, code, "join", {"name": "Vera"})

    refused = act(walt, code, "join", {"name": name}, expect=400)

    assert refused == {"error": refusal}
    assert [player["name"] for player in room_of(carol_browser, code)["players"]] == [
        "carol", "Vera"]
    act(walt, code, "join", {"name": "Walt"})  # a name of his own


@pytest.mark.parametrize(("language", "refusal"), [
    ("ru", "это имя зарезервировано: выберите другое"),
    ("fi", "nimi on varattu: valitse toinen"),
])
def test_the_refusal_is_in_the_visitors_language(
    carol_browser: Browser, walt: Browser, language: str, refusal: str
) -> None:
    code = open_room(carol_browser)["code"]
    walt.client.cookies["django_language"] = language

    assert act(walt, code, "join", {"name": "\u0430dmin"}, expect=400) == {"error": refusal}


def test_an_account_kept_without_a_handle_is_still_an_accounts_name(
    carol_browser: Browser, walt: Browser
) -> None:
    kept = regular("olga")
    kept.handle.delete()  # as a look-alike of another account's was, when names became unique
    code = open_room(carol_browser)["code"]

    assert act(walt, code, "join", {"name": "Olga"}, expect=400) == {"error": AN_ACCOUNT}


def test_a_room_holds_eight(carol_browser: Browser) -> None:
    code = open_room(carol_browser)["code"]
    for number in range(7):
        act(Browser(), code, "join", {"name": f"guest {number}"})
    act(Browser(), code, "join", {"name": "the ninth"}, expect=409)
    assert len(room_of(carol_browser, code)["players"]) == 8


def test_only_the_owner_changes_options(carol_browser: Browser, dave_browser: Browser) -> None:
    code = open_room(carol_browser)["code"]
    act(dave_browser, code, "join")
    act(dave_browser, code, "options", {"minutes": 10}, expect=403)
    for bad in ({"minutes": 7}, {"minutes": True}, {"minutes": "5"}, {"visitors": "no"}, []):
        act(carol_browser, code, "options", bad, expect=400)
    room = act(carol_browser, code, "options", {"minutes": 15, "visitors": False})
    assert room["minutes"] == 15 and room["visitors"] is False


def test_start_needs_two_players_all_ready(carol_browser: Browser, dave_browser: Browser) -> None:
    code = open_room(carol_browser)["code"]
    act(carol_browser, code, "start", expect=409)  # alone
    act(dave_browser, code, "join")
    act(carol_browser, code, "start", expect=409)  # dave is not ready
    act(dave_browser, code, "ready", {"ready": True})
    act(dave_browser, code, "start", expect=403)  # not the owner
    room = act(carol_browser, code, "start")
    assert room["state"] == "running" and room["starts_at"] and room["ends_at"]
    assert room["me"]["game"] is not None
    act(carol_browser, code, "start", expect=409)
    act(Browser(), code, "join", {"name": "late"}, expect=409)  # running


def test_every_player_gets_the_same_secret_deal(
    carol_browser: Browser, dave_browser: Browser
) -> None:
    code = started_race(carol_browser, dave_browser)
    games = [Game.objects.get(pk=room_of(browser, code)["me"]["game"])
             for browser in (carol_browser, dave_browser)]
    assert games[0].pk != games[1].pk and games[0].cards == games[1].cards
    race = Race.objects.get(code=code)
    assert all(game.race and not game.ranked and game.deal is None for game in games)
    assert all(game.started_at == race.starts_at and game.closes_at == race.ends_at
               for game in games)
    shown = carol_browser.get(f"/api/games/{games[0].pk}/").json()
    assert shown["deal_kind"] == "race" and shown["free_play"] is None


def test_the_countdown_refuses_moves_then_the_clock_runs_from_the_start(
    carol_browser: Browser, dave_browser: Browser, clock: Clock
) -> None:
    code = started_race(carol_browser, dave_browser)
    room = room_of(carol_browser, code)
    early = carol_browser.move(room["me"]["game"], line_of(code)[0])
    assert early.status_code == 409 and "starts in 5 seconds" in early.json()["error"]
    clock.tick(8)
    assert play(carol_browser, room, line_of(code)[:1]).json()["moves"] == 1
    player = room_of(dave_browser, code)["players"][0]
    assert player["moves"] == 1 and player["time_ms"] == 3000


def test_no_hints_and_no_undo_of_a_turn_in_a_race(
    carol_browser: Browser, dave_browser: Browser, clock: Clock
) -> None:
    code = started_race(carol_browser, dave_browser)
    clock.tick(6)
    room = room_of(carol_browser, code)
    hint = carol_browser.post(f"/api/games/{room['me']['game']}/hint/")
    assert hint.status_code == 409 and "hints are off" in hint.json()["error"]
    play(carol_browser, room, ["D"])
    undo = carol_browser.post(f"/api/games/{room['me']['game']}/undo/")
    assert undo.status_code == 409 and "in a race" in undo.json()["error"]


def test_nobody_plays_anothers_game(carol_browser: Browser, dave_browser: Browser,
                                    clock: Clock) -> None:
    code = started_race(carol_browser, dave_browser)
    clock.tick(6)
    carols = room_of(carol_browser, code)["me"]["game"]
    assert dave_browser.move(carols, "D").status_code == 403
    assert dave_browser.get(f"/api/games/{carols}/").status_code == 403
    assert all("game" not in player for player in room_of(dave_browser, code)["players"])


# -- the end ----------------------------------------------------------------------

def test_a_win_and_a_give_up_end_the_race_with_places(
    carol_browser: Browser, dave_browser: Browser, clock: Clock,
    django_capture_on_commit_callbacks: Any,
) -> None:
    code = started_race(carol_browser, dave_browser)
    clock.tick(6)
    with django_capture_on_commit_callbacks(execute=True):
        play(dave_browser, room_of(dave_browser, code), line_of(code)[:3])
        act(dave_browser, code, "give-up")
        act(dave_browser, code, "give-up", expect=409)
        clock.tick(30)
        won = play(carol_browser, room_of(carol_browser, code), line_of(code)).json()
    assert won["status"] == "won"
    room = room_of(carol_browser, code)
    assert room["state"] == "finished"
    assert [(player["name"], player["place"], player["status"]) for player in room["players"]] \
        == [("carol", 1, "won"), ("dave", 2, "gave-up")]
    assert room["players"][0]["time_ms"] == 30_000 + 1000  # from the start, not the 1st move
    # Neither free play nor the daily's figures count a race.
    from game.models import FreePlayStats
    from leaderboards.models import Attempt, PlayerStats

    assert not FreePlayStats.objects.exists() and not PlayerStats.objects.exists()
    assert not Attempt.objects.exists()


def test_the_time_limit_ends_the_race_on_the_next_read(
    carol_browser: Browser, dave_browser: Browser, vera: Browser, clock: Clock
) -> None:
    code = started_race(carol_browser, dave_browser, vera, names=("dave", "Vera"))
    clock.tick(6)
    line = line_of(code)
    played = play_until_home(dave_browser, code)
    clock.tick(1)
    play(vera, room_of(vera, code), line[:played])  # as many home, a second later
    clock.tick(5 * 60)
    late = vera.move(room_of(vera, code)["me"]["game"], line[played])
    assert late.status_code == 409
    room = room_of(carol_browser, code)
    assert room["state"] == "finished"
    # dave and Vera played the same moves (as many cards home), dave a second sooner;
    # carol played none.
    assert [(player["name"], player["status"], player["place"]) for player in room["players"]] \
        == [("dave", "out-of-time", 1), ("Vera", "out-of-time", 2), ("carol", "out-of-time", 3)]
    home = {player["name"]: player["home"] for player in room["players"]}
    assert home["dave"] == home["Vera"] > home["carol"]


def test_the_ranking_order() -> None:
    """Won before not won, then cards home, then time, then moves."""
    from datetime import UTC, datetime, timedelta

    from races.actions.running import rank_key

    start = datetime(2026, 1, 1, tzinfo=UTC)

    def entry(status: str, home: int, seconds: int, moves: int) -> Entry:
        end = start + timedelta(seconds=seconds)
        return Entry(game=Game(status=status, home=home, moves=moves, started_at=start,
                               updated_at=end, finished_at=None if status == "playing" else end))

    won_slow = entry("won", 52, 90, 100)
    won_fast = entry("won", 52, 60, 120)
    stuck_more_home = entry("lost", 30, 10, 50)
    more_home = entry("playing", 30, 20, 40)
    same_time_fewer_moves = entry("playing", 20, 10, 30)
    same_time_more_moves = entry("playing", 20, 10, 50)
    moved = entry("playing", 0, 50, 9)
    never_moved = entry("playing", 0, 0, 0)
    ranked = [won_fast, won_slow, stuck_more_home, more_home, same_time_fewer_moves,
              same_time_more_moves, moved, never_moved]
    assert sorted(reversed(ranked), key=rank_key) == ranked


def test_all_leaving_a_lobby_closes_it(carol_browser: Browser, dave_browser: Browser) -> None:
    code = open_room(carol_browser)["code"]
    act(dave_browser, code, "join")
    room = act(carol_browser, code, "leave")
    assert room["owner"] == "dave" and room["me"] is None
    assert act(dave_browser, code, "leave")["state"] == "closed"
    act(dave_browser, code, "join", expect=409)


def test_leaving_a_race_counts_as_done(
    carol_browser: Browser, dave_browser: Browser, clock: Clock,
    django_capture_on_commit_callbacks: Any,
) -> None:
    code = started_race(carol_browser, dave_browser)
    clock.tick(6)
    dave = dave_browser
    act(dave_browser, code, "leave")
    dave_game = Game.objects.get(race_entry__race__code=code, owner__username="dave")
    assert dave_game.closes_at == clock.now  # closed when he left: no move after it
    assert dave.move(str(dave_game.pk), "D").status_code == 409
    assert room_of(carol_browser, code)["state"] == "running"
    act(carol_browser, code, "give-up")
    room = room_of(carol_browser, code)
    assert room["state"] == "finished"
    assert {player["name"]: player["status"] for player in room["players"]} == {
        "carol": "gave-up", "dave": "left"}


# -- after ------------------------------------------------------------------------

def finished_race(carol_browser: Browser, dave_browser: Browser, clock: Clock) -> str:
    code = started_race(carol_browser, dave_browser)
    clock.tick(6)
    play_until_home(dave_browser, code)
    act(dave_browser, code, "give-up")
    act(carol_browser, code, "give-up")
    return code


def test_the_rematch_has_the_same_players_and_a_new_deal(
    carol_browser: Browser, dave_browser: Browser, clock: Clock
) -> None:
    code = started_race(carol_browser, dave_browser)
    act(carol_browser, code, "rematch", expect=409)  # not over
    clock.tick(6)
    act(dave_browser, code, "give-up")
    act(carol_browser, code, "give-up")
    new = act(dave_browser, code, "rematch")
    assert new["code"] != code and new["state"] == "lobby" and new["owner"] == "carol"
    assert [(player["name"], player["ready"]) for player in new["players"]] == [
        ("carol", False), ("dave", False)]
    assert act(carol_browser, code, "rematch")["code"] == new["code"]
    assert room_of(carol_browser, code)["rematch"] == new["code"]
    act(Browser(), code, "rematch", expect=403)
    act(dave_browser, new["code"], "ready", {"ready": True})
    act(carol_browser, new["code"], "start")
    assert Race.objects.get(code=new["code"]).seed != Race.objects.get(code=code).seed


def test_replays_open_after_the_race_only_to_its_players(
    carol_browser: Browser, dave_browser: Browser, clock: Clock
) -> None:
    code = started_race(carol_browser, dave_browser)
    clock.tick(6)
    dave = room_of(dave_browser, code)
    play(dave_browser, dave, line_of(code)[:4])
    url = f"/api/races/{code}/replay/{dave['me']['id']}/"
    assert carol_browser.get(url).status_code == 409  # running
    act(dave_browser, code, "give-up")
    act(carol_browser, code, "give-up")
    assert Browser().get(url).status_code == 403
    replay = carol_browser.get(url).json()
    assert replay["player"] == "dave" and replay["moves"] == list(line_of(code)[:4])
    assert len(replay["frames"]) == 5 and len(replay["deal"]) == 52
    assert replay["deal"] == Race.objects.get(code=code).cards.split()
    for bad in ("0", "x", "99999999999999", "-1"):
        assert carol_browser.get(f"/api/races/{code}/replay/{bad}/").status_code == 404


def test_the_race_record_on_my_statistics(
    carol_browser: Browser, dave_browser: Browser, clock: Clock
) -> None:
    from races.stats import record_of

    finished_race(carol_browser, dave_browser, clock)
    dave = User.objects.get(username="dave")
    record = record_of(dave.pk)
    assert record["races"] == 1 and record["wins"] == 1 and record["podiums"] == 1
    assert record["recent"][0]["place"] == 1 and record["recent"][0]["players"] == 2
    page = dave_browser.get("/me/stats/")
    assert page.status_code == 200 and b"Podiums" in page.content


def test_unknown_rooms_are_404(carol_browser: Browser) -> None:
    for code in ("nope", "x" * 40, "%20", "a.b"):
        assert carol_browser.get(f"/api/races/{code}/").status_code == 404
        assert carol_browser.post(f"/api/races/{code}/join/", {}).status_code == 404


def test_a_user_made_on_the_fly_can_race(carol_browser: Browser) -> None:
    erin = Browser()
    erin.log_in(regular("erin"))
    code = open_room(carol_browser)["code"]
    assert act(erin, code, "join")["me"]["owner"] is False


# -- events, the pool, the sweep ------------------------------------------------------

def test_room_events_go_out_only_once_the_write_commits(
    carol_browser: Browser, dave_browser: Browser, clock: Clock,
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from races import events

    sent: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(events, "_send", lambda code, event: sent.append((code, event)))
    code = open_room(carol_browser)["code"]
    with django_capture_on_commit_callbacks(execute=False) as waiting:
        act(dave_browser, code, "join")
    assert sent == [] and len(waiting) == 1
    waiting[0]()
    assert sent == [(code, {"type": "race.room"})]
    act(dave_browser, code, "ready", {"ready": True})
    with django_capture_on_commit_callbacks(execute=True):
        act(carol_browser, code, "start")
        clock.tick(7)
        sent.clear()
        play(dave_browser, room_of(dave_browser, code), line_of(code)[:2])
    progress = [event["progress"] for _, event in sent if event["type"] == "race.progress"]
    assert [(update["moves"], update["status"], update["time_ms"]) for update in progress] == [
        (1, "playing", 2000), (2, "playing", 2000)]


def test_start_takes_a_pooled_deal_and_the_pool_refills(
    carol_browser: Browser, dave_browser: Browser, settings: Any
) -> None:
    from races.models import PooledDeal
    from races.tasks import fill_pool

    settings.RACE_POOL_SIZE = 2
    settings.RACE_POOL_VARIANTS = ["three-card"]
    assert fill_pool() == 2
    pooled = set(PooledDeal.objects.values_list("seed", flat=True))
    code = open_room(carol_browser)["code"]
    act(dave_browser, code, "join")
    act(dave_browser, code, "ready", {"ready": True})
    act(carol_browser, code, "start")
    assert Race.objects.get(code=code).seed in pooled
    assert PooledDeal.objects.count() == 1  # taken: no other race gets it
    assert fill_pool("three-card") == 1


def test_the_sweep_ends_overdue_races_and_closes_forgotten_lobbies(
    carol_browser: Browser, dave_browser: Browser, clock: Clock, settings: Any
) -> None:
    from races.tasks import sweep

    running = started_race(carol_browser, dave_browser)
    forgotten = open_room(carol_browser)["code"]
    clock.tick(60)
    assert sweep() == 0  # nothing due yet: a lobby no socket opened waits longer
    clock.tick(settings.RACE_LOBBY_UNSEEN_SECONDS + 5 * 60)
    assert sweep() == 2
    states = dict(Race.objects.values_list("code", "state"))
    assert states[running] == "finished" and states[forgotten] == "closed"
    assert sweep() == 0


def test_a_visitor_who_signs_up_mid_race_keeps_their_place_and_game(
    carol_browser: Browser, vera: Browser, clock: Clock
) -> None:
    code = started_race(carol_browser, vera, names=("Vera",))
    clock.tick(6)
    game_id = room_of(vera, code)["me"]["game"]
    signed = vera.client.post("/accounts/signup/", {
        "username": "vera", "password1": "tomb-of-the-emperor",
        "password2": "tomb-of-the-emperor"}, HTTP_X_CSRFTOKEN=vera.csrf())
    assert signed.status_code == 302
    room = room_of(vera, code)
    assert room["me"]["game"] == game_id and room["players"][1]["name"] == "Vera"
    assert Entry.objects.get(race__code=code, name="Vera").user.username == "vera"
    assert vera.move(game_id, line_of(code)[0]).status_code == 200
    assert act(vera, code, "give-up")["me"]["id"] == room["me"]["id"]


# -- the schema says what the server takes ------------------------------------------

def test_the_race_bodies_in_the_schema_follow_the_registry(carol_browser: Browser) -> None:
    schema = carol_browser.get("/api/schema/?format=json").json()["components"]["schemas"]
    new, options = schema["NewRace"], schema["RaceOptions"]

    assert schema["GameEnum"]["enum"] == list(GAMES)
    assert schema["VariantEnum"]["enum"] == [variant.slug for _, variant in all_variants()]
    assert new["not"] == {"anyOf": variants_of_another_game()}
    assert new["properties"]["visitors"]["type"] == "boolean"
    assert new["properties"]["visitors"]["nullable"] is True
    assert options["properties"]["visitors"]["nullable"] is True
    assert options["properties"]["minutes"]["nullable"] is True
    assert "nullable" not in new["properties"]["minutes"]  # null is no time limit: 400


def test_a_race_body_the_schema_allows_is_taken(carol_browser: Browser, settings: Any) -> None:
    settings.RACE_CREATE_RATE = "100/hour"
    for body, variant in (({"game": "klondike"}, "turn-1"), ({"game": "", "variant": ""},
                          "three-card"), ({"game": None, "variant": "st-helena"}, "st-helena"),
                          ({"visitors": None}, "three-card")):
        room = open_room(carol_browser, **{"variant": None, **body})
        assert room["variant"]["slug"] == variant, body
        assert room["visitors"] is True

    code = open_room(carol_browser, visitors=False, minutes=10)["code"]
    room = act(carol_browser, code, "options", {"minutes": None, "visitors": None})
    assert (room["minutes"], room["visitors"]) == (10, False)


@pytest.mark.parametrize("body", [
    {"game": "klondike", "variant": "three-card"}, {"game": "klondike", "variant": "crib"},
    {"game": "chess"}, {"minutes": None}, {"visitors": "yes"},
])
def test_a_race_body_the_schema_refuses_is_a_400(carol_browser: Browser, body: Any) -> None:
    response = carol_browser.post("/api/races/", {**NEW, **body})
    assert response.status_code == 400, response.content
    assert not Race.objects.exists()
