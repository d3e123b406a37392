"""Klondike's blind players: they decide from the view alone, their samples are honest,
their games end, and the registry serves them like every other game's."""

from __future__ import annotations

import random

import pytest

from patience import Status
from patience.klondike import new_game
from solver_worker import games
from solver_worker.games.klondike.blind import (
    KLONDIKE_BLIND,
    careful_move,
    hidden_slots,
    unseen_cards,
    with_hidden,
)
from solver_worker.players import MAX_PLIES, fair_hint


def played(deal: int, variant: str, plies: int, seed: int = 0):  # type: ignore[no-untyped-def]
    position = new_game(deal, variant)
    rng = random.Random(seed)
    for _ in range(plies):
        legal = position.legal_moves()
        if position.status is not Status.PLAYING or not legal:
            break
        position.apply(rng.choice(legal))
    return position


def test_klondike_is_registered_with_its_search_and_careful_player() -> None:
    assert games.blind_of(new_game(1, "turn-3")) is KLONDIKE_BLIND
    assert {"turn-1", "turn-3"} <= set(games.blind_variants())
    assert "careful" in KLONDIKE_BLIND.rule_players and "klondike" in games.SOLVERS


@pytest.mark.parametrize("variant", ["turn-1", "turn-3"])
def test_the_unseen_cards_are_the_face_down_ones_and_the_unturned_stock(variant: str) -> None:
    for deal in range(1, 40):
        position = played(deal, variant, deal * 3)
        cards = unseen_cards(position)
        assert len(cards) == len(hidden_slots(position)) == len(set(cards))
        shown = {card for i, column in enumerate(position.columns)
                 for card in column[position.down[i]:]}
        shown |= set(position.waste)
        assert not shown & set(cards)
        if position.redeals:
            assert not set(position.stock) & set(cards)  # the stock was seen, in order


@pytest.mark.parametrize("variant", ["turn-1", "turn-3"])
def test_the_careful_player_decides_from_the_view_alone(variant: str) -> None:
    """Shuffle every hidden card: the careful player's move does not change."""
    rng = random.Random(5)
    compared = 0
    for deal in range(1, 60):
        position = played(deal, variant, rng.randrange(0, 40), seed=deal)
        if position.status is not Status.PLAYING:
            continue
        order = unseen_cards(position)
        rng.shuffle(order)
        twin = with_hidden(position, order)
        mine, theirs = careful_move(position), careful_move(twin)
        assert (mine and mine.notation) == (theirs and theirs.notation)
        compared += 1
    assert compared > 40


def test_a_filled_twin_keeps_the_view_and_refills_only_the_hidden_places() -> None:
    from patience.klondike.rules import RULES

    position = played(7, "turn-1", 25)
    order = list(reversed(unseen_cards(position)))
    twin = with_hidden(position, order)
    assert RULES.visible_view(twin) == RULES.visible_view(position)
    assert sorted(unseen_cards(twin)) == sorted(order)


@pytest.mark.parametrize("variant", ["turn-1", "turn-3"])
def test_the_careful_player_ends_every_game(variant: str) -> None:
    wins = 0
    for deal in range(1, 80):
        position = new_game(deal, variant)
        for _ply in range(MAX_PLIES):
            move = careful_move(position)
            if move is None or position.status is not Status.PLAYING:
                break
            position.apply(move)
        else:
            pytest.fail(f"deal {deal}: the careful player did not stop")
        wins += position.status is Status.WON
    assert wins >= 1


def test_the_fair_hint_answers_klondike_with_a_legal_move() -> None:
    position = new_game(3, "turn-3")
    hint = fair_hint(position, samples=4, budget_s=1.0)
    assert hint["move"] in {move.notation for move in position.legal_moves()}
    assert 0.0 <= hint["chance"] <= 1.0


# -- the careful player's rules, the safe move, the memory, the ladder ------------------

def cards_of(text: str) -> list[int]:
    from patience.cards import parse_card

    return [parse_card(word) for word in text.split()]


def laid(columns: list[str], home: tuple[int, int, int, int], stock: str = "",
         waste: str = "", variant: str = "turn-1", rest_under: int = 0):  # type: ignore[no-untyped-def]
    """A table by hand (face-down cards in <>); the cards neither named nor home lie
    face down under column ``rest_under``."""
    from patience.cards import parse_card
    from patience.klondike import Position, get_variant

    table, down = [], []
    for text in columns:
        words = text.split()
        table.append([parse_card(word.strip("<>")) for word in words])
        down.append(sum(word.startswith("<") for word in words))
    named = {card for column in table for card in column} | set(cards_of(stock + " " + waste))
    rest = [s * 13 + r - 1 for s in range(4) for r in range(home[s] + 1, 14)
            if s * 13 + r - 1 not in named]
    table[rest_under][:0] = rest
    down[rest_under] += len(rest)
    return Position.from_table(get_variant(variant), table, down, cards_of(stock),
                               cards_of(waste), home)


def test_the_careful_player_sends_a_safe_card_home_first() -> None:
    # 3H is safe (both black 2s home, and the AD); the 9S could turn a card up.
    position = laid(["<KC> 3H", "<QD> 9S", "TD", "", "", "", ""], home=(2, 2, 2, 1))
    assert careful_move(position).notation == "t1-f3"
    # Without the AD home the 3H may be wanted (for a black 2 to come back on it).
    position = laid(["<KC> 3H", "<QD> 9S", "TD", "", "", "", ""], home=(2, 2, 2, 0),
                    rest_under=1)
    assert careful_move(position).notation == "t2-t3"


def test_the_careful_player_turns_up_from_the_deepest_column() -> None:
    # Both black 9s can go onto the 10 of diamonds; the 9C has more beneath it.
    position = laid(["<KC> 9S", "TD", "<QD> <JC> 9C", "2H", "", "", ""], home=(1, 1, 0, 0),
                    rest_under=3)
    assert careful_move(position).notation == "t3-t2"


def test_only_the_careful_player_empties_a_column_for_a_king() -> None:
    # Nothing turns a card up or goes home; the 5S alone in column 2 can go onto the
    # 6H, and the King of spades waits over face-down cards in column 3.
    from solver_worker.games.klondike.blind import freeing_move

    position = laid(["6H", "5S", "KS", "KH", "KD", "KC", "9D"], home=(4, 3, 4, 1),
                    rest_under=2)
    assert careful_move(position).notation == "t2-t1"
    assert freeing_move(position) is None  # nothing else to do, and no stock to turn


def test_the_safe_move_is_rule_3_and_never_the_turn_3_waste() -> None:
    from patience.klondike import parse_move

    turn_1 = laid(["<KC> 9S", "", "", "", "", "", ""], home=(2, 2, 2, 1), waste="3H")
    turn_3 = laid(["<KC> 9S", "", "", "", "", "", ""], home=(2, 2, 2, 1), waste="3H",
                  variant="turn-3")
    assert KLONDIKE_BLIND.safe_move(turn_1, parse_move("w-f3"))
    assert not KLONDIKE_BLIND.safe_move(turn_3, parse_move("w-f3"))
    assert not KLONDIKE_BLIND.safe_move(turn_1, parse_move("t1-t2"))


@pytest.mark.parametrize("variant", ["turn-1", "turn-3"])
def test_the_memory_of_the_stock_is_the_engines(variant: str) -> None:
    from solver_worker.games.klondike.blind import StockMemory

    redeals = 0
    for deal in range(1, 30):
        position, memory = new_game(deal, variant), StockMemory()
        for _ply in range(MAX_PLIES):
            move = careful_move(position)
            if move is None or position.status is not Status.PLAYING:
                break
            memory.before(position, move)
            position.apply(move)
            memory.check(position)
            if position.redeals:
                assert memory.stock == position.stock
                twin = with_hidden(position, unseen_cards(position))
                assert twin.stock == memory.stock  # a resample keeps what the player knows
        redeals += position.redeals > 0
    assert redeals > 10


@pytest.mark.parametrize("variant", ["turn-1", "turn-3"])
def test_the_rule_players_end_well_inside_the_move_limit(variant: str) -> None:
    from solver_worker.games.klondike.blind import freeing_move

    for player in (careful_move, freeing_move):
        for deal in range(1, 120):
            position = new_game(deal, variant)
            while (move := player(position)) is not None:
                assert move in position.legal_moves()
                position.apply(move)
                assert len(position.moves) < 400
                if position.status is not Status.PLAYING:
                    break


def test_the_careful_player_beats_the_freeing_player() -> None:
    from solver_worker.games.klondike.blind import freeing_move

    def wins(player, variant: str) -> int:  # type: ignore[no-untyped-def]
        won = 0
        for deal in range(1, 201):
            position = new_game(deal, variant)
            while (move := player(position)) is not None:
                position.apply(move)
                if position.status is not Status.PLAYING:
                    break
            won += position.status is Status.WON
        return won

    assert wins(careful_move, "turn-1") > wins(freeing_move, "turn-1") + 20


def test_the_rating_ladder_rates_a_klondike_deal() -> None:
    from solver_worker.rating import ladder, rate

    names = [policy.name for policy in ladder(KLONDIKE_BLIND)]
    assert names == ["random", "careful~30", "careful~10", "careful~3", "freeing~5",
                     "careful", "freeing"]
    position = new_game(5, "turn-1")
    rating = rate(position)
    assert rating.games == sum(policy.seeds for policy in ladder(KLONDIKE_BLIND))
    assert rating == rate(position) and 0 < rating.wins < rating.games
    assert set(KLONDIKE_BLIND.player_words("turn-1")) >= {"careful", "freeing"}
