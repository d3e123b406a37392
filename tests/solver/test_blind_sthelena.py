"""The blind players and the fair hint on St. Helena.

Checked here: the careful player's rule (home moves first within the
first-round restrictions, builds only once the stock is empty, then D and R)
and that it finishes deals legally well inside the move limit; that the
unseen cards, found from the faces in view and the stock's size, are the
stock's cards deck for deck; that a resample keeps the first deck's cards on
top; that the memory of the stock after R is the engine's; the sampling
player, the fair hint (legal, and the same for positions that differ only in
the unseen order) and the hints.
"""

from __future__ import annotations

import random
from typing import Any

from patience.sthelena import Kind, Position, Status, new_game, parse_move
from solver_worker import hints
from solver_worker.games import BLIND, blind_of, blind_variants
from solver_worker.games.sthelena.blind import (
    MAX_WANDER,
    STHELENA_BLIND,
    Memory,
    careful_move,
    known_order,
    unseen_cards,
    with_hidden,
)
from solver_worker.players import MAX_PLIES, fair_hint, play_game

DEALS = range(1, 21)
QUICK: dict[str, Any] = {"samples": 3, "nodes": 200, "seconds": 0.03}
FIRST_DECK_IN_STOCK = 44


def after_deals(deal: int, deals: int) -> Position:
    """A first-round position after ``deals`` D moves, played by the careful player."""
    position = new_game(deal)
    while sum(move.kind is Kind.DEAL for move in position.moves) < deals:
        move = careful_move(position)
        assert move is not None
        position.apply(move)
    return position


def other_world(position: Position, seed: int) -> Position:
    """The same view with the unseen stock drawn again (each deck's part reshuffled)."""
    order = unseen_cards(position)
    random.Random(seed).shuffle(order)
    twin = with_hidden(position, order)
    assert twin.stock != position.stock
    return twin


def test_st_helena_has_blind_knowledge() -> None:
    assert "st-helena" in blind_variants()
    assert blind_of(new_game(1)) is BLIND["st-helena"] is STHELENA_BLIND


def test_the_careful_player_finishes_deals_legally_and_remembers_the_stock() -> None:
    results = []
    for deal in DEALS:
        position, memory = new_game(deal), Memory()
        while position.status is Status.PLAYING:
            move = careful_move(position)
            if move is None:
                break
            legal = position.legal_moves()
            assert move in legal
            homes = [m for m in legal if m.kind is Kind.HOME]
            if homes:
                assert move == homes[0]  # home moves first
            if move.kind is Kind.BUILD:
                assert not position.stock  # builds only once the stock is empty
            memory.before(position, move)
            position.apply(move)
            memory.check(position)
            known = known_order(position)
            assert known is None or known == position.stock
        assert len(position.moves) < MAX_PLIES
        results.append(position.status)
    assert Status.WON in results  # and the others ended lost or with the player stopped


def test_the_careful_player_stops_wandering() -> None:
    """With only aimless builds left it tries at most MAX_WANDER in a row, never a table twice."""
    builds = 0
    for deal in DEALS:
        position = new_game(deal)
        tables: list[object] = []
        while (move := careful_move(position)) is not None:
            position.apply(move)
            if move.kind is Kind.BUILD:
                table = tuple(tuple(card % 52 for card in pile) for pile in position.piles)
                assert table not in tables
                tables.append(table)
                assert len(tables) <= MAX_WANDER + 1
                builds += 1
            else:
                tables = []
    assert builds > 20  # builds were played: the check is not vacuous


def test_unseen_cards_are_the_stock_deck_for_deck_from_the_view() -> None:
    for deal in (1, 2, 3):
        for deals in range(0, 9):
            position = after_deals(deal, deals)
            if not position.stock:
                break
            unseen = unseen_cards(position)
            assert unseen == sorted(position.stock)
            # Only faces and the stock's size are read: the other world agrees.
            assert unseen_cards(other_world(position, deals)) == unseen


def test_a_resample_keeps_the_first_decks_cards_on_top() -> None:
    position = after_deals(5, 1)  # 72 left: 20 of the first deck on the second's 52
    left = len(position.stock)
    first_left = left - 52
    assert first_left > 0
    for seed in range(5):
        twin = other_world(position, seed)
        top_first = list(reversed(twin.stock))
        assert all(card < 52 for card in top_first[:first_left])
        assert all(card >= 52 for card in top_first[first_left:])


def test_the_stock_is_known_after_a_redeal() -> None:
    position, memory = new_game(1), Memory()
    while position.redeals_left == 2:
        move = careful_move(position)
        assert move is not None
        memory.before(position, move)
        position.apply(move)
    assert memory.stock == position.stock == known_order(position)


def test_the_sampling_player_plays_legal_games_to_the_end() -> None:
    for deal in (1, 2):
        game = play_game(deal, "st-helena", "sampling", **QUICK)
        assert game.result in ("won", "lost")
        replay = new_game(deal)
        for text in game.moves:
            replay.apply(parse_move(text))
        assert (replay.status is Status.WON) == (game.result == "won")


def test_fair_hint_is_legal_and_blind_to_the_stock_order() -> None:
    position = after_deals(3, 2)
    assert position.stock and position.redeals_left == 2
    twin = other_world(position, seed=11)
    assert careful_move(position) == careful_move(twin)
    assert STHELENA_BLIND.candidate_moves(position) == STHELENA_BLIND.candidate_moves(twin)
    hint = fair_hint(position, samples=3, budget_s=0.3, nodes=200, seed=5)
    assert hint == fair_hint(twin, samples=3, budget_s=0.3, nodes=200, seed=5)
    assert parse_move(hint["move"]) in position.legal_moves()
    assert 0.0 <= hint["chance"] <= 1.0 and hint["samples"] == 3 and not hint["exact"]


def test_hints_work_for_st_helena() -> None:
    position = after_deals(2, 3)
    answer = hints.hint(position, budget_s=0.3)
    assert answer["verdict"] in ("winnable", "unknown", "lost")
    assert parse_move(answer["move"]) in position.legal_moves()
    assert hints.sensible_move(position) in {move.notation for move in position.legal_moves()}
