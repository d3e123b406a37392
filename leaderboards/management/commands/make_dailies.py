"""manage.py make_dailies --days N: what the beat job does, by hand (safe to repeat)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from leaderboards import actions, tasks


class Command(BaseCommand):
    help = "Make today's daily deals and the next N days' (screened by the solver)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=settings.DAILY_DAYS_AHEAD,
                            help="days ahead of today (default: DAILY_DAYS_AHEAD)")
        parser.add_argument("--variant", action="append", dest="variants",
                            help="a variant slug of any game (repeat; default: DAILY_VARIANTS, "
                                 "or every registered variant)")

    def handle(self, *args: Any, days: int, variants: list[str] | None, **options: Any) -> None:
        if days < 0:
            raise CommandError("--days counts days ahead of today: 0 or more")
        try:
            slugs = [actions.check_variant(slug).slug for slug in variants or []] or None
        except actions.ActionError as error:
            raise CommandError(error.message) from error
        made = tasks.make_and_rate_ahead(days, slugs)
        for daily in made:
            rated = "not rated" if daily.rating is None else (
                f"{daily.band} (rating {daily.rating} over {daily.rating_games} games"
                f"{'; closest band to ' + daily.wanted_bands if daily.band_fell_back else ''})")
            self.stdout.write(f"{daily.date} {daily.variant}: candidate {daily.candidate}, {rated}")
