"""manage.py forget_addresses: what the nightly beat job does, by hand (safe to repeat)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from leaderboards import actions


class Command(BaseCommand):
    help = ("Blank the client-address hashes of ranked attempts older than the retention "
            "(ATTEMPT_ADDRESS_RETENTION_DAYS).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=settings.ATTEMPT_ADDRESS_RETENTION_DAYS,
                            help="keep this many days (default: ATTEMPT_ADDRESS_RETENTION_DAYS)")

    def handle(self, *args: Any, days: int, **options: Any) -> None:
        if days < 0:
            raise CommandError("--days is how many days to keep: 0 or more")
        count = actions.do_forget_addresses(days)
        self.stdout.write(f"{count} address hash(es) older than {days} days blanked")
