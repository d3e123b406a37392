"""A game's proved win rates (solver_worker.winrates) as the rules pages show them.

The file's fractions become percentages here, rounded once, outward: a lower bound
down and an upper bound up, so a shown interval never claims more than the data (an
interval of 0.9998 .. 1 reads 99.9-100%, not 100-100%). A single rate is rounded to
the nearest tenth but never to 0% or 100% unless it is exactly that. The template
formats the numbers in the reader's language (floatformat) and words them.
"""

from __future__ import annotations

from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, Decimal
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy

from patience import Rules
from patience.protocol import Published
from solver_worker import winrates
from solver_worker.games import player_words

from .names import variant_name

TENTH = Decimal("0.1")

PLAYER_NAMES: dict[str, Promise] = {
    "careful": gettext_lazy("Careful player"),
    "spare-cell": gettext_lazy("Spare-cell player"),
    "freeing": gettext_lazy("Freeing player"),
    "sampling": gettext_lazy("Sampling player"),
}

def _percent(fraction: float, rounding: str) -> Decimal:
    return (Decimal(str(fraction)) * 100).quantize(TENTH, rounding=rounding)


def _point(fraction: float) -> Decimal:
    """A single rate to the nearest tenth of a percent, but 0 and 100 only if exact."""
    shown = _percent(fraction, ROUND_HALF_EVEN)
    return max(TENTH, min(shown, Decimal(100) - TENTH)) if 0 < fraction < 1 else shown


def _interval(pair: tuple[float, float]) -> dict[str, Decimal]:
    return {"low": _percent(pair[0], ROUND_FLOOR), "high": _percent(pair[1], ROUND_CEILING)}


def _longest_rerun_s(tally: winrates.Tally) -> float | None:
    """The longest budget the undecided deals were searched again with, when it is
    longer than the first run's (the page then gives the budget as a range)."""
    longest = max(tally.rerun_budgets_s, default=0.0)
    return longest if longest > tally.budget_s else None


def _run(tally: winrates.Tally) -> dict[str, Any]:
    numbered = tally.numbered
    # Every deal decided: one rate; else the range from every undecided lost to won.
    rate = ({"low": _point(tally.won_range[0]), "single": True} if tally.unknown == 0
            else {**_interval(tally.won_range), "single": False})
    return {
        "first": numbered[0] if numbered else None,
        "last": numbered[1] if numbered else None,
        "count": tally.count, "won": tally.won, "lost": tally.lost, "unknown": tally.unknown,
        "rate": rate, "ci95": _interval(tally.ci95), "budget_s": tally.budget_s,
        "most_budget_s": _longest_rerun_s(tally),
        "command": tally.command,
    }


def _player(variant: str, player: winrates.PlayerRate) -> dict[str, Any]:
    name = PLAYER_NAMES.get(player.player)
    words = player_words(variant).get(player.player)
    return {
        "slug": player.player, "name": str(name) if name is not None else player.player,
        "words": gettext(words) if words else "",
        "count": player.count, "won": player.won,
        "rate": {"low": _point(player.rate), "single": True}, "ci95": _interval(player.ci95),
        "command": player.command,
    }


def _name(rules: Rules, variant: str) -> str:
    found = rules.variants.get(variant)
    return variant_name(found) if found is not None else variant


def _published(figure: Published, ours: tuple[float, float] | None) -> dict[str, Any]:
    """A figure from outside, and whether the site's own 95% interval (fractions) meets
    its interval (percentages); None when there is nothing to compare it with."""
    meets = None
    if ours is not None:
        meets = ours[0] * 100 <= figure.high and figure.low <= ours[1] * 100
    low, high = Decimal(str(figure.low)), Decimal(str(figure.high))
    # As many decimals as the source gives (both ends alike): 81.861-82.029, 82-91.44.
    places = max(0, -int(low.as_tuple().exponent), -int(high.as_tuple().exponent))
    return {
        "source": gettext(figure.source), "what": gettext(figure.what),
        "low": low, "high": high, "places": places,
        "sees_all": figure.sees_all, "meets": meets,
    }


def _solver_interval(row: winrates.WinRate) -> tuple[float, float] | None:
    """The site's solver's interval a published one is held against: the random
    deals' when measured (a sample of the same population), else deals 1-N's."""
    tally = row.sample or row.range
    return tally.ci95 if tally is not None else None


def _published_of(rules: Rules, variant: str, row: winrates.WinRate | None
                  ) -> list[dict[str, Any]]:
    guide = rules.guide
    if guide is None:
        return []
    ours = _solver_interval(row) if row is not None else None
    return [_published(figure, ours if figure.sees_all else None)
            for figure in guide.published if figure.variant == variant]


def win_rates_of(rules: Rules) -> list[dict[str, Any]]:
    """One entry per variant of the game in the file: its name, the solver's runs
    (deals 1-N, then random deals; either may be missing), the blind players, and the
    figures published elsewhere (each held against the solver's interval)."""
    return [{
        "slug": row.variant, "name": _name(rules, row.variant),
        "runs": [_run(tally) for tally in (row.range, row.sample) if tally is not None],
        "players": [_player(row.variant, player) for player in row.players],
        "published": _published_of(rules, row.variant, row),
    } for row in winrates.of_game(rules.slug)]
