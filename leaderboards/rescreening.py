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

from . import actions, dailies, tasks
from .days import today
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
        made = tasks.make_and_rate(day, variant)
        assert made is not None  # no deadline: it is made or NoWinnableDeal is raised
        return Outcome(variant, "made", f"had no daily; made candidate {made.candidate}")
    if reseed:
        return replace_unplayed(daily, "reseeded from the current DAILY_SECRET")
    answer = dailies.screen(daily.seed, variant, budget_s)
    if answer.get("winnable"):
        actions.do_note_line(daily.pk, answer.get("line_length"))
        return Outcome(variant, "kept", f"still proved winnable (line of "
                                        f"{answer.get('line_length')} moves)")
    verdict = str(answer.get("verdict", "unknown"))
    return replace_unplayed(daily, f"no longer proved winnable ({verdict})")


def replace_unplayed(daily: Daily, why: str) -> Outcome:
    """Choose the day's deal again as making it does (its weekday's band, proved winnable,
    from the current secret); the deal that failed is screened again and passed over."""
    # Only a day still ahead can change: from its first minute players start games on
    # the deal (ranked or not) from a row read before any lock here could stop them.
    if daily.date <= today():
        return Outcome(daily.variant, "refused",
                       f"{why} but {daily.date} is open or past: left as it is")
    played = daily.attempts.count()
    if played:
        return Outcome(daily.variant, "refused",
                       f"{why} but already has {played} attempt(s): left as it is")
    found = dailies.find_winnable(daily.date, daily.variant)
    assert found is not None  # no deadline: found, or NoWinnableDeal is raised
    try:
        actions.do_replace_daily(daily.pk, dailies.daily_fields(daily.date, found))
    except actions.Played:
        return Outcome(daily.variant, "refused", "an attempt started meanwhile: left as it is")
    tasks.ask_for_rating(Daily.objects.get(pk=daily.pk))
    return Outcome(daily.variant, "replaced",
                   f"candidate {daily.candidate}: {why}; now candidate {found.index} "
                   f"({found.band or 'not rated'})")
