"""The two-deck Tomb: random legal play against the engine's promises.

Hypothesis picks the deal (a public number or a private seed) and a list of
integers; each integer picks one of the legal moves of the moment, so every
playout is legal by construction and shrinks to a short one on failure.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patience.twodeck import (
    MAX_DEAL,
    Position,
    deal_from_number,
    deal_from_seed,
    from_record,
    new_game,
    parse_moves,
    text_of,
    to_record,
    visible_view,
)
from patience.twodeck.rules import RULES

DEALS = st.one_of(
    st.integers(1, MAX_DEAL).map(deal_from_number),
    st.integers(0, 2**64 - 1).map(deal_from_seed),
)
PICKS = st.builds(
    lambda length, seed: [random.Random(seed).randrange(2**16) for _ in range(length)],
    st.integers(0, 300),
    st.integers(0, 2**32),
)
PLAYOUT = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def playout(position: Position, picks: list[int]) -> Iterator[Position]:
    """Apply one legal move per pick (base moves favoured, so games get far)."""
    for pick in picks:
        legal = position.legal_moves()
        if not legal:
            return
        homes = [move for move in legal if move.to_base]
        choices = homes if homes and pick % 4 else legal
        position.apply(choices[pick % len(choices)])
        yield position


def unseen(position: Position) -> list[str]:
    """The texts of the cards the player has not been shown: the covered wall cards
    and the stock (its order is never shown, in any round)."""
    covered = [card for wall in position.walls for card in wall[:-1]]
    return [text_of(card) for card in covered + position.stock]


def shown_texts(view: dict[str, object]) -> list[str]:
    piles = view["piles"]
    assert isinstance(piles, dict)
    return sorted(text for pile in piles.values() for text in pile["up"])


def on_table(position: Position) -> list[str]:
    """Every card in view on the table now, by text."""
    seen = [wall[-1] for wall in position.walls if wall]
    for heap in (*position.places, *position.bases, position.centre, *position.waste):
        seen += heap
    return sorted(text_of(card) for card in seen)


@PLAYOUT
@given(DEALS, PICKS)
def test_random_play_then_undo_everything_gives_the_fresh_position(deal, picks) -> None:
    position = new_game(deal)
    fresh = position.copy()
    for _ in playout(position, picks):
        pass
    while position.history:
        position.undo()
    assert position == fresh == new_game(deal)


@PLAYOUT
@given(DEALS, PICKS)
def test_every_move_is_undone_exactly(deal, picks) -> None:
    position = new_game(deal)
    for _ in range(len(picks)):
        legal = position.legal_moves()
        if not legal:
            break
        before = position.copy()
        move = legal[picks[_] % len(legal)]
        position.apply(move)
        position.undo()
        assert position == before
        position.apply(move)


@PLAYOUT
@given(DEALS, PICKS)
def test_cards_are_neither_made_nor_lost(deal, picks) -> None:
    position = new_game(deal)
    for _ in playout(position, picks):
        every = [*position.stock, *position.centre]
        for heaps in (position.walls, position.places, position.bases, position.waste):
            every += [card for heap in heaps for card in heap]
        assert sorted(every) == list(range(104))
        assert position.home == sum(map(len, position.bases))


@PLAYOUT
@given(DEALS, PICKS)
def test_no_view_carries_a_covered_wall_card_or_a_stock_card(deal, picks) -> None:
    """Secrecy: the view names exactly the cards in view on the table, and its JSON
    holds no more than that; the covered walls and the stock are counts."""
    position = new_game(deal)
    for _ in [None, *playout(position, picks)]:
        view = visible_view(position)
        assert shown_texts(view) == on_table(position)
        assert view["stock_count"] == len(position.stock) == view["piles"]["stock"]["down"]
        for name, wall in zip("nwes", position.walls, strict=True):
            assert view["piles"][name]["down"] == max(len(wall) - 1, 0)
        payload = json.dumps(view)
        hidden = set(unseen(position)) - set(on_table(position))
        assert not any(f'"{text}"' in payload for text in hidden)


@PLAYOUT
@given(DEALS, PICKS)
def test_records_and_notation_round_trip(deal, picks) -> None:
    position = new_game(deal)
    for _ in playout(position, picks):
        pass
    record = json.loads(json.dumps(to_record(position)))
    assert from_record(record) == position
    assert parse_moves(record["moves"]) == position.moves
    assert RULES.replay(deal, position.variant, position.moves) == position


@PLAYOUT
@given(DEALS, PICKS)
def test_a_move_that_shows_a_card_is_said_to_reveal(deal, picks) -> None:
    """Whenever a move makes the set of hidden cards smaller, ``reveals`` says so."""
    position = new_game(deal)
    for pick in picks:
        legal = position.legal_moves()
        if not legal:
            break
        move = legal[pick % len(legal)]
        hidden_before = len(unseen(position))
        says = RULES.reveals(position, move)
        position.apply(move)
        if len(unseen(position)) < hidden_before:
            assert says, move.notation


@PLAYOUT
@given(DEALS, PICKS)
def test_paths_and_legal_moves_agree(deal, picks) -> None:
    position = new_game(deal)
    for _ in playout(position, picks):
        view = visible_view(position)
        assert set(view["paths"]) == set(view["legal"]) == {m.notation for m in
                                                               position.legal_moves()}
        for name, counts in view["pickable"].items():
            assert name in view["piles"] and counts
