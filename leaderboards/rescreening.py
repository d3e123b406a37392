"""Re-screening a stored daily (``manage.py rescreen_day``): keep it while the solver still
proves it winnable; otherwise replace it with the day's next winnable candidate, but only
for a day still ahead that nobody has played.

A daily that was played stays, whatever the solver says now: its attempts,
board and share texts are about that deal, and changing it under them would
rewrite results. The command then reports the day so an admin can decide.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import partial

from django.db import transaction

from . import dailies
from .days import candidate_seeds, today
from .models import Daily


@dataclass(frozen=True)
class Outcome:
    variant: str
    verdict: str  # "kept", "replaced", "made", "refused"
    detail: str

    @property
    def ok(self) -> bool:
        return self.verdict != "refused"


def rescreen_day(day: date, variant: str, budget_s: float, *, reseed: bool = False) -> Outcome:
    """``reseed``: after DAILY_SECRET was rotated, replace an unplayed day ahead with the
    first winnable candidate of the current secret, even if its deal is still winnable."""
    daily = Daily.objects.filter(date=day, variant=variant).first()
    if daily is None:
        made = dailies.make_daily(day, variant)
        assert made is not None  # no deadline: it is made or NoWinnableDeal is raised
        return Outcome(variant, "made", f"had no daily; made candidate {made.candidate}")
    if reseed:
        return replace_unplayed(daily, budget_s, "reseeded from the current DAILY_SECRET",
                                after=-1)
    answer = dailies.screen(daily.seed, variant, budget_s)
    if answer.get("winnable"):
        Daily.objects.filter(pk=daily.pk).update(line_length=answer.get("line_length"))
        return Outcome(variant, "kept", f"still proved winnable (line of "
                                        f"{answer.get('line_length')} moves)")
    verdict = str(answer.get("verdict", "unknown"))
    return replace_unplayed(daily, budget_s, f"no longer proved winnable ({verdict})",
                            after=daily.candidate)


def replace_unplayed(daily: Daily, budget_s: float, why: str, *, after: int) -> Outcome:
    # Only a day still ahead can change: from its first minute players start games on
    # the deal (ranked or not) from a row read before any lock here could stop them.
    if daily.date <= today():
        return Outcome(daily.variant, "refused",
                       f"{why} but {daily.date} is open or past: left as it is")
    played = daily.attempts.count()
    if played:
        return Outcome(daily.variant, "refused",
                       f"{why} but already has {played} attempt(s): left as it is")
    index, seed, answer = next_winnable(daily.date, daily.variant, after, budget_s)
    with transaction.atomic():
        # Locked and checked again: an attempt made meanwhile keeps the day as it is.
        locked = Daily.objects.select_for_update().get(pk=daily.pk)
        if locked.attempts.exists():
            return Outcome(daily.variant, "refused", "an attempt started meanwhile: left as it is")
        Daily.objects.filter(pk=daily.pk).update(
            seed=seed, candidate=index, line_length=answer.get("line_length"),
            difficulty=None, sampling_win_rate=None,
        )
        transaction.on_commit(partial(dailies.ask_for_rating, daily.pk))
    return Outcome(daily.variant, "replaced",
                   f"candidate {daily.candidate}: {why}; now candidate {index}")


def next_winnable(day: date, variant: str, after: int, budget_s: float
                  ) -> tuple[int, int, dict[str, object]]:
    """The first candidate past ``after`` the solver proves winnable."""
    for index, seed in candidate_seeds(day, variant):
        if index <= after:
            continue
        answer = dailies.screen(seed, variant, budget_s)
        if answer.get("winnable"):
            return index, seed, answer
    raise dailies.NoWinnableDeal(f"no winnable {variant} candidate of {day} after {after}")
