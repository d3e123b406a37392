"""Run by the integration layer on the real PostgreSQL: N makers of one daily, at one instant.

Each thread screens the day's candidates, then waits at a barrier until every
thread has screened (so each has already found no stored daily), and then all
insert at once: the unique constraint lets one through and get_or_create
hands the others its row. Prints the daily id each thread got, as JSON.

    python -m service.daily_race 2026-12-29 three-card 6
"""

from __future__ import annotations

import json
import sys
import threading
from datetime import date
from typing import Any

import django


def race(day: date, variant: str, makers: int) -> list[Any]:
    from django.db import connection

    from leaderboards import dailies

    barrier = threading.Barrier(makers)
    real_find = dailies.find_winnable

    def find_then_wait(*args: Any, **kwargs: Any) -> Any:
        found = real_find(*args, **kwargs)
        barrier.wait(timeout=60)
        return found

    dailies.find_winnable = find_then_wait  # type: ignore[assignment]
    got: list[Any] = []

    def make() -> None:
        try:
            daily = dailies.make_daily(day, variant)
            got.append(daily.pk if daily else None)
        except Exception as error:  # reported, not raised: the test reads the list
            got.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=make) for _ in range(makers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return got


if __name__ == "__main__":
    django.setup()
    print(json.dumps(race(date.fromisoformat(sys.argv[1]), sys.argv[2], int(sys.argv[3]))))
