"""Klondike: random legal play against the engine's promises.

Hypothesis picks the variant, the deal (a public number or a private seed) and
a list of integers; each integer picks one of the legal moves of the moment,
so every playout is legal by construction and shrinks to a short one on
failure. Home moves and turning up cards are favoured so games get far.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patience.cards import card_text
from patience.errors import IllegalMove
from patience.klondike import (
    ALL_MOVES,
    MAX_DEAL,
    TURN_1,
    TURN_3,
    Deal,
    Kind,
    Position,
    Status,
    Variant,
    deal_from_number,
    deal_from_seed,
    from_record,
    to_record,
    visible_view,
)
from patience.klondike.rules import RULES

VARIANTS = st.sampled_from([TURN_1, TURN_3])
DEALS = st.one_of(
    st.integers(1, MAX_DEAL).map(deal_from_number),
    st.integers(0, 2**64 - 1).map(deal_from_seed),
)
PICKS = st.builds(
    lambda length, seed: [random.Random(seed).randrange(2**16) for _ in range(length)],
    st.integers(0, 400),
    st.integers(0, 2**32),
)
PLAYOUT = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_FORWARD = {Kind.WASTE_TO_FOUNDATION, Kind.COLUMN_TO_FOUNDATION, Kind.WASTE_TO_COLUMN}


def playout(position: Position, picks: list[int]) -> Iterator[Position]:
    """Apply one legal move per pick, yielding the position after each."""
    for pick in picks:
        legal = position.legal_moves()
        if not legal:
            return
        forward = [move for move in legal if move.kind in _FORWARD or RULES.reveals(position, move)]
        choices = forward if forward and pick % 3 else legal
        position.apply(choices[pick % len(choices)])
        yield position


def unseen(position: Position) -> set[int]:
    """The cards the player may not see now: face down in a column, or in the stock."""
    down = {position.columns[i][k] for i in range(7) for k in range(position.down[i])}
    return down | set(position.stock)


def brute_force_legal(position: Position) -> set[str]:
    legal = set()
    for move in ALL_MOVES:
        twin = position.copy()
        try:
            twin.apply(move)
        except IllegalMove:
            continue
        legal.add(move.notation)
    return legal


@PLAYOUT
@given(variant=VARIANTS, deal=DEALS, picks=PICKS)
def test_undo_all_returns_the_fresh_position(variant: Variant, deal: Deal,
                                             picks: list[int]) -> None:
    fresh = Position(deal, variant)
    position = Position(deal, variant)
    keys, views = [], []
    for _ in playout(position, picks):
        keys.append(RULES.search_key(position))
        views.append(visible_view(position))
    for key, view in zip(reversed(keys), reversed(views), strict=True):
        assert RULES.search_key(position) == key and visible_view(position) == view
        position.undo()
    assert RULES.search_key(position) == RULES.search_key(fresh)
    assert visible_view(position) == visible_view(fresh)
    assert position == fresh


@PLAYOUT
@given(variant=VARIANTS, deal=DEALS, picks=PICKS)
def test_legal_moves_are_exact(variant: Variant, deal: Deal, picks: list[int]) -> None:
    position = Position(deal, variant)
    for step, _ in enumerate(playout(position, picks)):
        if step % 7:
            continue  # every move's brute-force check is slow; sample the playout
        legal = [move.notation for move in position.legal_moves()]
        assert len(legal) == len(set(legal))
        assert set(legal) == brute_force_legal(position)
        assert legal == [move.notation for move in position.copy().legal_moves()]


@PLAYOUT
@given(variant=VARIANTS, deal=DEALS, picks=PICKS)
def test_no_view_shows_an_unseen_card(variant: Variant, deal: Deal, picks: list[int]) -> None:
    position = Position(deal, variant)
    for _ in [None, *playout(position, picks)]:
        view = visible_view(position)
        text = json.dumps(view)
        for card in unseen(position):
            assert f'"{card_text(card)}"' not in text
        shown = [c for pile in view["piles"].values() for c in pile["up"]]
        downs = sum(pile["down"] for pile in view["piles"].values())
        assert len(shown) == len(set(shown)) and len(shown) + downs == 52
        assert view["piles"]["stock"] == {"down": len(position.stock), "up": []}
        assert view["stock_count"] == len(position.stock)


@PLAYOUT
@given(variant=VARIANTS, deal=DEALS, picks=PICKS)
def test_a_record_round_trips(variant: Variant, deal: Deal, picks: list[int]) -> None:
    position = Position(deal, variant)
    for _ in playout(position, picks):
        pass
    record = json.loads(json.dumps(to_record(position)))
    again = from_record(record)
    assert again == position
    assert RULES.from_record(RULES.to_record(position)) == position


@PLAYOUT
@given(variant=VARIANTS, deal=DEALS, picks=PICKS)
def test_score_status_and_reveals_hold_along_play(variant: Variant, deal: Deal,
                                                  picks: list[int]) -> None:
    position = Position(deal, variant)
    for pick in picks:
        legal = position.legal_moves()
        if not legal:
            break
        move = legal[pick % len(legal)]
        before = (position.score, sum(position.down), len(position.stock))
        shows = RULES.reveals(position, move)
        position.apply(move)
        assert position.score >= 0
        turned_up = sum(position.down) < before[1]
        assert shows == (move.kind is Kind.TURN or turned_up)
        if position.unseen_in_stock:
            assert position.status is not Status.LOST
        position.undo()
        assert position.score == before[0]
        position.apply(move)


@PLAYOUT
@given(variant=VARIANTS, deal=st.integers(1, MAX_DEAL).map(deal_from_number), picks=PICKS)
def test_a_finishing_line_always_wins(variant: Variant, deal: Deal, picks: list[int]) -> None:
    position = Position(deal, variant)
    for _ in playout(position, picks):
        line = RULES.finishing_line(position)
        if line is None:
            assert position.stock or position.waste or any(position.down) or (
                position.status is not Status.PLAYING)
            continue
        twin = position.copy()
        for move in line:
            assert not RULES.reveals(twin, move)
            twin.apply(move)
        assert twin.status is Status.WON
        return
