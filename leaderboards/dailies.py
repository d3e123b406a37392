"""Making the daily deals: screen the day's candidate seeds, store the first proved winnable.

Any registered variant (``patience.all_variants()``): the deal comes from its game's
``deal_from_seed``, the proof from its game's search (``solver_worker.games``). A
variant with calibrated difficulty bands (``solver_worker.rating``) gets its weekday's
band; one without is screened winnable and stored with no band ("not rated").

Safe to run twice or on two workers at once: every maker tries the same
candidates in the same order, and the row is stored by ``actions.do_store_daily``
on the (date, variant) unique constraint, so a second maker gets the first one's
row. The difficulty (the blind player's games, minutes on classic) is a follow-up
(``tasks.rate_daily``, asked for by whoever made the daily) so the daily is
playable as soon as it is proved winnable. This module writes no row itself.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils.module_loading import import_string

import patience
from solver_worker import rating
from solver_worker.driver import Budget
from solver_worker.games import solve_position
from solver_worker.rating import BANDS, Rating

from . import actions
from .boards import is_rated
from .days import candidate_seeds, today
from .models import Daily


class NoWinnableDeal(RuntimeError):
    """No candidate of the day was proved winnable within the budgets: a bug or a budget
    too small, never a case to paper over with an unscreened deal."""


def screen(seed: int, variant: str, budget_s: float, games: int = 0) -> dict[str, Any]:
    """Is the candidate winnable (proved by its game's search within ``budget_s``)?
    With ``games``, also the blind player's difficulty: only for a rated variant,
    through settings.DAILY_SCREENER (the blind players know the rated games only)."""
    if games > 0 and is_rated(variant):
        screener = import_string(settings.DAILY_SCREENER.replace(":", "."))
        return dict(screener({"seed": seed, "variant": variant}, budget_s, games))
    rules = patience.rules_of(variant)
    position = rules.new_game(rules.deal_from_seed(seed), variant)
    result = solve_position(position, Budget(seconds=budget_s))
    return {"variant": variant, "verdict": result.verdict, "winnable": result.verdict == "won",
            "line_length": len(result.line) or None, "nodes": result.nodes,
            "ms": round(result.ms, 1), "difficulty": None}


def daily_variants() -> list[str]:
    """The variants that get a daily: settings.DAILY_VARIANTS when set (a site may run
    fewer), else every registered variant of every game."""
    return list(settings.DAILY_VARIANTS) or [
        variant.slug for _, variant in patience.all_variants()]


# The week ramps like a crossword: Monday easiest, the weekend hardest. The bands
# are the quartiles of each variant's calibration (solver_worker/data/bands.json).
WEEK_BANDS: tuple[tuple[str, ...], ...] = (
    ("easy",),  # Monday
    ("easy", "medium"),
    ("medium",),
    ("medium", "hard"),
    ("hard",),
    ("expert",),  # Saturday
    ("expert",),  # Sunday
)


def wanted_bands(day: date) -> tuple[str, ...]:
    return WEEK_BANDS[day.weekday()]


@dataclass(frozen=True, slots=True)
class Found:
    index: int
    seed: int
    answer: dict[str, Any]
    rating: Rating | None  # None for a variant without bands
    band: str  # "" for a variant without bands


def rate_seed(seed: int, variant: str) -> tuple[Rating, str]:
    """The graded blind players' rating of a candidate and its band (a tenth of a
    second: cheap enough to rate every candidate before screening it). Only for a
    rated variant (is_rated)."""
    rules = patience.rules_of(variant)
    found = rating.rate(rules.new_game(rules.deal_from_seed(seed), variant))
    # Banded as stored and as calibrated: to four decimals.
    return found, rating.band_for(round(found.rate, 4), variant)


def _rate_candidate(seed: int, variant: str) -> tuple[Rating | None, str]:
    """A rated variant's rating and band; (None, "") for a variant without bands, whose
    every candidate is then in the one band wanted (see _wanted)."""
    return rate_seed(seed, variant) if is_rated(variant) else (None, "")


def _wanted(day: date, variant: str) -> tuple[str, ...]:
    return wanted_bands(day) if is_rated(variant) else ("",)


def _distance(band: str, wanted: tuple[str, ...]) -> int:
    if band in wanted:
        return 0
    return min(abs(BANDS.index(band) - BANDS.index(want)) for want in wanted)


Candidate = tuple[int, int, Rating | None, str]  # index, seed, rating, band


def find_winnable(day: date, variant: str, deadline: float | None = None) -> Found | None:
    """The day's first candidate that is in the weekday's band and proved winnable;
    None when the deadline (time.monotonic) cut a screening short. The one candidate
    loop: making a daily and re-screening one both choose through it.

    Each candidate is rated first (cheap) and screened only when in a wanted
    band (the solver's proof is the slow part). After DAILY_BAND_CANDIDATES
    candidates without one, all are taken closest band first, so a day is never
    left without a daily for want of a band (the row's band then differs from
    its wanted_bands). A variant without bands takes its first winnable candidate.
    """
    wanted = _wanted(day, variant)
    first_pass = settings.DAILY_BAND_CANDIDATES
    rated: list[Candidate] = []
    for index, seed in candidate_seeds(day, variant):
        if index >= first_pass:
            break
        found_rating, band = _rate_candidate(seed, variant)
        rated.append((index, seed, found_rating, band))
        note_progress(day, variant, index)  # candidates done before this one (the page's bar)
        if band in wanted:
            answer = _screen_within(seed, variant, deadline)
            if answer is None:
                return None
            if answer.get("winnable"):
                return Found(index, seed, answer, found_rating, band)
    # None in the wanted bands: the closest band first, then the candidate order.
    rated += [(index, seed, *_rate_candidate(seed, variant))
              for index, seed in candidate_seeds(day, variant) if index >= len(rated)]
    tried = {entry[0] for entry in rated if entry[0] < first_pass and entry[3] in wanted}
    rest = sorted((entry for entry in rated if entry[0] not in tried),
                  key=lambda entry: (_distance(entry[3], wanted), entry[0]))
    for looked, (index, seed, found_rating, band) in enumerate(rest, start=len(tried) + 1):
        note_progress(day, variant, min(looked, settings.DAILY_MAX_CANDIDATES))
        answer = _screen_within(seed, variant, deadline)
        if answer is None:
            return None
        if answer.get("winnable"):
            return Found(index, seed, answer, found_rating, band)
    raise NoWinnableDeal(f"no winnable {variant} deal among the candidates of {day}")


def _screen_within(seed: int, variant: str, deadline: float | None) -> dict[str, Any] | None:
    """The screener's answer, or None when the deadline cut it short (undecided only
    for want of time: stop rather than skip a candidate another maker, with the full
    budget, would take)."""
    full = settings.DAILY_SCREEN_BUDGET_SECONDS
    left = math.inf if deadline is None else deadline - time.monotonic()
    if left <= 0:
        return None
    answer = screen(seed, variant, min(full, left))
    if left < full and not answer.get("winnable"):
        return None
    return answer


PROGRESS_KEEP_S = 24 * 60 * 60


def _progress_key(day: date, variant: str) -> str:
    return f"daily-progress:{day.isoformat()}:{variant}"


def note_progress(day: date, variant: str, screened: int) -> None:
    """How many candidates the maker has screened so far (the page's progress): in the
    cache, which the web process shares with the worker (Redis) or the maker thread."""
    cache.set(_progress_key(day, variant), screened, PROGRESS_KEEP_S)


def progress(day: date, variant: str) -> dict[str, Any]:
    """What the page says while the daily is being made; no seed, no card."""
    screened = cache.get(_progress_key(day, variant))
    return {"started": screened is not None, "screened": screened or 0,
            "candidates": settings.DAILY_MAX_CANDIDATES,
            "budget_s": settings.DAILY_SCREEN_BUDGET_SECONDS}


def make_daily(day: date, variant: str, *, deadline_s: float | None = None) -> Daily | None:
    """The day's daily, made if missing; None if ``deadline_s`` ran out first. Whoever
    calls this asks for its follow-up rating (tasks.ask_for_rating)."""
    existing = Daily.objects.filter(date=day, variant=variant).first()
    if existing is not None:
        return existing
    deadline = None if deadline_s is None else time.monotonic() + deadline_s
    found = find_winnable(day, variant, deadline)
    if found is None:
        return None
    daily, _ = actions.do_store_daily(day, variant, daily_fields(day, found))
    return daily


def daily_fields(day: date, found: Found) -> dict[str, Any]:
    """A daily row's deal and rating, from the candidate chosen for it (no rating and
    no band for a variant without bands)."""
    measured = found.rating
    return {
        "seed": found.seed, "candidate": found.index,
        "line_length": found.answer.get("line_length"),
        "rating": None if measured is None else round(measured.rate, 4),
        "rating_games": None if measured is None else measured.games,
        "band": found.band,
        "wanted_bands": "" if measured is None else ",".join(wanted_bands(day)),
    }


def make_dailies(days_ahead: int, variants: list[str] | None = None) -> list[Daily]:
    """Today's dailies and the next ``days_ahead`` days', for each variant."""
    first = today()
    chosen = variants or daily_variants()
    return [
        daily
        for offset in range(days_ahead + 1)
        for variant in chosen
        if (daily := make_daily(first + timedelta(days=offset), variant)) is not None
    ]


def needs_difficulty(daily: Daily) -> bool:
    """A follow-up rating would add something: the site measures difficulty, the
    variant has blind players (is_rated) and this daily has none yet."""
    return (settings.DAILY_DIFFICULTY_GAMES > 0 and daily.difficulty is None
            and is_rated(daily.variant))


# A rating runs up to an hour (tasks.rate_daily's time limit) on the one slow worker:
# the hourly catch-up must not queue it again while it may still be waiting or running.
RATING_RETRY_FIRST_S = 2 * 3600
RATING_RETRY_MAX_S = 24 * 3600


def rating_retry_after(asked: int) -> int:
    """Seconds before a daily asked ``asked`` times may be asked again: 2 h, 4 h, 8 h, ...
    up to a day (a rating lost with its worker, or that found no difficulty)."""
    return min(RATING_RETRY_FIRST_S * 2 ** (asked - 1), RATING_RETRY_MAX_S)


def claim_rating(daily_id: int) -> bool:
    """True once per back-off period for a daily: whoever gets it enqueues the rating
    (cache.add is atomic, so two makers at once enqueue it once)."""
    asked_key = f"daily-rating-asked:{daily_id}"
    asked = int(cache.get(asked_key, 0)) + 1
    if not cache.add(f"daily-rating-wait:{daily_id}", asked, rating_retry_after(asked)):
        return False  # asked already, and not yet long enough ago
    cache.set(asked_key, asked, 30 * 24 * 3600)
    return True


def rate_daily(daily_id: int) -> Daily | None:
    """Play the blind player on the daily and store its difficulty (once)."""
    unrated = Daily.objects.filter(pk=daily_id, rating__isnull=True).first()
    if unrated is not None and is_rated(unrated.variant):  # made before the rating existed
        found, band = rate_seed(unrated.seed, unrated.variant)
        actions.do_store_rating(daily_id, found.rate, found.games, band)
    daily = Daily.objects.filter(pk=daily_id, difficulty__isnull=True).first()
    if daily is None or not is_rated(daily.variant):
        return None
    answer = screen(daily.seed, daily.variant, settings.DAILY_SCREEN_BUDGET_SECONDS,
                    settings.DAILY_DIFFICULTY_GAMES)
    if answer.get("difficulty") is None:
        return None
    actions.do_store_difficulty(daily_id, answer["difficulty"], answer.get("sampling_win_rate"))
    return Daily.objects.get(pk=daily_id)
