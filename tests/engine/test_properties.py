"""Property tests: random legal play over random deals in both variants.

Hypothesis picks the deal (a public number or a private seed), the variant
and a list of integers; each integer picks one of the legal moves of the
moment (modulo their number), so every playout is legal by construction and
shrinks to a short one when a property fails.

The checks compare the engine with independent readings of RULES.md (what a
foundation wants, which moves are legal) rather than with itself.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patience.tomb import (
    CELLS,
    CLASSIC,
    FOUNDATIONS,
    MAX_DEAL,
    THREE_CARD,
    Deal,
    Move,
    Position,
    Status,
    Variant,
    card_text,
    deal_from_number,
    deal_from_seed,
    from_record,
    parse_move,
    to_record,
    visible_view,
)

DEALS = st.one_of(
    st.integers(1, MAX_DEAL).map(deal_from_number),
    st.integers(0, 2**64 - 1).map(deal_from_seed),
)
VARIANT_CHOICES = st.sampled_from([THREE_CARD, CLASSIC])
# A playout's picks: a length and a seed, so games run their full length
# (hypothesis's own lists stay short) and still shrink to a short one.
PICKS = st.builds(
    lambda length, seed: [random.Random(seed).randrange(2**16) for _ in range(length)],
    st.integers(0, 250),
    st.integers(0, 2**32),
)
PLAYOUT = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
CARD_TEXT = re.compile(r"^[A2-9TJQK][CSHD]$")
TOMB = FOUNDATIONS.index("tomb")


def playout(position: Position, picks: list[int]) -> Iterator[Move]:
    """Apply one legal move per pick until the picks or the legal moves run out.

    A third of the picks play a card home when one fits: uniform picks park
    cards so eagerly that games rarely get far enough to fill the tomb.
    """
    for pick in picks:
        legal = position.legal_moves()
        if not legal:
            return
        home = [move for move in legal if move.notation.startswith("F")]
        use_home = home and pick % 3 == 0
        move = home[pick // 3 % len(home)] if use_home else legal[pick % len(legal)]
        position.apply(move)
        yield move


def rank(card: int) -> int:
    return card % 13 + 1


def wanted(foundation: int, pile: list[int]) -> int | None:
    """What a foundation takes next, read straight from RULES.md."""
    if foundation == TOMB:
        if len(pile) == 24:
            return None
        return 6 if not pile or rank(pile[-1]) == 1 else rank(pile[-1]) - 1
    if not pile:
        return 7
    return None if rank(pile[-1]) == 13 else rank(pile[-1]) + 1


def expected_legal(position: Position) -> set[str]:
    """RULES.md's table of moves, with passes counted from the log itself."""
    redeals = sum(move.notation == "R" for move in position.moves)
    moves = set()
    if position.stock:
        moves.add("D")
    elif position.waste and redeals < position.variant.passes - 1:
        moves.add("R")
    if position.waste:
        top = rank(position.waste[-1])
        for index, name in enumerate(FOUNDATIONS):
            if wanted(index, position.foundations[index]) == top:
                moves.add(f"F@{name}")
        moves |= {f"C@{name}" for name, card in zip(CELLS, position.cells, strict=True)
                  if card == -1}
    return moves


def all_cards(position: Position) -> list[int]:
    cells = [card for card in position.cells if card != -1]
    home = [card for pile in position.foundations for card in pile]
    return position.stock + position.waste + cells + home


def check_table(position: Position) -> None:
    # The 52 cards are all there, each once.
    assert sorted(all_cards(position)) == list(range(52))
    # Corners hold 7 up to K; the tomb holds 6 5 4 3 2 A, round after round.
    for index, pile in enumerate(position.foundations):
        ranks = [rank(card) for card in pile]
        if index == TOMB:
            assert ranks == ([6, 5, 4, 3, 2, 1] * 4)[: len(ranks)]
        else:
            assert ranks == list(range(7, 7 + len(ranks)))
    # The automatic moves are done: no card waits in a cell while it fits.
    wants = [wanted(i, pile) for i, pile in enumerate(position.foundations)]
    for card in position.cells:
        assert card == -1 or rank(card) not in wants
    # The legal moves are RULES.md's, and the status agrees with them.
    legal = [move.notation for move in position.legal_moves()]
    assert len(legal) == len(set(legal))
    assert set(legal) == expected_legal(position)
    won = sum(map(len, position.foundations)) == 52
    assert (position.status is Status.WON) == won
    assert (position.status is Status.LOST) == (not legal and not won)


@PLAYOUT
@given(deal=DEALS, variant=VARIANT_CHOICES, picks=PICKS)
def test_every_position_keeps_the_cards_and_follows_the_rules(
    deal: Deal, variant: Variant, picks: list[int]
) -> None:
    position = Position(deal, variant)
    check_table(position)
    for _ in playout(position, picks):
        check_table(position)


@PLAYOUT
@given(deal=DEALS, variant=VARIANT_CHOICES, picks=PICKS)
def test_status_is_lost_exactly_when_no_legal_move_is_left(
    deal: Deal, variant: Variant, picks: list[int]
) -> None:
    position = Position(deal, variant)
    for _ in playout(position, picks):
        legal = position.legal_moves()
        if position.status is Status.WON:
            assert legal == []
        else:
            assert (position.status is Status.LOST) == (legal == [])
    if len(picks) > len(position.moves):  # the playout stopped: no move was left
        assert position.status in (Status.WON, Status.LOST)


@PLAYOUT
@given(deal=DEALS, variant=VARIANT_CHOICES, picks=PICKS, data=st.data())
def test_undo_restores_every_earlier_position(
    deal: Deal, variant: Variant, picks: list[int], data: st.DataObject
) -> None:
    position = Position(deal, variant)
    snapshots = [(position.copy(), visible_view(position))]
    for _ in playout(position, picks):
        snapshots.append((position.copy(), visible_view(position)))
    # Undo part of the way, play on from there, then undo everything.
    back = data.draw(st.integers(0, len(snapshots) - 1), label="moves to undo first")
    for _ in range(back):
        position.undo()
        snapshots.pop()
        earlier, view = snapshots[-1]
        assert position == earlier
        assert visible_view(position) == view
    more = data.draw(st.lists(st.integers(0, 2**16), max_size=20), label="more picks")
    for _ in playout(position, more):
        snapshots.append((position.copy(), visible_view(position)))
    while position.history:
        position.undo()
        snapshots.pop()
        earlier, view = snapshots[-1]
        assert position == earlier
        assert visible_view(position) == view
    assert position == Position(deal, variant)


@PLAYOUT
@given(deal=DEALS, variant=VARIANT_CHOICES, picks=PICKS)
def test_a_copy_is_independent_of_its_original(
    deal: Deal, variant: Variant, picks: list[int]
) -> None:
    position = Position(deal, variant)
    list(playout(position, picks))
    twin = position.copy()
    assert twin == position
    # Play on with the copy, then take back every move it has, and more.
    list(playout(twin, [0, 1, 2, 3] * 5))
    while twin.history:
        twin.undo()
    # The original is untouched: it is still what its own log replays to.
    replayed = Position.replay(deal, variant, position.moves)
    assert position == replayed
    assert visible_view(position) == visible_view(replayed)


@PLAYOUT
@given(deal=DEALS, variant=VARIANT_CHOICES, picks=PICKS)
def test_replaying_the_move_log_reproduces_the_position(
    deal: Deal, variant: Variant, picks: list[int]
) -> None:
    position = Position(deal, variant)
    list(playout(position, picks))
    replayed = Position.replay(deal, variant, position.moves)
    assert replayed == position
    assert visible_view(replayed) == visible_view(position)
    # The log is in notation that parses back to the same moves.
    assert [parse_move(move.notation) for move in position.moves] == position.moves


@PLAYOUT
@given(deal=DEALS, variant=VARIANT_CHOICES, picks=PICKS)
def test_a_record_rebuilds_the_same_position(
    deal: Deal, variant: Variant, picks: list[int]
) -> None:
    position = Position(deal, variant)
    list(playout(position, picks))
    record = to_record(position)
    assert from_record(record) == position
    # A record survives storage as JSON.
    assert from_record(json.loads(json.dumps(record))) == position


def strings_in(value: Any) -> Iterator[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings_in(key)
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


@PLAYOUT
@given(deal=DEALS, variant=VARIANT_CHOICES, picks=PICKS)
def test_the_visible_view_never_holds_a_stock_card(
    deal: Deal, variant: Variant, picks: list[int]
) -> None:
    position = Position(deal, variant)
    for _ in [None, *playout(position, picks)]:
        view = visible_view(position)
        strings = list(strings_in(view))
        shown = {text for text in strings if CARD_TEXT.match(text)}
        unseen = {card_text(card) for card in position.stock}
        seen = {card_text(card) for card in all_cards(position)} - unseen
        # Exactly the cards out of the stock look like cards in the view.
        assert shown == seen
        assert not shown & unseen
        # The log and the legal list hold move notation, never a card.
        for notation in view["log"] + view["legal"]:
            assert not CARD_TEXT.match(notation)
            assert parse_move(notation).notation == notation
        # And no stock card hides inside a longer string of the dumped view.
        dumped = json.dumps(view)
        assert not [text for text in unseen if text in dumped]


@PLAYOUT
@given(deal=DEALS, picks=PICKS)
def test_a_three_card_playout_never_redeals_more_than_twice(
    deal: Deal, picks: list[int]
) -> None:
    position = Position(deal, THREE_CARD)
    redeals = sum(move.notation == "R" for move in playout(position, picks))
    assert redeals <= 2
    assert position.passes_left == 2 - redeals


@settings(max_examples=50, deadline=None)
@given(deal=DEALS, variant=VARIANT_CHOICES)
def test_drawing_whenever_possible_redeals_exactly_as_often_as_allowed(
    deal: Deal, variant: Variant
) -> None:
    # Always turning or turning over: the three-card deal goes round three
    # times (two R), the classic deal once (no R); then neither is legal.
    position = Position(deal, variant)
    while {"D", "R"} & {move.notation for move in position.legal_moves()}:
        position.apply(parse_move("D" if position.stock else "R"))
    assert [move.notation for move in position.moves].count("R") == variant.passes - 1
    assert position.stock == []
    assert len(position.waste) == 52
