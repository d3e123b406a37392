"""Klondike's search against plain exhaustive searches on late positions.

Two referees, neither of which prunes anything:

* ``plain_winnable`` walks the engine itself: every legal move (D and R
  one at a time), every table searched once. Only small positions finish, so
  ``SMALL`` holds hand-made late tables of 4 to 12 cards left, a short
  stock, face-down cards stacked in few columns (the blocks that lose deals).
* The search with ``NO_RULES`` (talon plays, nothing pruned, nothing
  forced), checked against the first referee on ``SMALL`` and then used as
  the referee on ``LARGE``: 12 to 24 cards left over most columns, long runs,
  a talon of up to 8, where emptying a column and lifting part of a run
  matter.

Each rule of ``solver_worker.games.klondike.search`` is switched on alone,
then all together, and must give the referee's verdict on every position; a
"won" line must replay to a win in the engine. The samples are sharp: the
naive safe rule, and dropping each kind of move the rules prune, each give
some wrong verdict on them. Then the moves themselves (every child is the
engine's position after the child's moves), the talon's reach, the keys, and
whole deals.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

from patience.cards import parse_card
from patience.klondike import Kind, Position, Status, get_variant, parse_move
from patience.klondike.position import BUILDS_ON
from patience.klondike.rules import RULES
from solver_worker.driver import Budget, search_pass
from solver_worker.games import SOLVERS
from solver_worker.games.klondike import search
from solver_worker.games.klondike.search import (
    ALL_RULES,
    NO_RULES,
    REACH,
    KlondikeSearch,
    Pruning,
    State,
    Uses,
    column_dead,
    engine_line,
    face_up_places,
    find_line,
    pointer_class,
    safe_cards,
    solve,
    useless_return,
)

PLAIN_LIMIT = 2500
REFEREE_NODES = 40_000
RULE_NAMES = ("symmetry", "talon_classes", "safe_home", "first_empty", "useful_returns",
              "used_builds", "dead_test", "held_returns")
ONE_RULE_EACH = [pytest.param(NO_RULES, id="none")] + [
    pytest.param(replace(NO_RULES, **{name: True}), id=name) for name in RULE_NAMES
] + [pytest.param(ALL_RULES, id="all")]


# -- late positions ------------------------------------------------------------

def late_table(rng: random.Random, variant: str, ranks: list[int], cards_left: range,
               talon_sizes: list[int], columns_used: list[int], down_share: float,
               run_share: float) -> Position | None:
    """A table near the end of a deal: each suit home up to a rank drawn from
    ``ranks``, the rest face down (``down_share`` of them) in the columns used,
    face-up runs over them, the leftovers in the stock and the waste."""
    found = [rng.choice(ranks) for _ in range(4)]
    left = [suit * 13 + rank - 1 for suit in range(4) for rank in range(found[suit] + 1, 14)]
    if len(left) not in cards_left:
        return None
    rng.shuffle(left)
    size = rng.choice(talon_sizes)
    talon, pool = left[:size], left[size:]
    columns: list[list[int]] = [[] for _ in range(7)]
    down = [0] * 7
    used = rng.sample(range(7), rng.choice(columns_used))
    for card in list(pool):
        if rng.random() < down_share:
            column = rng.choice(used)
            columns[column].append(card)
            down[column] += 1
            pool.remove(card)
    for column in used:
        if not pool:
            break
        columns[column].append(pool.pop(rng.randrange(len(pool))))
        while rng.random() < run_share:
            fits = [card for card in pool if BUILDS_ON[card][columns[column][-1]]]
            if not fits:
                break
            card = rng.choice(fits)
            pool.remove(card)
            columns[column].append(card)
    for card in pool:
        fits = [i for i in range(7) if columns[i] and BUILDS_ON[card][columns[i][-1]]]
        if fits:
            columns[rng.choice(fits)].append(card)
        else:
            talon.append(card)
    for i in range(7):
        if columns[i] and down[i] == len(columns[i]):
            down[i] -= 1  # a column ends in a face-up card
    split = rng.randrange(len(talon) + 1)
    position = Position.from_table(get_variant(variant), columns, down, talon[split:],
                                   talon[:split], found)
    return position if position.status is Status.PLAYING else None


def small_table(rng: random.Random) -> Position | None:
    return late_table(rng, rng.choice(["turn-1", "turn-3"]), [13, 12, 11, 10, 9, 8, 7, 6, 5],
                      range(4, 13), [0, 0, 1, 2, 3], [1, 2, 2, 3, 4], 0.6, 0.5)


def large_table(rng: random.Random) -> Position | None:
    return late_table(rng, rng.choice(["turn-1", "turn-3"]), [13, 11, 10, 9, 8, 7, 6, 5, 4],
                      range(12, 25), [2, 3, 4, 6, 8], [4, 5, 6, 7], 0.3, 0.8)


def plain_key(position: Position) -> bytes:
    """The whole table (the separator is no card)."""
    return b"\xff".join([*map(bytes, position.columns), bytes(position.down),
                         bytes(position.stock), bytes(position.waste),
                         bytes(position.foundations)])


def plain_winnable(position: Position, limit: int = PLAIN_LIMIT) -> bool | None:
    """Every legal move of the engine, depth first, each table searched once (the
    table of visited tables makes cycles harmless). None when too large."""
    position = position.copy()
    seen = {plain_key(position)}
    stack: list[Iterator[object]] = [iter(position.legal_moves())]
    while stack:
        move = next(stack[-1], None)
        if move is None:
            stack.pop()
            if stack:
                position.undo()
            continue
        position.apply(move)
        if position.status is Status.WON:
            return True
        key = plain_key(position)
        if key in seen:
            position.undo()
            continue
        seen.add(key)
        if len(seen) > limit:
            return None
        stack.append(iter(position.legal_moves()))
    return False


def exact(position: Position, pruning: Pruning = ALL_RULES, nodes: int = 500_000,
          game: type[KlondikeSearch] = KlondikeSearch) -> tuple[str, list[str]]:
    status, line, _ = search_pass(game(position.variant.draw, pruning), State.of(position),
                                  Budget(nodes=nodes), exact=True)
    return status, engine_line(line)


def assert_line_wins(position: Position, line: list[str]) -> None:
    replay = position.copy()
    for text in line:
        replay.apply(parse_move(text))
    assert replay.status is Status.WON


def small_sample(count: int, seed: int) -> tuple[list[Position], list[bool]]:
    rng = random.Random(seed)
    positions, truth = [], []
    while len(positions) < count:
        position = small_table(rng)
        if position is None:
            continue
        verdict = plain_winnable(position)
        if verdict is not None:
            positions.append(position)
            truth.append(verdict)
    return positions, truth


def large_sample(count: int, seed: int) -> tuple[list[Position], list[str]]:
    rng = random.Random(seed)
    positions, truth = [], []
    while len(positions) < count:
        position = large_table(rng)
        if position is None:
            continue
        verdict, _ = exact(position, NO_RULES, REFEREE_NODES)
        if verdict != "budget":
            positions.append(position)
            truth.append(verdict)
    return positions, truth


SMALL, SMALL_TRUTH = small_sample(160, seed=2026)
LARGE, LARGE_TRUTH = large_sample(200, seed=2027)


def test_the_samples_hold_both_verdicts() -> None:
    assert 15 < SMALL_TRUTH.count(False) < 120
    assert LARGE_TRUTH.count("exhausted") >= 1 and LARGE_TRUTH.count("won") > 150
    for sample in (SMALL, LARGE):
        assert {p.variant.slug for p in sample} == {"turn-1", "turn-3"}


def test_the_unpruned_search_agrees_with_the_engine() -> None:
    for position, truth in zip(SMALL, SMALL_TRUTH, strict=True):
        status, line = exact(position, NO_RULES)
        assert (status == "won") == truth, position
        if truth:
            assert_line_wins(position, line)


@pytest.mark.parametrize("pruning", ONE_RULE_EACH)
def test_each_rule_keeps_the_plain_verdict(pruning: Pruning) -> None:
    for position, truth in zip(SMALL, SMALL_TRUTH, strict=True):
        status, line = exact(position, pruning)
        assert status != "budget"
        assert (status == "won") == truth, (position, status)
        if status == "won":
            assert_line_wins(position, line)
    for position, verdict in zip(LARGE, LARGE_TRUTH, strict=True):
        status, line = exact(position, pruning)
        assert status == verdict, (position.columns, position.down, position.stock,
                                   position.waste, position.foundations)
        if status == "won":
            assert_line_wins(position, line)


def test_solve_says_won_with_a_real_line_or_lost() -> None:
    for position, truth in zip(SMALL, SMALL_TRUTH, strict=True):
        result = solve(position, Budget(nodes=500_000))
        assert result.verdict == ("won" if truth else "lost")
        if truth:
            assert_line_wins(position, result.line)


# -- the samples are sharp enough to catch a wrong rule ------------------------

def wrong_verdicts(pruning: Pruning = ALL_RULES,
                   game: type[KlondikeSearch] = KlondikeSearch) -> int:
    """How many won positions of the samples a search calls lost."""
    won = [p for p, truth in zip(SMALL, SMALL_TRUTH, strict=True) if truth]
    won += [p for p, verdict in zip(LARGE, LARGE_TRUTH, strict=True) if verdict == "won"]
    return sum(exact(p, pruning, 60_000, game)[0] == "exhausted" for p in won)


def test_the_naive_safe_rule_loses_won_positions() -> None:
    """'Both cards one rank lower of the other colour home' without rule 3's
    condition on the twin suit: positions it calls lost are won."""
    assert wrong_verdicts(replace(ALL_RULES, naive_safe=True)) > 0
    # One of them, by hand: the King of hearts must stay out for the Queen of
    # clubs to come back onto it, the Jack of diamonds onto her, and free 8D.
    position = table(["", "", "", "", "", "<KD> <TD> 9D", "<QD> <8D> <JD> 7D"],
                     home=(13, 13, 13, 6))
    assert exact(position)[0] == "won"
    assert exact(position, replace(ALL_RULES, naive_safe=True))[0] == "exhausted"


def dropping(kind: str) -> type[KlondikeSearch]:
    """A search that never plays one kind of move (an unsound pruning)."""

    class Dropping(KlondikeSearch):
        def moves(self, state: State, exact: bool) -> list[tuple[str, State]]:
            return [(move, child) for move, child in super().moves(state, exact)
                    if move_kind(state, move) != kind]

    return Dropping


def move_kind(state: State, move: str) -> str:
    source, _, target = move.split()[-1].partition("-")
    if source.startswith("f"):
        return "return"
    if source == "w":
        return "talon to column" if target.startswith("t") else "talon home"
    if target.startswith("f"):
        return "home"
    column = state.columns[int(source[1]) - 1]
    count = int(target.partition("x")[2] or 1)
    if len(column) - count == column[0] + 1:
        return "reveal" if column[0] else "emptying"
    return "partial"


@pytest.mark.parametrize("kind", ["return", "talon to column", "partial", "emptying"])
def test_the_samples_need_every_kind_of_move_the_rules_prune(kind: str) -> None:
    assert wrong_verdicts(game=dropping(kind)) > 0


# -- the moves -------------------------------------------------------------------

def cards(text: str) -> list[int]:
    return [parse_card(word) for word in text.split()]


def table(columns: list[str], home: tuple[int, int, int, int] = (0, 0, 0, 0),
          stock: str = "", waste: str = "", variant: str = "turn-1",
          rest_under: int | None = None) -> Position:
    """A table by hand: each column bottom first, face-down cards in <>. The
    cards neither named nor home go face down under column ``rest_under``."""
    laid, down = [], []
    for text in columns:
        words = text.split()
        laid.append([parse_card(word.strip("<>")) for word in words])
        down.append(sum(word.startswith("<") for word in words))
    named = {card for column in laid for card in column} | set(cards(stock) + cards(waste))
    rest = [suit * 13 + rank - 1 for suit in range(4) for rank in range(home[suit] + 1, 14)
            if suit * 13 + rank - 1 not in named]
    if rest_under is not None:
        laid[rest_under][:0] = rest
        down[rest_under] += len(rest)
    return Position.from_table(get_variant(variant), laid, down, cards(stock), cards(waste),
                               home)


def same_state(a: State, b: State) -> bool:
    return (a.columns, a.talon, a.ptr, a.found, a.home) == (b.columns, b.talon, b.ptr,
                                                             b.found, b.home)


def test_every_child_is_the_engine_position_after_its_moves() -> None:
    """Each child, with every rule off, is exactly State.of the engine position
    after the child's moves; and every legal engine move other than D and R
    (which the talon plays fold in) is one of the children."""
    for position in SMALL[:80] + LARGE[:80]:
        game = KlondikeSearch(position.variant.draw, NO_RULES)
        state = State.of(position)
        children = game.moves(state, exact=True)
        for move, child in children:
            twin = position.copy()
            for text in move.split():
                twin.apply(parse_move(text))
            assert same_state(State.of(twin), child), move
        texts = {move.split()[-1] for move, _ in children if " " not in move}
        for move in position.legal_moves():
            if move.notation not in ("D", "R"):
                # a King shuffle between empty columns is the only move left out (rule 5)
                assert move.notation in texts or king_shuffle(position, move.notation)


def king_shuffle(position: Position, text: str) -> bool:
    """A whole column headed by a King into an empty column (rule 5 leaves it out)."""
    move = parse_move(text)
    return (move.kind is Kind.COLUMN_TO_COLUMN and not position.columns[move.target]
            and not position.down[move.source]
            and move.count == len(position.columns[move.source]))


def test_the_talon_reach_at_turn_3() -> None:
    # 7 cards, none turned: the waste tops after D, D D, D D D (the last one).
    assert REACH[3][7][0] == ((3, "D"), (6, "D D"), (7, "D D D"))
    # Off the cycle (4 on the waste): the top now, then the end, then round again.
    assert REACH[3][7][4] == ((4, ""), (7, "D"), (3, "D R D"), (6, "D R D D"))
    assert REACH[1][3][2] == ((2, ""), (3, "D"), (1, "D R D"))
    assert REACH[3][0][0] == ()
    assert [pointer_class(3, 7, ptr) for ptr in range(8)] == [0, 1, 2, 0, 4, 5, 0, 0]
    assert {pointer_class(1, 7, ptr) for ptr in range(8)} == {0}


def test_a_talon_play_spells_out_its_turns() -> None:
    # Turn-3, the stock's next card last: 9D TD JD, then QD KD 8D (the 8D on top).
    position = table(["", "", "", "", "", "", ""], home=(13, 13, 13, 7),
                     stock="8D KD QD JD TD 9D", variant="turn-3")
    moves = [move for move, _ in KlondikeSearch(3, NO_RULES).moves(State.of(position), True)]
    plays = [move for move in moves if "w-" in move]
    assert plays == ["D D w-f4"]  # the JD, top after one D, goes nowhere
    twin = position.copy()
    for text in plays[0].split():
        twin.apply(parse_move(text))
    assert twin.foundations[3] == 8 and twin.waste == cards("9D TD JD QD KD")


def test_the_key_forgets_the_column_order_and_the_turn_1_pointer() -> None:
    # The same talon (7D, then 8D 9D TD to come), once one card out, once all four.
    columns = ["<JD> <QD> <KD> <4D> 6D", "", "KH", "5D", "", "", ""]
    moved = ["", "5D", "", "", "<JD> <QD> <KD> <4D> 6D", "KH", ""]
    for variant, same in (("turn-1", True), ("turn-3", False)):
        one = table(columns, (13, 13, 12, 3), stock="TD 9D 8D", waste="7D", variant=variant)
        other = table(moved, (13, 13, 12, 3), waste="7D 8D 9D TD", variant=variant)
        game = KlondikeSearch(one.variant.draw)
        assert (game.key(State.of(one)) == game.key(State.of(other))) is same
        assert game.key(State.of(one)) == game.key(State.of(table(
            moved, (13, 13, 12, 3), stock="TD 9D 8D", waste="7D", variant=variant)))


def test_the_safe_cards() -> None:
    assert safe_cards((0, 0, 0, 0)) == (0, 13, 26, 39)  # the aces
    assert safe_cards((1, 1, 1, 1)) == (1, 14, 27, 40)  # the twos
    # The 5 of hearts: both black 4s home, and the 3 of diamonds.
    assert 30 in safe_cards((4, 4, 4, 3))
    assert 30 not in safe_cards((4, 4, 4, 2))  # 3D not home
    assert 30 in safe_cards((4, 4, 4, 2), naive=True)
    assert 30 not in safe_cards((4, 3, 4, 3))  # 4S not home


def test_a_return_with_nothing_to_hold_is_useless() -> None:
    # The 6 of hearts back: both black 5s home and the 4 of diamonds.
    assert useless_return((5, 5, 6, 4), 2)
    assert not useless_return((5, 4, 6, 4), 2)
    assert not useless_return((5, 5, 6, 3), 2)


def test_the_dead_test() -> None:
    # 8D, face down, lies over the 7D it needs and both black 9s it could go on.
    dead = State.of(table(["<9C> <7D> <9S> <8D> 4H", "KH", "", "", "", "", ""],
                          home=(8, 8, 3, 6), rest_under=1))
    assert column_dead(dead.columns[0])
    assert KlondikeSearch(1).dead(dead)
    # With a black 9 elsewhere the 8D may leave.
    alive = State.of(table(["<9C> <7D> <KS> <8D> 4H", "9S", "KH", "", "", "", ""],
                           home=(8, 8, 3, 6), rest_under=2))
    assert not column_dead(alive.columns[0])


def test_a_lifted_run_waits_for_its_use() -> None:
    """8S 7H may go from the 9H onto the 9D. The 9H it uncovers is of use when the
    8C (8S's twin) can come onto it: here from column 3, which that empties for
    the King waiting over face-down cards in column 4. With the 8C face down
    nothing can use the 9H, and the move is not tried."""
    useful = table(["<JH> 9H 8S 7H", "9D", "8C", "KC", "", "", ""], home=(7, 7, 5, 8),
                   rest_under=3)
    lonely = table(["<JH> 9H 8S 7H", "9D", "", "KC", "", "", ""], home=(7, 7, 5, 8),
                   rest_under=3)
    for position, kept in ((useful, True), (lonely, False)):
        state = State.of(position)
        loc = face_up_places(state.columns)
        head = state.columns[0][3]  # the 8S (index 0 holds the face-down count)
        assert Uses(state, loc, 1, 0, 3).uncovered(0, 2, head) is kept
        moves = [move for move, _ in KlondikeSearch(1).moves(state, exact=True)]
        assert ("t1-t2x2" in moves) is kept
        assert "t1-t2x2" in [move for move, _ in KlondikeSearch(1, NO_RULES).moves(
            state, exact=True)]


# -- whole deals ------------------------------------------------------------------

def test_klondike_is_registered() -> None:
    assert SOLVERS["klondike"] is solve


@pytest.mark.parametrize("variant", ["turn-1", "turn-3"])
def test_whole_deals_won_by_the_search_replay_from_the_start(variant: str) -> None:
    for deal in (1, 2, 3):
        result = solve(RULES.new_game(deal, variant), Budget(seconds=5))
        assert result.verdict == "won"
        assert_line_wins(RULES.new_game(deal, variant), result.line)


def test_a_lost_deal_is_proved_lost() -> None:
    result = solve(RULES.new_game(10, "turn-3"), Budget(seconds=5))
    assert result.verdict == "lost" and result.line == []


def test_the_greedy_restarts_replay() -> None:
    position = RULES.new_game(21, "turn-1")
    first = find_line(position, Budget(nodes=30_000))
    assert first == find_line(position, Budget(nodes=30_000))
    assert first[0] == "won"
    assert_line_wins(position, first[1])


def test_no_rule_is_left_out_of_the_comparison() -> None:
    flags = {name for name in Pruning.__dataclass_fields__
             if name not in ("naive_safe", "paired_lifts")}  # the core's own: its tests
    assert flags == set(RULE_NAMES)
    assert Pruning() == search.ALL_RULES
