"""The game's proved win rates, as the rules pages show them (issue 18).

``data/win_rates.json`` is written from the committed solver and player runs (each
figure keeps the command that made it); this module only reads it, typed, once. A row
is one variant of one game: the solver's tally over a numbered range of deals, over a
random sample (or none yet), and the blind players' rates (none yet is an empty list).
Keys beyond these are ignored, so the file can grow without breaking the pages; a
missing file or a missing named key raises, since the file ships with the package.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

WIN_RATES_FILE: Final = Path(__file__).with_name("data") / "win_rates.json"


@dataclass(frozen=True, slots=True)
class Tally:
    """The solver's answer over a set of deals: won, proved lost and undecided (out of
    time). ``won_range`` is the share won if every undecided deal is lost .. won;
    ``ci95`` widens it by the 95% interval of the sample."""

    deals: str  # "1-2400" or "random"
    count: int
    won: int
    lost: int
    unknown: int
    won_range: tuple[float, float]
    ci95: tuple[float, float]
    budget_s: float
    command: str
    seed: int | None
    # The budgets of the runs that searched the undecided deals again, in order.
    rerun_budgets_s: tuple[float, ...] = ()

    @property
    def numbered(self) -> tuple[int, int] | None:
        """(first, last) of a numbered range of deals; None for random deals."""
        first, dash, last = self.deals.partition("-")
        if not dash or not (first.isdigit() and last.isdigit()):
            return None
        return int(first), int(last)


@dataclass(frozen=True, slots=True)
class PlayerRate:
    """A player who cannot see the stock, over ``count`` deals."""

    player: str
    count: int
    won: int
    rate: float
    ci95: tuple[float, float]
    command: str


@dataclass(frozen=True, slots=True)
class WinRate:
    game: str
    variant: str
    range: Tally | None
    sample: Tally | None
    players: tuple[PlayerRate, ...]


def _pair(value: Any) -> tuple[float, float]:
    low, high = value
    return float(low), float(high)


def _tally(data: Any) -> Tally | None:
    if data is None:
        return None
    seed = data.get("seed")
    return Tally(
        deals=str(data["deals"]), count=int(data["count"]), won=int(data["won"]),
        lost=int(data["lost"]), unknown=int(data["unknown"]),
        won_range=_pair(data["won_range"]), ci95=_pair(data["ci95"]),
        budget_s=float(data["budget_s"]), command=str(data["command"]),
        seed=None if seed is None else int(seed),
        rerun_budgets_s=tuple(float(budget) for budget in data.get("rerun_budgets_s") or ()))


def _player(data: Any) -> PlayerRate:
    return PlayerRate(
        player=str(data["player"]), count=int(data["count"]), won=int(data["won"]),
        rate=float(data["rate"]), ci95=_pair(data["ci95"]), command=str(data["command"]))


def parse(data: Any) -> list[WinRate]:
    """The rows of the file's ``{"rows": [...]}``, in its order."""
    return [WinRate(game=str(row["game"]), variant=str(row["variant"]),
                    range=_tally(row.get("range")), sample=_tally(row.get("sample")),
                    players=tuple(_player(player) for player in row.get("players") or ()))
            for row in data["rows"]]


def read(path: Path = WIN_RATES_FILE) -> list[WinRate]:
    return parse(json.loads(path.read_text(encoding="utf-8")))


@functools.cache
def _shipped() -> tuple[WinRate, ...]:
    return tuple(read())


def load() -> list[WinRate]:
    """The shipped rows, read once per process (the file changes only with a release)."""
    return list(_shipped())


def of_game(game: str) -> list[WinRate]:
    return [row for row in load() if row.game == game]
