"""The dailies a month would get: ``python bench/daily_month.py --start 2026-11-02 --days 30``.

Runs the real selection (``leaderboards.dailies.find_winnable``: rate each
candidate, screen with the solver those in the weekday's band) with a test
secret, writes nothing, and prints one line per day and variant: date,
weekday, wanted bands, chosen band, rating, candidate index, and whether the
careful player wins it. ``--budget-s`` caps the solver per candidate.
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ["DJANGO_SETTINGS_MODULE"] = "tombsite.test_settings"


def main() -> int:
    import django

    django.setup()
    from django.conf import settings

    from leaderboards import dailies
    from patience.tomb import Position, Status, deal_from_seed, get_variant
    from solver_worker.players import careful_move, play_out

    parser = argparse.ArgumentParser(prog="python bench/daily_month.py")
    parser.add_argument("--start", type=date.fromisoformat, default=date(2026, 11, 2))
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--variant", action="append", dest="variants")
    parser.add_argument("--budget-s", type=float, default=10.0)
    parser.add_argument("--secret", default="a test secret for the sample month")
    args = parser.parse_args()
    settings.DAILY_SECRET = args.secret
    settings.DAILY_SCREEN_BUDGET_SECONDS = args.budget_s
    print("| date | weekday | variant | wanted | band | rating (wins/games) | candidate "
          "| careful player |")
    print("|---|---|---|---|---|---|---|---|")
    for offset in range(args.days):
        day = args.start + timedelta(days=offset)
        for variant in args.variants or ["three-card", "classic"]:
            found = dailies.find_winnable(day, variant)
            assert found is not None
            position = Position(deal_from_seed(found.seed), get_variant(variant))
            play_out(position, careful_move)
            careful = "wins" if position.status is Status.WON else "loses"
            print(f"| {day} | {day:%a} | {variant} | {'/'.join(dailies.wanted_bands(day))} "
                  f"| {found.band} | {found.rating.rate:.3f} ({found.rating.wins}/"
                  f"{found.rating.games}) | {found.index} | {careful} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
