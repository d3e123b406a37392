"""Checks of the daily challenge's input: parse, look up, refuse with a clear 4xx.

Games and variants come from the registry (``patience``), never from a list here,
so a game registered later has its daily, boards and statistics at once.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from django.utils.translation import gettext

import patience
from game.actions import ActionError, BadRequest, GameNotFound, NotAllowedNow, Player
from patience import Rules

from ..boards import ALL_TIME_BOARDS
from ..days import is_over, parse_day, today

MAX_PAGE = 10_000
FIRST_MONTH, LAST_MONTH = date(1900, 1, 1), date(2999, 12, 1)
# The texts check_day and check_month read, whole (re.fullmatch), as the OpenAPI schema says
# them (leaderboards.api): ASCII digits only, as date.fromisoformat alone would also take a
# week date ("2026-W48-7"). MONTHS is FIRST_MONTH to LAST_MONTH, or empty (this month):
# the schema's pattern, which the tests hold to check_month month by month.
DAY_FORM = r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
MONTH_FORM = r"[0-9]{4}-[0-9]{2}"
MONTHS = r"((19[0-9]{2}|2[0-9]{3})-(0[1-9]|1[0-2]))?"


class LogInFirst(ActionError):
    status = 403


class NotYetEligible(ActionError):
    """An account newer than today's daily: its first ranked daily is tomorrow's."""

    status = 403


def check_game_variant(game: object, variant: object) -> tuple[Rules, Any]:
    """(game, variant) named by a URL; ``game`` None for the old URLs that name only the
    variant (a variant's slug names its game). An unknown game, or a variant that is not
    one of that game's, is a 404 that lists what there is."""
    if game is None:
        found = patience.rules_of(variant) if _is_variant(variant) else None
    else:
        found = patience.GAMES.get(game) if isinstance(game, str) else None
    if found is None:
        known = ", ".join(patience.GAMES) if game is not None else ", ".join(_all_slugs())
        raise GameNotFound(f"no such {'game' if game is not None else 'variant'} "
                           f"(known: {known})")
    if not isinstance(variant, str) or variant not in found.variants:
        raise GameNotFound(f"{found.name} has no such variant "
                           f"(known: {', '.join(found.variants)})")
    return found, found.variants[variant]


def check_variant(value: object) -> Any:
    """A registered variant by its slug alone (any game): 404 if there is none."""
    return check_game_variant(None, value)[1]


def _is_variant(value: object) -> bool:
    return isinstance(value, str) and value in _all_slugs()


def _all_slugs() -> list[str]:
    return [variant.slug for _, variant in patience.all_variants()]


def variant_slugs() -> list[str]:
    """Every registered variant's slug, game by game in registration order."""
    return _all_slugs()


def check_day(value: object) -> date:
    """A day that has a daily to show: today or before (the future stays secret)."""
    day = _read_date(value, DAY_FORM, "", "a day is written YYYY-MM-DD, e.g. 2026-11-29")
    if day > today():
        raise GameNotFound(gettext("that day's daily is not out yet"))
    return day


def check_past_day(value: object) -> date:
    day = check_day(value)
    if not is_over(day):
        raise NotAllowedNow(gettext(
            "today's daily opens as an archive deal when its day is over"))
    return day


def check_board(value: object) -> str:
    """One of the all-time boards by name."""
    if value not in ALL_TIME_BOARDS:
        raise BadRequest("the boards are wins, win-rate and streak")
    return str(value)


def check_page(value: object) -> int:
    text = str(value if value is not None else "1")
    # isdigit() alone lets "²" and other Unicode digits through, which int() refuses.
    if not (text.isascii() and text.isdigit() and len(text) <= 5) or not 1 <= int(text) <= MAX_PAGE:
        raise BadRequest(f"page must be a whole number from 1 to {MAX_PAGE}")
    return int(text)


def check_month(value: object) -> date:
    """A month as YYYY-MM (its first day); none means this month."""
    if not value:
        return today()
    month = _read_date(value, MONTH_FORM, "-01", "month is written YYYY-MM, e.g. 2026-11")
    # The calendar links the months either side: year 1 or 9999 would overflow the dates.
    if not FIRST_MONTH <= month <= LAST_MONTH:
        raise BadRequest(f"month must lie between {FIRST_MONTH:%Y-%m} and {LAST_MONTH:%Y-%m}")
    return month


def _read_date(value: object, form: str, suffix: str, refusal: str) -> date:
    """The date ``value`` (plus ``suffix``) writes, if it has the ``form`` the schema says."""
    if not isinstance(value, str) or not re.fullmatch(form, value):
        raise BadRequest(refusal)
    try:
        return parse_day(value + suffix)
    except ValueError as error:
        raise BadRequest(refusal) from error


def check_logged_in(player: Player) -> int:
    if player.user_id is None:
        raise LogInFirst(gettext("log in to keep daily statistics"))
    return player.user_id
