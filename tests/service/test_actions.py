"""The actions layer: the only writer of games, its checks, locks and events."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from game import actions, hinting
from game.models import Game
from patience import all_variants
from patience.tomb import CLASSIC, THREE_CARD, deal_from_number, parse_move

from .conftest import EASY_DEAL
from .lines import winning_line


def carol_of(user: User) -> actions.Player:
    return actions.Player(user_id=user.pk)


def test_a_new_game_stores_the_deal_and_shows_only_the_visible_view(carol: User) -> None:
    game = actions.do_create_game(carol_of(carol), CLASSIC, deal_from_number(7))

    stored = Game.objects.get(pk=game["id"])
    assert stored.cards.split() == deal_from_number(7).texts
    assert (stored.variant, stored.deal, stored.owner, stored.status) == (
        "classic", 7, carol, "playing",
    )
    assert game["state"]["stock_count"] == 52
    assert "cards" not in game and "log" not in game


def test_a_move_is_stored_counted_and_versioned(carol: User, carol_game: dict[str, Any]) -> None:
    game = actions.do_move(carol_game["id"], carol_of(carol), parse_move("D"))

    stored = Game.objects.get(pk=carol_game["id"])
    assert (stored.log, stored.moves, stored.version) == ("D", 1, 1)
    assert game["version"] == 1 and game["state"]["stock_count"] == 49


def test_an_illegal_move_changes_nothing(carol: User, carol_game: dict[str, Any]) -> None:
    before = Game.objects.values().get(pk=carol_game["id"])

    with pytest.raises(actions.NotAllowedNow) as raised:
        actions.do_move(carol_game["id"], carol_of(carol), parse_move("R"))

    assert raised.value.status == 409
    assert "stock is not empty" in raised.value.message
    assert Game.objects.values().get(pk=carol_game["id"]) == before


def test_undo_takes_back_the_last_move_and_is_counted(
    carol: User, carol_game: dict[str, Any]
) -> None:
    player = carol_of(carol)
    actions.do_move(carol_game["id"], player, parse_move("D"))
    actions.do_move(carol_game["id"], player, parse_move("D"))

    game = actions.do_undo(carol_game["id"], player)

    stored = Game.objects.get(pk=carol_game["id"])
    # moves: the line's (the undone move is counted in undos only)
    assert (stored.log, stored.moves, stored.undos, stored.version) == ("D", 1, 1, 3)
    assert game["state"]["stock_count"] == 49


def test_a_move_on_the_version_seen_is_applied_once(
    carol: User, carol_game: dict[str, Any]
) -> None:
    player = carol_of(carol)
    game = actions.do_move(carol_game["id"], player, parse_move("D"), version=0)
    before = Game.objects.values().get(pk=carol_game["id"])

    # The same move resent on the version it was first sent on: refused, nothing changes.
    with pytest.raises(actions.Stale) as raised:
        actions.do_move(carol_game["id"], player, parse_move("D"), version=0)

    assert game["version"] == 1
    assert (raised.value.status, raised.value.code) == (409, "stale")
    assert raised.value.game == actions.show_game(carol_game["id"], player)
    assert "cards" not in raised.value.game
    assert Game.objects.values().get(pk=carol_game["id"]) == before


def test_an_undo_on_an_old_version_is_refused(carol: User, carol_game: dict[str, Any]) -> None:
    player = carol_of(carol)
    actions.do_move(carol_game["id"], player, parse_move("D"))
    actions.do_move(carol_game["id"], player, parse_move("D"))

    with pytest.raises(actions.Stale):
        actions.do_undo(carol_game["id"], player, version=1)
    game = actions.do_undo(carol_game["id"], player, version=2)

    assert (game["version"], game["undos"]) == (3, 1)


@pytest.mark.parametrize("body", [
    {"version": "3"}, {"version": -1}, {"version": 2**53 + 1}, {"version": True},
    {"version": 1.5}, {"version": [1]},
])
def test_bad_versions_are_bad_requests(body: dict[str, Any]) -> None:
    with pytest.raises(actions.BadRequest):
        actions.check_version(body)


def test_no_version_means_no_check() -> None:
    assert actions.check_version({"move": "D"}) is None
    assert actions.check_version({"version": 2**53}) == 2**53


def test_undo_at_the_start_is_refused(carol: User, carol_game: dict[str, Any]) -> None:
    with pytest.raises(actions.NotAllowedNow):
        actions.do_undo(carol_game["id"], carol_of(carol))


def test_playing_the_winning_line_wins_and_counts_the_win(
    carol: User, carol_game: dict[str, Any]
) -> None:
    player = carol_of(carol)
    for move in winning_line(EASY_DEAL):
        game = actions.do_move(carol_game["id"], player, parse_move(move))

    assert game["status"] == "won" and game["state"]["home"] == 52
    stored = Game.objects.get(pk=carol_game["id"])
    assert stored.status == "won" and stored.finished_at is not None
    # Every registered variant has its count, so a new game needs no edit here.
    assert actions.wins_by_variant(player) == {
        **{variant.slug: 0 for _, variant in all_variants()}, "three-card": 1}


def test_undo_after_a_win_reopens_the_game(carol: User, carol_game: dict[str, Any]) -> None:
    player = carol_of(carol)
    for move in winning_line(EASY_DEAL):
        actions.do_move(carol_game["id"], player, parse_move(move))

    game = actions.do_undo(carol_game["id"], player)

    assert game["status"] == "playing" and game["finished"] is None


def test_another_player_cannot_act_on_a_game(dave: User, carol_game: dict[str, Any]) -> None:
    with pytest.raises(actions.NotYours):
        actions.do_move(carol_game["id"], carol_of(dave), parse_move("D"))
    with pytest.raises(actions.NotYours):
        actions.show_game(carol_game["id"], actions.Player(anon_token="guess"))
    assert Game.objects.get(pk=carol_game["id"]).version == 0


def test_a_visitor_without_a_token_owns_no_anonymous_game(db: Any) -> None:
    game = actions.do_create_game(
        actions.Player(anon_token="tok-1"), THREE_CARD, deal_from_number(1)
    )
    with pytest.raises(actions.NotYours):
        actions.show_game(game["id"], actions.Player())


@pytest.mark.parametrize(
    "game_id", ["not-a-uuid", "", None, "00000000-0000-0000-0000-000000000000"]
)
def test_unknown_or_forged_ids_are_not_found(carol: User, game_id: object) -> None:
    with pytest.raises(actions.GameNotFound):
        actions.do_move(game_id, carol_of(carol), parse_move("D"))


@pytest.mark.parametrize("body", [None, [], "D", {"move": 3}, {"move": "D" * 41}, {},
                                  {"move": ""}, {"move": "  "}])
def test_malformed_moves_are_bad_requests(body: object) -> None:
    with pytest.raises(actions.BadRequest):
        actions.check_move(body)


@pytest.mark.parametrize("body", [
    {"variant": "spider"}, {"deal": 0}, {"deal": 1_000_000}, {"deal": "12a"}, {"deal": True},
    {"deal": 1.5}, {"variant": ["classic"]}, {"deal": "\u00b2"}, {"deal": "1\u00b2"},
])
def test_bad_new_games_are_bad_requests(body: dict[str, Any]) -> None:
    with pytest.raises(actions.BadRequest):
        actions.check_new_game(body)


def test_no_deal_means_a_random_public_deal() -> None:
    variant, deal = actions.check_new_game({"variant": "classic"})
    assert variant is CLASSIC and 1 <= (deal.number or 0) <= 999_999


def test_the_state_is_sent_only_after_commit(
    carol: User, carol_game: dict[str, Any], sent: list[dict[str, Any]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        actions.do_move(carol_game["id"], carol_of(carol), parse_move("D"), origin="ch", seq=5)
    assert sent == [] and len(callbacks) == 1

    callbacks[0]()

    [event] = sent
    assert event["type"] == "game.state" and event["version"] == 1
    assert (event["origin"], event["seq"], event["game"]["id"]) == ("ch", 5, carol_game["id"])


def test_an_illegal_move_sends_nothing(
    carol: User, carol_game: dict[str, Any], sent: list[dict[str, Any]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(actions.NotAllowedNow):
        actions.do_move(carol_game["id"], carol_of(carol), parse_move("F"))
    assert sent == []


def test_a_move_costs_two_queries(
    carol: User, carol_game: dict[str, Any], statements: Any
) -> None:
    # The hot path: lock the row, write it back. Nothing else.
    with statements() as sql:
        actions.do_move(carol_game["id"], carol_of(carol), parse_move("D"))
    assert sql == ["SELECT", "UPDATE"]


def test_a_rest_hint_is_counted_and_answered(
    carol: User, carol_game: dict[str, Any], sent: list[dict[str, Any]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = actions.do_hint_now(carol_game["id"], carol_of(carol))

    # The real solver: deal 2 starts with a turn and is won along a line of 97 moves.
    assert game["hints"] == 1 and game["hint"] == {
        "move": "D", "verdict": "winnable", "line_length": 97,
    }
    assert sorted(event["type"] for event in sent) == ["game.hint", "game.state"]


def test_a_live_hint_runs_the_task_after_commit(
    carol: User, carol_game: dict[str, Any], sent: list[dict[str, Any]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = actions.do_request_hint(carol_game["id"], carol_of(carol))

    assert game["hints"] == 1
    assert [event["type"] for event in sent] == ["game.state", "game.hint"]
    assert sent[1]["hint"]["move"] == "D" and sent[1]["version"] == 1


def test_a_finished_game_gets_no_hint(carol: User, carol_game: dict[str, Any]) -> None:
    player = carol_of(carol)
    for move in winning_line(EASY_DEAL):
        actions.do_move(carol_game["id"], player, parse_move(move))
    with pytest.raises(actions.NotAllowedNow):
        actions.do_hint_now(carol_game["id"], player)


@pytest.mark.parametrize("answer, cleaned", [
    ({"move": "f@TOMB", "verdict": "winnable", "line_length": 40},
     {"move": "F@tomb", "verdict": "winnable", "line_length": 40}),
    ({"move": None, "verdict": "lost", "line_length": None, "line": ["7H", "8C"]},
     {"move": None, "verdict": "lost", "line_length": None}),
    ({"move": None, "verdict": "7H", "line_length": True},
     {"move": None, "verdict": "unknown", "line_length": None}),
])
def test_a_hint_carries_only_notation_and_a_verdict(
    answer: dict[str, Any], cleaned: dict[str, Any]
) -> None:
    assert hinting.clean_hint(answer, "classic") == cleaned


def test_logging_in_adopts_the_visitors_games(carol: User) -> None:
    visitor = actions.Player(anon_token="tok-2")
    game = actions.do_create_game(visitor, THREE_CARD, deal_from_number(3))

    assert actions.do_adopt_games(carol, "tok-2") == 1

    stored = Game.objects.get(pk=game["id"])
    assert (stored.owner, stored.anon_token) == (carol, "")
    assert actions.latest_unfinished(carol_of(carol), THREE_CARD)["id"] == game["id"]
