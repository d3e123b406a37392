"""A deal's difficulty: how often stock-blind players of graded skill win it.

One blind player's single game says little (the careful player wins a deal
or it does not), and the strong sampling player wins almost every winnable
3-card deal, so neither spreads the deals. The rating here is a measured win
rate over K games: a ladder of policies from weak to strong, the noisy ones
played with several seeds, every one deciding from the player's own
view only (never the hidden cards' order), on the engine alone.

The ladder, weakest first (``POLICIES``):

* ``random``: a uniformly random real choice (play the fitting top card,
  park it, turn cards or the waste over).
* ``careful~30``, ``careful~10``, ``careful~3``: the careful player, who
  with that percent chance at each decision plays a random real choice
  instead (a slip).
* ``freeing~5`` and ``near2~5``: the freeing player (parks only to free the
  card beneath) and a careful player who parks cards wanted within two ranks
  rather than three, each with a 5% slip.
* ``careful``, ``freeing``, ``near1``, ``near2``: the deterministic players,
  one game each (more seeds would replay the same game).

The rules are the game's own rule players (``BlindGame.rule_players``: the
names above are Napoleon's Tomb's, ``solver_worker.games.tomb.blind``); a game
without one of them plays the rest of the ladder (``ladder``), so the ladder
serves every game with blind knowledge.

A game costs about half a millisecond (the engine alone, no search), so the
whole ladder (``GAMES`` games) rates a deal in well under a second in either
variant (docs/figures.md measures it). Each noisy game's random choices come
from ``random.Random("policy/seed")``: the same deal gives the same rating.
"""

from __future__ import annotations

import functools
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from patience import Status

from .blind import BlindGame, Chooser
from .games import blind_of
from .players import MAX_PLIES

NOISY_SEEDS: Final = 20  # games per noisy policy
BANDS: Final = ("easy", "medium", "hard", "expert")
BANDS_FILE: Final = Path(__file__).with_name("data") / "bands.json"


@dataclass(frozen=True, slots=True)
class Policy:
    """A blind player: a rule player of the game (by name in its
    ``BlindGame.rule_players``; None = no rule: random play) and a slip chance."""

    name: str
    rule: str | None
    slip: float

    @property
    def seeds(self) -> int:
        return NOISY_SEEDS if self.rule is None or self.slip > 0 else 1


POLICIES: Final = (
    Policy("random", None, 1.0),
    Policy("careful~30", "careful", 0.30),
    Policy("careful~10", "careful", 0.10),
    Policy("careful~3", "careful", 0.03),
    Policy("freeing~5", "freeing", 0.05),
    Policy("near2~5", "near2", 0.05),
    Policy("careful", "careful", 0.0),
    Policy("freeing", "freeing", 0.0),
    Policy("near1", "near1", 0.0),
    Policy("near2", "near2", 0.0),
)
GAMES: Final = sum(policy.seeds for policy in POLICIES)  # for a game with every rule


def ladder(game: BlindGame) -> tuple[Policy, ...]:
    """The policies a game can play: those whose rule player it has."""
    return tuple(policy for policy in POLICIES
                 if policy.rule is None or policy.rule in game.rule_players)


def chooser(policy: Policy, seed: int) -> Chooser:
    """The policy's move in a position, from what the player sees only."""
    rng = random.Random(f"{policy.name}/{seed}")

    def choose(position: Any) -> Any | None:
        game = blind_of(position)
        if policy.rule is None or (policy.slip > 0 and rng.random() < policy.slip):
            choices = game.candidate_moves(position)
            if choices:
                return rng.choice(choices)
            if policy.rule is None:
                return None
        return game.rule_players[policy.rule](position)

    return choose


def play(position: Any, policy: Policy, seed: int) -> bool:
    """One game of the policy from a copy of ``position``: won or not."""
    game = position.copy()
    choose = chooser(policy, seed)
    for _ in range(MAX_PLIES):
        if game.status is not Status.PLAYING:
            break
        move = choose(game)
        if move is None:
            break
        game.apply(move)
    return bool(game.status is Status.WON)


@dataclass(frozen=True, slots=True)
class Rating:
    wins: int
    games: int
    by_policy: dict[str, int]  # policy name -> games won

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def as_json(self) -> dict[str, Any]:
        return {"wins": self.wins, "games": self.games, "rate": round(self.rate, 4),
                "by_policy": self.by_policy}


def rate(position: Any) -> Rating:
    """The deal's measured win rate over the game's ladder (``GAMES`` games for
    a game with every rule player, such as Napoleon's Tomb)."""
    policies = ladder(blind_of(position))
    by_policy = {
        policy.name: sum(play(position, policy, seed) for seed in range(policy.seeds))
        for policy in policies
    }
    games = sum(policy.seeds for policy in policies)
    return Rating(sum(by_policy.values()), games, by_policy)


# -- bands -------------------------------------------------------------------


def load_bands(path: Path = BANDS_FILE) -> dict[str, Any]:
    """The calibrated thresholds: ``{"variants": {slug: {"thresholds": [..3..]}}, ...}``."""
    return dict(json.loads(path.read_text()))


@functools.cache
def shipped_bands() -> dict[str, Any]:
    return load_bands()


def thresholds(variant: str, bands: dict[str, Any] | None = None) -> list[float]:
    """The win rates that separate easy | medium | hard | expert, highest first."""
    data = shipped_bands() if bands is None else bands
    return [float(value) for value in data["variants"][variant]["thresholds"]]


def band_of(rate: float, cuts: list[float]) -> str:
    """easy at or above the first cut, medium at or above the second, hard at or
    above the third, expert below it."""
    for band, cut in zip(BANDS, cuts, strict=False):
        if rate >= cut:
            return band
    return BANDS[-1]


def band_for(rate: float, variant: str) -> str:
    return band_of(rate, thresholds(variant))


def cuts_from(rates: list[float]) -> list[float]:
    """Cuts at the distribution's quartiles, so each band holds about a quarter of
    the deals (a deal at a cut goes to the easier band).

    Ties bend this: each cut is above the next (no band left empty by a repeated
    value) and every cut is above 0, so "expert" means at most the deals no
    blind player won, however many they are (many classic deals).
    """
    ordered = sorted(rates, reverse=True)
    distinct = sorted({value for value in ordered if value > 0}, reverse=True)
    count = len(ordered)
    cuts: list[float] = []
    for quarter in (1, 2, 3):
        cut = ordered[min(count - 1, (count * quarter) // 4)]
        lower = [value for value in distinct if value <= cut and (not cuts or value < cuts[-1])]
        if lower:
            cuts.append(lower[0])
        elif distinct and (not cuts or distinct[-1] < cuts[-1]):
            cuts.append(distinct[-1])
    while len(cuts) < 3:  # too few distinct rates: the remaining bands stay empty
        cuts.append(cuts[-1] / 2 if cuts else 0.5)
    return [round(cut, 4) for cut in cuts]
