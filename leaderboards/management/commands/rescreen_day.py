"""manage.py rescreen_day YYYY-MM-DD [--variant V]: check a day's dailies with the solver again.

Kept while still proved winnable; replaced by the next winnable candidate when
not and nobody has played it; refused (exit status 1) when it was played.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from leaderboards import actions
from leaderboards.dailies import NoWinnableDeal, daily_variants
from leaderboards.days import parse_day
from leaderboards.rescreening import rescreen_day


class Command(BaseCommand):
    help = "Re-screen a day's daily deals; replace one no longer proved winnable if unplayed."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("day", help="the UTC day, YYYY-MM-DD")
        parser.add_argument("--variant", action="append", dest="variants",
                            help="a variant slug of any game (repeat; default: every "
                                 "variant that gets a daily)")
        parser.add_argument("--budget", type=float,
                            default=settings.DAILY_SCREEN_BUDGET_SECONDS,
                            help="solver seconds per deal (default: DAILY_SCREEN_BUDGET_SECONDS)")
        parser.add_argument("--reseed", action="store_true",
                            help="after rotating DAILY_SECRET: replace an unplayed day ahead "
                                 "with the current secret's first winnable candidate")

    def handle(self, *args: Any, day: str, variants: list[str] | None, budget: float,
               reseed: bool, **options: Any) -> None:
        try:
            when = parse_day(day)
            slugs = [actions.check_variant(slug).slug for slug in variants or daily_variants()]
        except ValueError as error:
            raise CommandError(f"bad day: {error}") from error
        except actions.ActionError as error:
            raise CommandError(f"bad variant: {error.message}") from error
        if budget <= 0:
            raise CommandError("--budget is a number of seconds above 0")
        refused = [outcome for outcome in (self.one(when, slug, budget, reseed) for slug in slugs)
                   if not outcome]
        if refused:
            raise CommandError(f"{len(refused)} daily(ies) of {when} could not be re-screened")

    def one(self, day: Any, variant: str, budget: float, reseed: bool) -> bool:
        try:
            outcome = rescreen_day(day, variant, budget, reseed=reseed)
        except NoWinnableDeal as error:
            self.stderr.write(f"{day} {variant}: {error}")
            return False
        stream = self.stdout if outcome.ok else self.stderr
        stream.write(f"{day} {variant}: {outcome.verdict}: {outcome.detail}")
        return outcome.ok
