"""The visible view (what a player may see) and the storage record (exact replay).

The view must carry everything on the table and nothing unseen: the stock
only as a count. The record must rebuild the exact position, and anything
that is not a record of this engine must fail with a ValueError (the API
turns those into a 4xx), never with another exception.
"""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from engine_builders import (
    FILLER,
    golden_deals,
    greedy_playout,
    play,
    table,
    tomb_order,
    winning_game,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from patience.tomb import (
    CLASSIC,
    THREE_CARD,
    Position,
    Variant,
    deal_from_cards,
    deal_from_number,
    deal_from_seed,
    from_record,
    new_game,
    parse_moves,
    to_record,
    visible_view,
)

EMPTY_CELLS = {"n": None, "w": None, "e": None, "s": None}
EMPTY_PILES: dict[str, list[str]] = {"nw": [], "ne": [], "sw": [], "se": [], "tomb": []}


def won_game(variant: Variant) -> Position:
    deal, moves = winning_game(variant)
    return play(Position(deal, variant), moves)


def greedy(position: Position, limit: int | None = None) -> Position:
    greedy_playout(position, limit)
    return position


# -- the visible view --------------------------------------------------------------------

UP_NONE = {"down": 0, "up": []}


def test_the_view_of_a_fresh_three_card_game() -> None:
    assert visible_view(new_game(1)) == {
        "variant": "three-card",
        "stock_count": 52,
        "waste": [],
        "cells": EMPTY_CELLS,
        "foundations": EMPTY_PILES,
        "tomb": {"wants": "6", "round": 1, "complete": False},
        "home": 0,
        "pass": 1,
        "passes": 3,
        "passes_left": 2,
        "moves": 0,
        "log": [],
        "legal": ["D"],
        "can_undo": False,
        "status": "playing",
        "game": "napoleons-tomb",
        "piles": {
            "stock": {"down": 52, "up": []}, "waste": UP_NONE,
            **{cell: UP_NONE for cell in EMPTY_CELLS}, **{name: UP_NONE for name in EMPTY_PILES},
        },
        "paths": {"D": {"from": "stock", "to": "waste", "count": 3}},
        "pickable": {"stock": [3]},
    }


def test_the_view_of_a_fresh_classic_game() -> None:
    view = visible_view(new_game(1, "classic"))
    assert view["variant"] == "classic"
    assert (view["pass"], view["passes"], view["passes_left"]) == (1, 1, 0)


def test_the_view_after_some_moves() -> None:
    # Three-card: D shows 9H 7C 6S; 6S goes to the tomb, 7C to nw, 9H parks.
    position = table("9H 7C 6S", "D F F C", THREE_CARD)
    view = visible_view(position)
    assert view == {
        "variant": "three-card",
        "stock_count": 49,
        "waste": [],
        "cells": {**EMPTY_CELLS, "n": "9H"},
        "foundations": {**EMPTY_PILES, "nw": ["7C"], "tomb": ["6S"]},
        "tomb": {"wants": "5", "round": 1, "complete": False},
        "home": 2,
        "pass": 1,
        "passes": 3,
        "passes_left": 2,
        "moves": 4,
        "log": ["D", "F@tomb", "F@nw", "C@n"],
        "legal": ["D"],
        "can_undo": True,
        "status": "playing",
        "game": "napoleons-tomb",
        "piles": {
            "stock": {"down": 49, "up": []}, "waste": UP_NONE,
            **{cell: UP_NONE for cell in EMPTY_CELLS}, "n": {"down": 0, "up": ["9H"]},
            **{name: UP_NONE for name in EMPTY_PILES},
            "nw": {"down": 0, "up": ["7C"]}, "tomb": {"down": 0, "up": ["6S"]},
        },
        "paths": {"D": {"from": "stock", "to": "waste", "count": 3}},
        "pickable": {"stock": [3]},
    }
    assert json.loads(json.dumps(view)) == view


def test_the_view_shows_the_whole_waste_bottom_first() -> None:
    # Every waste card was turned face up, so all are shown; the last one
    # listed is the card in play.
    position = table("", "D D", THREE_CARD)
    assert visible_view(position)["waste"] == list(FILLER[:6])
    assert visible_view(position)["stock_count"] == 46


@pytest.mark.parametrize("count", range(25))
def test_the_tomb_counter_shows_the_wanted_rank_and_the_round(count: int) -> None:
    position = table(tomb_order(), "D F@tomb " * count)
    expected = (
        {"wants": None, "round": 4, "complete": True}
        if count == 24
        else {"wants": "65432A"[count % 6], "round": count // 6 + 1, "complete": False}
    )
    assert visible_view(position)["tomb"] == expected
    assert visible_view(position)["foundations"]["tomb"] == tomb_order()[:count]


def test_the_pass_counters_follow_the_redeals() -> None:
    position = table("", "", THREE_CARD)
    seen = []
    for moves in ("", "D " * 18 + "R", "D " * 18 + "R"):
        view = visible_view(play(position, moves))
        seen.append((view["pass"], view["passes"], view["passes_left"], "R" in view["legal"]))
    view = visible_view(play(position, "D " * 18))
    seen.append((view["pass"], view["passes"], view["passes_left"], "R" in view["legal"]))
    assert seen == [(1, 3, 2, False), (2, 3, 1, False), (3, 3, 0, False), (3, 3, 0, False)]
    assert view["stock_count"] == 0
    assert view["legal"] == ["C@n", "C@w", "C@e", "C@s"]


def test_the_view_of_a_won_game() -> None:
    view = visible_view(won_game(CLASSIC))
    assert view["status"] == "won"
    assert view["home"] == 52
    assert view["legal"] == []
    assert view["can_undo"] is True
    assert view["tomb"] == {"wants": None, "round": 4, "complete": True}
    assert [len(pile) for pile in view["foundations"].values()] == [7, 7, 7, 7, 24]


def test_the_view_of_a_lost_game() -> None:
    position = table("", "D " * 52 + "C C C C")
    view = visible_view(position)
    assert view["status"] == "lost"
    assert view["legal"] == []
    assert view["cells"] == {"n": "AD", "w": "AH", "e": "AS", "s": "AC"}
    assert view["can_undo"] is True


def test_the_view_does_not_change_the_position() -> None:
    position = table("9H 7C 6S", "D F", THREE_CARD)
    before = position.copy()
    visible_view(position)
    assert position == before


# -- the record ----------------------------------------------------------------------------

def test_the_record_of_a_numbered_game() -> None:
    position = new_game(1)
    play(position, "D D C D")
    assert to_record(position) == {
        "format": 1,
        "variant": "three-card",
        "deal": 1,
        "seeded": False,
        "cards": golden_deals()[1],
        "moves": "D D C@n D",  # moves are stored with their targets resolved
    }


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: greedy(new_game(2), 40), id="numbered three-card"),
        pytest.param(lambda: play(new_game(31999, "classic"), "D " * 52), id="numbered classic"),
        pytest.param(lambda: greedy(Position(deal_from_seed(2**63 + 5)), 30), id="seeded"),
        pytest.param(lambda: table("9H 7C 6S", "D F F C", THREE_CARD), id="hand-stacked"),
        pytest.param(lambda: won_game(CLASSIC), id="won"),
        pytest.param(lambda: new_game(999_999), id="fresh"),
    ],
)
def test_a_record_rebuilds_the_same_position(make: Callable[[], Position]) -> None:
    position = make()
    record = to_record(position)
    rebuilt = from_record(record)
    assert rebuilt == position
    assert rebuilt.deal.number == position.deal.number
    assert rebuilt.deal.seeded == position.deal.seeded
    assert visible_view(rebuilt) == visible_view(position)
    assert from_record(json.loads(json.dumps(record))) == position


def valid_record() -> dict[str, Any]:
    return to_record(play(new_game(1), "D D C D"))


def tampered(change: Callable[[dict[str, Any]], object]) -> Callable[[], dict[str, Any]]:
    """A maker of a valid record spoilt by ``change``, built when the test runs.

    Building records lazily means a broken engine fails the tests below
    rather than the collection of this module.
    """
    def make() -> dict[str, Any]:
        record = valid_record()
        change(record)
        return record
    return make


def with_fields(**fields: Any) -> Callable[[], dict[str, Any]]:
    return tampered(lambda record: record.update(fields))


def swap_two_cards(record: dict[str, Any]) -> None:
    cards = record["cards"]
    cards[0], cards[1] = cards[1], cards[0]


TAMPERED: list[Any] = [
    pytest.param(tampered(swap_two_cards), id="cards not those of the deal"),
    pytest.param(tampered(lambda r: r.update(cards=golden_deals()[2])), id="cards of deal 2"),
    pytest.param(with_fields(deal=2), id="deal number changed"),
    pytest.param(with_fields(moves="R"), id="illegal R first"),
    pytest.param(with_fields(moves="D F"), id="F that does not fit"),
    pytest.param(with_fields(moves="D C@n D C@n"), id="cell taken twice"),
    pytest.param(with_fields(moves="D X"), id="junk move"),
    pytest.param(with_fields(moves=None), id="moves None"),
    pytest.param(with_fields(moves=["D"]), id="moves a list"),
    pytest.param(with_fields(variant="four-card"), id="unknown variant"),
    pytest.param(with_fields(variant=None), id="variant None"),
    pytest.param(with_fields(variant=["classic"]), id="variant a list"),
    pytest.param(with_fields(cards=None), id="cards None"),
    pytest.param(with_fields(cards=5), id="cards a number"),
    pytest.param(tampered(lambda r: r.update(cards=" ".join(r["cards"]))), id="cards a string"),
    pytest.param(tampered(lambda r: r.update(cards=r["cards"][:51])), id="51 cards"),
    pytest.param(tampered(lambda r: r["cards"].__setitem__(51, r["cards"][0])),
                 id="a duplicate card"),
    pytest.param(with_fields(cards=["ZZ"] * 52), id="junk cards"),
    pytest.param(with_fields(cards=[None] * 52), id="null cards"),
    pytest.param(tampered(lambda r: r.update(cards=[[c] for c in r["cards"]])),
                 id="nested cards"),
    pytest.param(with_fields(deal=0), id="deal 0"),
    pytest.param(with_fields(deal="abc"), id="deal abc"),
    pytest.param(with_fields(deal=1.5), id="deal 1.5"),
    pytest.param(with_fields(deal=True), id="deal true"),
    pytest.param(with_fields(deal=[1]), id="deal a list"),
    pytest.param(with_fields(format=2), id="format 2"),
    pytest.param(with_fields(format="1"), id="format '1'"),
    pytest.param(with_fields(format=None), id="format None"),
    *(pytest.param(tampered(lambda r, key=key: r.pop(key)), id=f"no {key}")
      for key in ("format", "variant", "cards", "moves")),
    pytest.param(lambda: {}, id="empty dict"),
    pytest.param(lambda: None, id="None"),
    pytest.param(lambda: [], id="a list"),
    pytest.param(lambda: "record", id="a string"),
    pytest.param(lambda: 1, id="a number"),
    pytest.param(lambda: json.dumps(valid_record()), id="the record as JSON text"),
]


@pytest.mark.parametrize("make", TAMPERED)
def test_a_tampered_record_is_refused_with_a_value_error(make: Callable[[], Any]) -> None:
    record = make()
    with pytest.raises(ValueError) as caught:
        from_record(record)
    assert str(caught.value)


def test_a_record_without_a_deal_number_rebuilds_a_hand_stacked_deal() -> None:
    # Records of seeded and hand-stacked deals carry the cards alone.
    record = tampered(lambda r: r.pop("deal"))()
    position = from_record(record)
    assert position.deal.number is None
    assert position.deal.cards == deal_from_number(1).cards


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
RECORD_KEYS = ("format", "variant", "deal", "seeded", "cards", "moves")


@settings(max_examples=300, deadline=None)
@given(
    changes=st.dictionaries(st.sampled_from(RECORD_KEYS), JSON, max_size=3),
    removed=st.sets(st.sampled_from(RECORD_KEYS), max_size=2),
)
def test_a_record_with_any_json_values_either_loads_or_raises_value_error(
    changes: dict[str, Any], removed: set[str]
) -> None:
    record = copy.deepcopy(valid_record())
    record.update(changes)
    for key in removed:
        record.pop(key, None)
    try:
        position = from_record(record)
    except ValueError:
        return
    # Whatever loads is a real replay of the record's own moves, and its own
    # record loads back to it.
    assert len(position.moves) == len(parse_moves(str(record["moves"])))
    assert from_record(to_record(position)) == position


@settings(max_examples=200, deadline=None)
@given(record=JSON)
def test_any_json_value_either_loads_or_raises_value_error(record: Any) -> None:
    with contextlib.suppress(ValueError):
        from_record(record)


def test_the_deal_of_a_record_is_checked_against_its_number_not_trusted() -> None:
    # Swapping two cards of deal 1 while claiming deal 1 is refused; the same
    # cards with no number are accepted as a hand-stacked deal.
    record = tampered(swap_two_cards)()
    with pytest.raises(ValueError, match="not those of deal 1"):
        from_record(record)
    record.pop("deal")
    record["moves"] = ""
    assert from_record(record).deal.cards == deal_from_cards(record["cards"]).cards
