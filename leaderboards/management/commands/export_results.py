"""manage.py export_results [--variant V] [--from DAY] [--to DAY] [--output FILE]: ranked
daily results as CSV, one row per attempt, oldest day first and each day in board order."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from datetime import date
from typing import IO, Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import QuerySet

from game.models import Status
from leaderboards import actions
from leaderboards.boards import BOARD_ORDER
from leaderboards.days import parse_day
from leaderboards.models import Attempt, Review

COLUMNS = ("date", "variant", "player", "on_boards", "status", "cards_home", "won",
           "assisted", "hints", "seconds", "moves", "undos")


def results(variant: str | None, first: date | None, last: date | None) -> QuerySet[Attempt]:
    rows = Attempt.objects.filter(ranked=True).select_related("daily", "user__standing")
    if variant:
        rows = rows.filter(daily__variant=variant)
    if first:
        rows = rows.filter(daily__date__gte=first)
    if last:
        rows = rows.filter(daily__date__lte=last)
    return rows.order_by("daily__date", "daily__variant", *BOARD_ORDER)


def row(attempt: Attempt) -> list[Any]:
    standing = getattr(attempt.user, "standing", None)
    # Off the boards: an unranked player, or a result held for review.
    hidden = (standing is not None and standing.unranked) or attempt.review == Review.PENDING
    return [
        attempt.daily.date.isoformat(), attempt.daily.variant,
        attempt.user.get_username() if attempt.user else "",
        "no" if hidden else "yes",
        attempt.status, attempt.home, "yes" if attempt.status == Status.WON else "no",
        "yes" if attempt.assisted else "no", attempt.hints,
        f"{attempt.time_ms / 1000:.3f}", attempt.moves, attempt.undos,
    ]


def write(out: IO[str], attempts: Iterator[Attempt]) -> int:
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    count = 0
    for attempt in attempts:
        writer.writerow(row(attempt))
        count += 1
    return count


class Command(BaseCommand):
    help = "Export ranked daily results as CSV (to standard output or --output)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--variant", help="only this variant (default: all)")
        parser.add_argument("--from", dest="first", help="first day, YYYY-MM-DD (inclusive)")
        parser.add_argument("--to", dest="last", help="last day, YYYY-MM-DD (inclusive)")
        parser.add_argument("--output", help="a file to write (default: standard output)")

    def handle(self, *args: Any, variant: str | None, first: str | None, last: str | None,
               output: str | None, **options: Any) -> None:
        slug, start, end = parse_filters(variant, first, last)
        # iterator(): a season's results need not sit in memory at once.
        attempts = results(slug, start, end).iterator(chunk_size=2000)
        if output is None:
            count = write(self.stdout, attempts)
        else:
            with open(output, "w", newline="", encoding="utf-8") as out:
                count = write(out, attempts)
        self.stderr.write(f"{count} result(s) exported")


# Not a method named check: BaseCommand.check() is Django's system-check hook, which
# manage.py calls before handle() (call_command skips it).
def parse_filters(variant: str | None, first: str | None, last: str | None
                  ) -> tuple[str | None, date | None, date | None]:
    try:
        slug = actions.check_variant(variant).slug if variant else None
        start = parse_day(first) if first else None
        end = parse_day(last) if last else None
    except actions.ActionError as error:
        raise CommandError(f"bad variant or day: {error.message}") from error
    except ValueError as error:
        raise CommandError(f"bad variant or day: {error}") from error
    if start and end and start > end:
        raise CommandError("--from comes after --to")
    return slug, start, end
