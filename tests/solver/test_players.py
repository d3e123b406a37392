"""The blind players, the fair hint and the ``solver_worker.play`` command.

The game-agnostic core (``solver_worker.players``) is driven here through
Napoleon's Tomb's knowledge (``solver_worker.games.tomb.blind``).

What is checked: the careful player's rule (its definition of "wanted within
three ranks" and of freeing the card beneath) and that it wins an easy
stacked deal; that no blind player reads the stock order (decisions made with
an opaque stock that raises on any read of its cards, and lockstep play on
deals that differ only below the cards turned so far); that every game a
player plays replays legally in the engine; that the 3-card player's memory
of the stock after a redeal is what the engine holds; that the fair hint is
the same for positions that differ only in the unseen stock order; the
``--deals`` parser; the Wilson interval of the summary.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from patience.tomb import (
    Position,
    Status,
    deal_from_cards,
    deal_from_number,
    deal_from_seed,
    get_variant,
    new_game,
    parse_move,
    parse_moves,
    visible_view,
)
from patience.tomb.moves import DRAW, REDEAL, TO_CELL, TO_FOUNDATION, TOMB, Kind
from patience.tomb.position import NO_RANK
from solver_worker.deal_ranges import parse_deal_list as parse_deals
from solver_worker.games.tomb import blind as players
from solver_worker.games.tomb.blind import (
    Memory,
    Sight,
    careful_move,
    freeing_move,
    real_choices,
    rule_move,
    wanted_within,
)
from solver_worker.play import summarise, wilson
from solver_worker.players import SamplingPlayer, fair_hint, play_game, play_out

REPO_ROOT = Path(__file__).resolve().parents[2]
RANKS = "A23456789TJQK"
SUITS = "CSHD"
# Small budgets keep the sampling player's games to a fraction of a second.
QUICK: dict[str, Any] = {"samples": 4, "nodes": 400, "seconds": 0.05}


class OpaqueStock(list):  # type: ignore[type-arg]
    """A stock whose size can be read but not its cards or their order.

    ``stock[:]`` (how ``Position.copy`` copies it) gives another opaque
    stock, so copying a position and replacing its stock stays possible.
    """

    def _refuse(self, *args: object, **kwargs: object) -> Any:
        raise AssertionError("a blind player read the stock order")

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice) and index == slice(None):
            return OpaqueStock(list.__iter__(self))
        return self._refuse()

    __iter__ = __reversed__ = __contains__ = index = count = copy = _refuse
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __add__ = __mul__ = _refuse
    __hash__ = None  # type: ignore[assignment]


def blindfolded(position: Position) -> Position:
    """The same position with an opaque stock."""
    twin = position.copy()
    twin.stock = OpaqueStock(list.__iter__(position.stock))
    return twin


def in_play_order(order: list[str], turn: int) -> list[str]:
    """A deck (top first) whose cards come into play in ``order`` when turned
    ``turn`` at a time and each played at once: each group of ``turn`` cards
    is reversed, since the last card turned is the one in play."""
    deck: list[str] = []
    for start in range(0, len(order), turn):
        deck += reversed(order[start : start + turn])
    return deck


def easy_order() -> list[str]:
    """Every card fits when it comes into play: 7..K four times, then the
    tomb's 6..A four times; except that an 8 comes just before its 7."""
    corners = [rank + suit for suit in SUITS for rank in "789TJQK"]
    tomb = [rank + suit for suit in SUITS for rank in "65432A"]
    corners[0], corners[1] = corners[1], corners[0]  # 8C before 7C
    return corners + tomb


# -- the careful player's rule -------------------------------------------------


def wants(tomb: int = 6, corners: tuple[int, ...] = (7, 7, 7, 7)) -> tuple[int, ...]:
    return (*corners, tomb)


@pytest.mark.parametrize(
    ("rank", "tomb", "expected"),
    [
        (5, 6, True), (4, 6, True), (3, 6, True), (2, 6, False), (6, 6, False),
        (1, 2, True), (6, 2, True), (5, 2, True), (4, 2, False), (2, 2, False),
        (6, 1, True), (4, 1, True), (3, 1, False), (2, 1, False),
    ],
)
def test_wanted_within_three_ranks_counts_the_tomb_down_and_round(
    rank: int, tomb: int, expected: bool
) -> None:
    assert wanted_within(rank, wants(tomb=tomb)) is expected


def test_wanted_within_three_ranks_counts_each_corner_up() -> None:
    assert [wanted_within(rank, wants()) for rank in range(7, 14)] == [
        False, True, True, True, False, False, False]  # an empty corner wants a 7
    assert wanted_within(13, wants(corners=(10, 14, 14, 14)))  # J Q K after a 10
    assert not wanted_within(13, wants(corners=(9, NO_RANK, NO_RANK, NO_RANK)))
    assert not wanted_within(13, wants(corners=(NO_RANK,) * 4))  # complete corners want nothing


def sight(waste: str, cells: tuple[int, ...] = (-1, -1, -1, -1), stock: int = 10,
          tomb: int = 6, corners: tuple[int, ...] = (7, 7, 7, 7), redeals: int = 0) -> Sight:
    from patience.tomb import parse_card

    return Sight(tuple(parse_card(text) for text in waste.split()), cells,
                 wants(tomb, corners), stock, redeals, 1)


def test_the_rule_plays_parks_near_cards_frees_the_card_beneath_then_turns() -> None:
    assert rule_move(sight("KC 7H")) == TO_FOUNDATION[0]  # fits: first fitting corner
    assert rule_move(sight("KC 6H")) == TO_FOUNDATION[TOMB]
    assert rule_move(sight("KC 9H")) == TO_CELL[0]  # wanted within three ranks
    assert rule_move(sight("KC 9H"), near=False) == DRAW  # the freeing player turns
    assert rule_move(sight("7C KH")) == TO_CELL[0]  # parking frees the 7 beneath
    assert rule_move(sight("7C KH"), near=False) == TO_CELL[0]
    assert rule_move(sight("KC QH")) == DRAW  # nothing near, nothing freed
    full = (0, 1, 2, 3)
    assert rule_move(sight("7C KH", cells=full)) == DRAW
    assert rule_move(sight("KC QH", stock=0, redeals=1)) == REDEAL
    assert rule_move(sight("KC QH", stock=0)) == TO_CELL[0]  # the last move left
    assert rule_move(sight("KC QH", stock=0, cells=(-1, 1, 2, 3))) == TO_CELL[0]
    assert rule_move(sight("KC QH", stock=0, cells=full)) is None  # lost


def test_the_spare_cell_player_keeps_its_last_cell_for_freeing_the_card_beneath() -> None:
    two_free, one_free = (-1, -1, 2, 3), (-1, 1, 2, 3)
    assert rule_move(sight("KC 9H", cells=two_free), spare=True) == TO_CELL[0]
    assert rule_move(sight("KC 9H", cells=one_free), spare=True) == DRAW  # wanted soon: kept
    assert rule_move(sight("KC 9H", cells=one_free)) == TO_CELL[0]  # careful spends it
    assert rule_move(sight("7C KH", cells=one_free), spare=True) == TO_CELL[0]  # frees the 7
    assert rule_move(sight("KC QH", stock=0, cells=one_free), spare=True) == TO_CELL[0]


@pytest.mark.parametrize("variant", ["classic", "three-card"])
def test_the_careful_player_wins_an_easy_stacked_deal(variant: str) -> None:
    deck = in_play_order(easy_order(), get_variant(variant).turn)
    position = Position(deal_from_cards(deck), get_variant(variant))
    moves = play_out(position, careful_move, Memory())
    assert position.status is Status.WON
    assert "C@n" in moves  # the 8 that came before its 7 was parked, not buried
    # Every other move put a card home, but the park (its 8 went home by itself).
    assert moves.count("D") == len(moves) - 52


# -- blindness: no player reads the stock order ----------------------------------


def test_the_opaque_stock_gives_its_size_and_nothing_else() -> None:
    stock = blindfolded(new_game(1, "classic")).stock
    assert len(stock) == 52 and stock
    for read in (list, tuple, sorted, set, reversed, iter, lambda s: s[-1], lambda s: s[3:],
                 lambda s: 5 in s, lambda s: s == [], lambda s: s.index(5)):
        with pytest.raises(AssertionError, match="read the stock order"):
            read(stock)


@pytest.mark.parametrize("variant", ["classic", "three-card"])
@pytest.mark.parametrize("choose", [careful_move, freeing_move], ids=["careful", "freeing"])
def test_rule_players_decide_with_an_opaque_stock(variant: str, choose: Any) -> None:
    for deal in (1, 2, 3):
        position = new_game(deal, variant)
        while position.status is Status.PLAYING:
            move = choose(blindfolded(position))  # raises if the order is read
            assert move is not None
            position.apply(move)


def test_the_sampling_player_decides_with_an_opaque_stock_before_a_redeal() -> None:
    for variant in ("classic", "three-card"):
        position = new_game(4, variant)
        player, rng = SamplingPlayer(**QUICK), random.Random(1)
        decisions = 0
        while position.status is Status.PLAYING and players.known_stock(position) is None:
            decision = player.decide(blindfolded(position), rng)
            assert decision is not None
            decisions += decision.samples > 0
            position.apply(decision.move)
        assert decisions > 3  # it did sample on the way


def shuffled_below(deal_number: int, keep: int, seed: int) -> list[str]:
    """The deal's deck with everything below its first ``keep`` cards shuffled."""
    texts = deal_from_number(deal_number).texts
    rest = texts[keep:]
    random.Random(seed).shuffle(rest)
    return texts[:keep] + rest


@pytest.mark.parametrize("variant", ["classic", "three-card"])
def test_careful_decides_alike_until_the_decks_differ_in_a_turned_card(variant: str) -> None:
    keep = 20
    a = Position(deal_from_number(7), get_variant(variant))
    b = Position(deal_from_cards(shuffled_below(7, keep, seed=3)), get_variant(variant))
    assert a.stock != b.stock
    steps = 0
    while visible_view(a) == visible_view(b) and a.status is Status.PLAYING:
        move = careful_move(a)
        assert move == careful_move(b)
        assert move is not None
        a.apply(move)
        b.apply(move)
        steps += 1
    # They parted only when a card below the kept ones came into view.
    turned = 52 - len(a.stock)
    assert turned > keep - 3 or a.status is not Status.PLAYING
    assert steps > 5  # they did decide alike for a while


# -- every game replays legally --------------------------------------------------


@pytest.mark.parametrize("variant", ["classic", "three-card"])
@pytest.mark.parametrize("player", ["careful", "spare-cell", "freeing", "sampling"])
def test_games_replay_legally_in_the_engine(variant: str, player: str) -> None:
    options = QUICK if player == "sampling" else {}
    for deal in (5, 6):
        game = play_game(deal, variant, player, **options)
        replay = Position(deal_from_number(deal), get_variant(variant))
        for move in parse_moves(" ".join(game.moves)):
            assert move in replay.legal_moves()
            replay.apply(move)
        assert replay.status.value == game.result
        assert game.as_json() == {
            "deal": deal, "variant": variant, "player": player, "result": game.result,
            "moves": len(game.moves), "ms": round(game.ms, 1)}


def test_a_game_can_start_from_a_given_position_such_as_a_seeded_deal() -> None:
    deal = deal_from_seed(12345)
    game = play_game(0, "three-card", "sampling", position=Position(deal, get_variant(
        "three-card")), **QUICK)
    replay = Position.replay(deal, get_variant("three-card"), parse_moves(" ".join(game.moves)))
    assert replay.status.value == game.result


def test_a_three_card_game_remembers_the_stock_after_a_redeal() -> None:
    # play_out asserts Memory.stock == position.stock after every move once
    # the memory knows the stock; this checks it came to know it.
    position = new_game(13, "three-card")
    memory = Memory()
    play_out(position, careful_move, memory)
    assert REDEAL in position.moves
    assert memory.stock is not None


def test_the_sampling_player_follows_a_solved_line_once_the_stock_is_known() -> None:
    position = new_game(2, "three-card")
    while position.stock:
        position.apply(DRAW)
    assert players.known_stock(position) == []  # nothing unseen is left
    position.apply(REDEAL)
    assert players.known_stock(position) == position.stock  # seen, in order
    hint = fair_hint(position, samples=4, budget_s=2.0)
    assert hint == {"move": hint["move"], "chance": 1.0, "samples": 1, "exact": True}
    player = SamplingPlayer(**QUICK)
    moves = play_out(position, lambda p: player.decide(p, random.Random(0)).move)
    assert position.status is Status.WON
    assert player.solves == 1  # one solve, then its line was followed
    assert moves


# -- the fair hint ---------------------------------------------------------------


def midgame(deal: int, variant: str, plies: int) -> Position:
    position = new_game(deal, variant)
    for _ in range(plies):
        move = careful_move(position)
        if move is None or position.status is not Status.PLAYING:
            break
        position.apply(move)
    return position


@pytest.mark.parametrize(("variant", "deal", "plies"), [("classic", 8, 20), ("three-card", 9, 6)])
def test_the_fair_hint_does_not_depend_on_the_unseen_stock_order(
    variant: str, deal: int, plies: int
) -> None:
    position = midgame(deal, variant, plies)
    assert position.status is Status.PLAYING and len(position.stock) > 5
    assert position.redeals_left == position.variant.redeals  # still the first pass
    other = position.copy()
    random.Random(11).shuffle(other.stock)
    assert other.stock != position.stock
    assert visible_view(other) == visible_view(position)
    first = fair_hint(position, samples=6, budget_s=1.0, seed=5)
    assert first == fair_hint(other, samples=6, budget_s=1.0, seed=5)
    assert first == fair_hint(blindfolded(position), samples=6, budget_s=1.0, seed=5)
    assert first["samples"] == 6
    assert 0.0 <= first["chance"] <= 1.0
    assert first["move"] in {move.notation for move in position.legal_moves()}


def test_real_choices_merge_symmetric_targets() -> None:
    position = new_game(1, "classic")
    position.apply(DRAW)
    choices = real_choices(position)
    kinds = [move.kind for move in choices]
    assert kinds.count(Kind.CELL) + kinds.count(Kind.FOUNDATION) == 1
    assert Kind.DRAW in kinds
    assert len(position.legal_moves()) > len(choices)


def test_a_fitting_card_is_played_unsampled_only_when_that_is_provably_safe() -> None:
    deck = ["7C", "7S", "7H", "7D"] + [t for t in easy_order() if t[0] != "7"]
    classic = Position(deal_from_cards(deck), get_variant("classic"))
    verdicts, play = [], parse_move("F")
    for _ in range(4):
        classic.apply(DRAW)
        verdicts.append(players.safe_play(classic, play))
        classic.apply(play)
    assert verdicts == [False, False, False, True]  # safe once no other 7 is unseen
    three = Position(deal_from_cards(deck), get_variant("three-card"))
    three.apply(DRAW)  # 7H in play, 7D unseen
    assert not players.safe_play(three, play)


# -- the command line ------------------------------------------------------------


def test_parse_deals_takes_ranges_and_lists() -> None:
    assert parse_deals("1-3") == [1, 2, 3]
    assert parse_deals("7,19,23") == [7, 19, 23]
    assert parse_deals(" 1-3, 7 ,9-10,2") == [1, 2, 3, 7, 9, 10]
    assert parse_deals("42") == [42]
    assert len(parse_deals("1-2400")) == 2400


@pytest.mark.parametrize("text", ["", "a", "5-1", "0", "1-", "-3", "1,,2", "1000000", "1-2-3",
                                  "1.5", "1;2"])
def test_parse_deals_rejects_bad_input(text: str) -> None:
    with pytest.raises(ValueError):
        parse_deals(text)


def test_the_wilson_interval_on_known_numbers() -> None:
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=5e-5)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=5e-5)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=5e-5)
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=5e-5)
    assert wilson(0, 0) == (0.0, 1.0)
    summary = summarise([{"result": "won", "ms": 10.0}] * 5 + [{"result": "lost", "ms": 30.0}] * 5,
                        "careful", "classic", 1.0)
    assert summary["wins"] == 5 and summary["games"] == 10 and summary["win_rate"] == 0.5
    assert summary["ci95"] == [0.2366, 0.7634]
    assert summary["s_per_game"] == 0.02


def run_play(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "solver_worker.play", *args],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, check=False,
    )


def test_the_command_prints_a_line_per_deal_and_a_summary() -> None:
    done = run_play("--player", "careful", "--variant", "classic", "--deals", "1-4,9",
                    "--jobs", "2", "--json")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["deal"] for line in lines[:-1]] == [1, 2, 3, 4, 9]
    assert all(line["result"] in ("won", "lost") and line["player"] == "careful"
               for line in lines[:-1])
    summary = lines[-1]
    assert summary["summary"] is True and summary["games"] == 5
    assert set(summary) >= {"player", "variant", "games", "wins", "win_rate", "ci95",
                            "s_per_game"}


def test_the_command_rejects_bad_deals_with_exit_code_2() -> None:
    done = run_play("--deals", "9-3")
    assert done.returncode == 2
    assert "backwards" in done.stderr
