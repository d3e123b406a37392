"""St. Helena: random legal play against the engine's promises.

Hypothesis picks the deal (a public number or a private seed) and a list of
integers; each integer picks one of the legal moves of the moment, so every
playout is legal by construction and shrinks to a short one on failure.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patience import rules_of
from patience.errors import IllegalMove, InvalidDeal, InvalidNotation
from patience.sthelena import (
    FOUNDATIONS,
    MAX_DEAL,
    PILES,
    Position,
    deal_from_number,
    deal_from_seed,
    from_record,
    new_game,
    parse_move,
    parse_moves,
    text_of,
    to_record,
    visible_view,
)
from patience.sthelena.moves import _MOVE_BY_TEXT

RULES = rules_of("st-helena")
DEALS = st.one_of(
    st.integers(1, MAX_DEAL).map(deal_from_number),
    st.integers(0, 2**64 - 1).map(deal_from_seed),
)
PICKS = st.builds(
    lambda length, seed: [random.Random(seed).randrange(2**16) for _ in range(length)],
    st.integers(0, 300),
    st.integers(0, 2**32),
)
PLAYOUT = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
COMMON_KEYS = {"game", "variant", "piles", "stock_count", "home", "moves", "log", "legal",
               "paths", "pickable", "can_undo", "status"}


def playout(position: Position, picks: list[int]) -> Iterator[Position]:
    """Apply one legal move per pick (home moves favoured, so games get far)."""
    for pick in picks:
        legal = position.legal_moves()
        if not legal:
            return
        homes = [move for move in legal if move.kind.value == "H"]
        choices = homes if homes and pick % 4 else legal
        position.apply(choices[pick % len(choices)])
        yield position


@PLAYOUT
@given(DEALS, PICKS)
def test_undo_all_gives_the_fresh_position(deal, picks) -> None:  # type: ignore[no-untyped-def]
    position = new_game(deal)
    fresh = position.copy()
    for _ in playout(position, picks):
        pass
    while position.history:
        position.undo()
    assert position == fresh


@PLAYOUT
@given(DEALS, PICKS)
def test_notation_and_record_round_trip(deal, picks) -> None:  # type: ignore[no-untyped-def]
    position = new_game(deal)
    for _ in playout(position, picks):
        for move in position.legal_moves():
            assert parse_move(move.notation) == move
            assert parse_move(f" {move.notation.lower()} ") == move
    record = json.loads(json.dumps(to_record(position)))
    assert from_record(record) == position
    assert parse_moves(record["moves"]) == position.moves


@PLAYOUT
@given(DEALS, PICKS)
def test_every_move_not_listed_is_refused_and_changes_nothing(  # type: ignore[no-untyped-def]
    deal, picks
) -> None:
    position = new_game(deal)
    for _ in playout(position, picks[:60]):
        pass
    legal = set(position.legal_moves())
    snapshot = position.copy()
    for move in _MOVE_BY_TEXT.values():
        if move not in legal:
            with pytest.raises(IllegalMove):
                position.apply(move)
            assert position == snapshot


def face_up_texts(position: Position) -> Counter[str]:
    texts = [text_of(card) for pile in position.piles for card in pile]
    texts += [text_of(card) for pile in position.foundations for card in pile]
    return Counter(texts)


def view_texts(view: dict) -> Counter[str]:  # type: ignore[type-arg]
    return Counter(
        text for name in (*PILES, *FOUNDATIONS) for text in view["piles"][name]["up"])


@PLAYOUT
@given(DEALS, PICKS, st.integers(0, 2**32))
def test_the_view_carries_no_stock_card(deal, picks, seed) -> None:  # type: ignore[no-untyped-def]
    position = new_game(deal)
    for _ in playout(position, picks):
        pass
    view = visible_view(position)
    assert set(view) >= COMMON_KEYS and view["game"] == "st-helena"
    # Its cards are exactly the face-up ones ...
    assert view_texts(view) == face_up_texts(position)
    assert view["stock_count"] == len(position.stock)
    # ... and the stock's order leaves no trace: shuffle it, the JSON is the same.
    twin = position.copy()
    random.Random(seed).shuffle(twin.stock)
    assert json.dumps(visible_view(twin)) == json.dumps(view)
    assert set(view["paths"]) == set(view["legal"])
    assert view["status"] == position.status.value


def test_the_first_view_shows_twelve_cards_and_no_more() -> None:
    deal = deal_from_number(7)
    view = visible_view(new_game(deal))
    shown = [view["piles"][name] for name in PILES]
    assert shown == [{"down": 0, "up": [text]} for text in deal.texts[:12]]
    assert view["piles"]["stock"] == {"down": 84, "up": []}
    assert view["stock_count"] == 84 and view["legal"][0] == "D"
    assert view["round"] == 1 and view["redeals_left"] == 2 and view["stock_phase"] is True
    json.dumps(view)


@pytest.mark.parametrize("text", ["", "P", "P@p0@k1", "P@p13@k1", "P@p1@p1", "P@p1@a5",
                                  "F", "D D", "P@k1@p1", 7, None])
def test_bad_notation_is_refused(text: object) -> None:
    with pytest.raises(InvalidNotation):
        parse_move(text)


def test_a_tampered_record_is_refused() -> None:
    position = new_game(3)
    position.apply(parse_move("D"))
    record = to_record(position)
    swapped = dict(record, cards=record["cards"][1:] + record["cards"][:1])
    with pytest.raises(InvalidDeal):
        from_record(swapped)
    with pytest.raises(InvalidDeal):
        from_record({**record, "format": 99})
    with pytest.raises(InvalidDeal):
        from_record({**record, "game": "napoleons-tomb"})
    with pytest.raises(InvalidDeal):
        from_record({"format": 1})
    with pytest.raises(IllegalMove):
        from_record({**record, "moves": "R"})
    seeded = new_game(deal_from_seed(5))
    assert from_record(to_record(seeded)) == seeded


def test_the_rules_object_reveals_only_on_d_and_finishes_only_when_forced() -> None:
    position = RULES.new_game(11, "st-helena")
    assert RULES.reveals(position, parse_move("D"))
    assert not RULES.reveals(position, parse_move("R"))
    assert not RULES.reveals(position, parse_move("P@p1@k1"))
    assert RULES.finishing_line(position) is None  # the stock is not empty
    assert RULES.achievements(position) == []
    hash(RULES.search_key(position))


def test_the_table_is_twelve_piles_round_two_rows_of_foundations() -> None:
    table = RULES.table(RULES.default_variant).as_data()
    names = [pile["name"] for pile in table["piles"]]
    assert names == [*PILES, *FOUNDATIONS, "stock"]
    places = {pile["name"]: (pile["row"], pile["col"]) for pile in table["piles"]}
    assert [places[f"k{i}"][0] for i in range(1, 5)] == [1] * 4
    assert [places[f"a{i}"][0] for i in range(1, 5)] == [2] * 4
    assert places["p5"] == (1, 5) and places["p6"] == (2, 5)
    assert places["p11"] == (2, 0) and places["p12"] == (1, 0)
    assert [places[f"p{i}"][1] for i in (7, 8, 9, 10)] == [4, 3, 2, 1]  # right to left
    assert len(set(places.values())) == len(places)
    assert table["card_count"] == 104
