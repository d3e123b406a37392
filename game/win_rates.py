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
from django.utils.translation import gettext_lazy

from patience import Rules
from solver_worker import winrates

from .names import variant_name

TENTH = Decimal("0.1")

PLAYER_NAMES: dict[str, Promise] = {
    "careful": gettext_lazy("Careful player"),
    "spare-cell": gettext_lazy("Spare-cell player"),
    "freeing": gettext_lazy("Freeing player"),
    "sampling": gettext_lazy("Sampling player"),
}

# What each player does, in words; a game's players follow its own rules, so per game.
PLAYER_WORDS: dict[str, dict[str, Promise]] = {
    "napoleons-tomb": {
        "careful": gettext_lazy(
            "Plays a card that fits; otherwise parks every card a foundation will want "
            "within three ranks, even into its last free cell."),
        "spare-cell": gettext_lazy(
            "Plays like the careful player but keeps its last cell free, for parking a "
            "card only to free the card beneath it."),
        "freeing": gettext_lazy(
            "Parks a card only to free the card beneath it, when that one fits."),
        "sampling": gettext_lazy(
            "Tries each move on many random orders of the cards it has not seen and "
            "plays the one that wins most of them, as the fair hint does."),
    },
    "st-helena": {
        "careful": gettext_lazy(
            "Plays every card it can home; once the stock is out, moves a card between "
            "piles only to uncover one that goes home, then deals or gathers the piles."),
    },
}

# A variant whose players follow other rules than its game's others: the cross has no
# cells, so its careful player never parks.
VARIANT_PLAYER_WORDS: dict[str, dict[str, Promise]] = {
    "cross": {
        "careful": gettext_lazy(
            "Plays a cross card home, else the top waste card where it fits, else turns "
            "the next card: the cross has no cells to park a card in."),
    },
}


def _percent(fraction: float, rounding: str) -> Decimal:
    return (Decimal(str(fraction)) * 100).quantize(TENTH, rounding=rounding)


def _point(fraction: float) -> Decimal:
    """A single rate to the nearest tenth of a percent, but 0 and 100 only if exact."""
    shown = _percent(fraction, ROUND_HALF_EVEN)
    return max(TENTH, min(shown, Decimal(100) - TENTH)) if 0 < fraction < 1 else shown


def _interval(pair: tuple[float, float]) -> dict[str, Decimal]:
    return {"low": _percent(pair[0], ROUND_FLOOR), "high": _percent(pair[1], ROUND_CEILING)}


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
        "command": tally.command,
    }


def _player(game: str, variant: str, player: winrates.PlayerRate) -> dict[str, Any]:
    name = PLAYER_NAMES.get(player.player)
    words = (VARIANT_PLAYER_WORDS.get(variant, {}).get(player.player)
             or PLAYER_WORDS.get(game, {}).get(player.player))
    return {
        "slug": player.player, "name": str(name) if name is not None else player.player,
        "words": str(words) if words is not None else "",
        "count": player.count, "won": player.won,
        "rate": {"low": _point(player.rate), "single": True}, "ci95": _interval(player.ci95),
        "command": player.command,
    }


def _name(rules: Rules, variant: str) -> str:
    found = rules.variants.get(variant)
    return variant_name(found) if found is not None else variant


def win_rates_of(rules: Rules) -> list[dict[str, Any]]:
    """One entry per variant of the game in the file: its name, the solver's runs
    (deals 1-N, then random deals; either may be missing) and the blind players."""
    return [{
        "slug": row.variant, "name": _name(rules, row.variant),
        "runs": [_run(tally) for tally in (row.range, row.sample) if tally is not None],
        "players": [_player(rules.slug, row.variant, player) for player in row.players],
    } for row in winrates.of_game(rules.slug)]
