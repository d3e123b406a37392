"""The blind players and the fair hint on Napoleon's Tomb's traditional cross.

The cross's knowledge lives in ``solver_worker.games.tomb.blind`` beside the
Tomb's (same game slug). Checked here: the careful player's rule (cross cards
first, then the waste card, then D or R), that it finishes deals legally and
reads no stock order, that its memory of the stock after R (popped by D and
by refills) is the engine's, the real choices and the one safe play, the
sampling player and the fair hint (legal, and the same for positions that
differ only in the unseen order), and the hints.
"""

from __future__ import annotations

import random
from typing import Any

from test_players import blindfolded

from patience.tomb import Position, Status, new_game, parse_move
from patience.tomb.moves import CROSS_TO, DRAW, REDEAL, TO_FOUNDATION, TOMB, Kind
from solver_worker import hints
from solver_worker.games import BLIND, blind_of, blind_variants
from solver_worker.games.tomb.blind import (
    TOMB_BLIND,
    Memory,
    Sight,
    careful_move,
    cross_rule_move,
    known_stock,
    real_choices,
    unseen_cards,
)
from solver_worker.players import fair_hint, play_game

DEALS = range(1, 21)
QUICK: dict[str, Any] = {"samples": 3, "nodes": 300, "seconds": 0.05}


def card(text: str) -> int:
    from patience.tomb import parse_card

    return parse_card(text)


def cross_sight(waste: str, cross: str, stock: int = 10, redeals: int = 2,
                wants: tuple[int, ...] = (7, 7, 7, 7, 6)) -> Sight:
    cells = tuple(card(text) if text != "-" else -1 for text in cross.split())
    return Sight(tuple(card(text) for text in waste.split()), cells, wants, stock, redeals, 1,
                 cross=True)


def mid_game(deal: int, plies: int) -> Position:
    """A cross position after ``plies`` careful moves, still before the first R."""
    position = new_game(deal, "cross")
    for _ in range(plies):
        move = careful_move(position)
        assert move is not None and move.kind is not Kind.REDEAL
        position.apply(move)
    return position


def other_world(position: Position, seed: int) -> Position:
    """The same view with the unseen stock in another order."""
    order = unseen_cards(position)
    random.Random(seed).shuffle(order)
    twin = TOMB_BLIND.with_hidden(position, order)
    assert twin.stock != position.stock
    return twin


def test_the_cross_is_served_by_the_tombs_knowledge() -> None:
    assert "cross" in blind_variants()
    assert blind_of(new_game(1, "cross")) is BLIND["napoleons-tomb"] is TOMB_BLIND


def test_the_careful_rule_plays_cross_cards_then_the_waste_then_turns() -> None:
    # 6H on the cross fits the tomb; the waste's 7C fits a corner: the cross card goes first.
    assert cross_rule_move(cross_sight("7C", "9S 6H KD 2C")) == CROSS_TO[1][TOMB]
    # Two fitting cross cards: the lowest rank first (the tomb's 6 before the corner's 7).
    assert cross_rule_move(cross_sight("", "7S 9S 6H 2C")) == CROSS_TO[2][TOMB]
    assert cross_rule_move(cross_sight("4D 7C", "9S 8H KD 2C")) == TO_FOUNDATION[0]
    assert cross_rule_move(cross_sight("4D", "9S 8H KD 2C")) == DRAW
    assert cross_rule_move(cross_sight("4D", "9S 8H KD 2C", stock=0)) == REDEAL
    assert cross_rule_move(cross_sight("4D", "9S 8H KD 2C", stock=0, redeals=0)) is None
    # No parking in the cross, whatever the look-ahead: the freeing and near players agree.
    position = new_game(3, "cross")
    moves = {name: TOMB_BLIND.rule_players[name](position) for name in TOMB_BLIND.rule_players}
    assert len(set(moves.values())) == 1


def test_the_careful_player_finishes_deals_legally_and_remembers_the_stock() -> None:
    results, redeals = [], 0
    for deal in DEALS:
        position, memory = new_game(deal, "cross"), Memory()
        while position.status is Status.PLAYING:
            move = careful_move(blindfolded(position))  # it cannot read the stock order
            assert move is not None and move in position.legal_moves()
            memory.before(position, move)
            position.apply(move)  # raises IllegalMove on an illegal move
            memory.check(position)
            known = known_stock(position)
            assert known is None or known == position.stock
            assert sorted(unseen_cards(position)) == sorted(position.stock)
            redeals += move.kind is Kind.REDEAL
        assert careful_move(position) is None or position.status is Status.WON
        results.append(position.status)
    assert set(results) <= {Status.WON, Status.LOST} and Status.WON in results
    assert redeals, "no game turned the waste over: the memory after R went untested"


def test_memory_follows_refills_from_a_known_stock() -> None:
    """After R a cross card played home takes its refill from the known stock's top."""
    for deal in range(1, 200):
        position, memory = new_game(deal, "cross"), Memory()
        refilled_after_redeal = False
        while position.status is Status.PLAYING:
            move = careful_move(position)
            assert move is not None
            memory.before(position, move)
            known_before = len(position.stock)
            position.apply(move)
            memory.check(position)
            if (move.kind is Kind.CROSS and memory.stock is not None
                    and known_before > len(position.stock)):
                refilled_after_redeal = True
        if refilled_after_redeal:
            return
    raise AssertionError("no deal refilled the cross from a known stock")


def test_real_choices_one_per_fitting_rank_and_the_closing_table_is_safe() -> None:
    position = new_game(1, "cross")
    # Force a cross with two equal fitting ranks: the 7s on n and w.
    position.cells = [card("7C"), card("7H"), card("6D"), card("KS")]
    choices = real_choices(position)
    kinds = [move.kind for move in choices]
    assert kinds.count(Kind.CROSS) == 2  # one 6 (tomb), one 7 (the n place stands for both)
    assert choices[0] == CROSS_TO[2][TOMB] and choices[1] == CROSS_TO[0][0]
    assert careful_move(position) == choices[0]
    assert not TOMB_BLIND.same_choice(CROSS_TO[0][0], CROSS_TO[1][0])
    assert TOMB_BLIND.same_choice(CROSS_TO[0][0], CROSS_TO[0][1])
    assert TOMB_BLIND.sample_key(CROSS_TO[0][0], [1, 2]) != TOMB_BLIND.sample_key(
        CROSS_TO[1][0], [1, 2])
    assert not TOMB_BLIND.safe_move(position, choices[0])  # the refill changes the stock
    position.stock, position.waste = [], []
    assert TOMB_BLIND.safe_move(position, choices[0])  # the closing table


def test_the_sampling_player_plays_legal_games_to_the_end() -> None:
    for deal in (1, 2, 5):
        game = play_game(deal, "cross", "sampling", **QUICK)
        assert game.result in ("won", "lost")
        replay = new_game(deal, "cross")
        for text in game.moves:
            replay.apply(parse_move(text))
        assert (replay.status is Status.WON) == (game.result == "won")
        assert replay.status is not Status.PLAYING or game.result == "lost"


def test_fair_hint_is_legal_and_blind_to_the_stock_order() -> None:
    position = mid_game(4, 12)
    twin = other_world(position, seed=7)
    assert careful_move(position) == careful_move(twin)
    hint = fair_hint(position, samples=4, budget_s=0.4, nodes=400, seed=3)
    assert hint == fair_hint(twin, samples=4, budget_s=0.4, nodes=400, seed=3)
    assert parse_move(hint["move"]) in position.legal_moves()
    assert 0.0 <= hint["chance"] <= 1.0 and hint["samples"] == 4 and not hint["exact"]


def test_fair_hint_after_a_redeal_solves_the_known_stock() -> None:
    position = new_game(1, "cross")
    while position.redeals_left == 2:
        move = careful_move(position)
        assert move is not None, "deal 1's careful game ends before its first R"
        position.apply(move)
    if position.status is not Status.PLAYING:
        return
    hint = fair_hint(position, samples=4, budget_s=0.5)
    assert hint["exact"] and hint["chance"] in (0.0, 1.0)
    assert parse_move(hint["move"]) in position.legal_moves()


def test_hints_work_for_the_cross() -> None:
    position = mid_game(2, 10)
    answer = hints.hint(position, budget_s=0.3)
    assert answer["verdict"] in ("winnable", "unknown", "lost")
    assert parse_move(answer["move"]) in position.legal_moves()
    assert hints.sensible_move(position) in {move.notation for move in position.legal_moves()}
