"""The daily page on a fresh site while today's deal is still being made.

Starts the site as the README's run command does (one uvicorn process, embedded
default, a new SQLite file): at start-up its background maker begins screening
today's dailies. Meanwhile asks each variant's daily page (/<game>/<variant>/daily/)
N times each (a visitor's first visit) and prints the median and maximum answer times of the
answers that said "being prepared", then how long each daily took to be ready.

    python bench/daily_page.py [--requests 20] [--wait 600]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from patience import rules_of  # noqa: E402
from tests.browser.conftest import OUTPUT, Site  # noqa: E402

VARIANTS = ("three-card", "classic")
# The maker takes its jobs in this order: classic first keeps the 3-card daily (quick
# to prove) waiting behind it, so both pages are measured while being prepared.
MAKING_ORDER = "classic,three-card"


def page_of(variant: str) -> str:
    """The variant's daily page, under its game (the old /daily/<variant>/ redirects)."""
    return f"/{rules_of(variant).slug}/{variant}/daily/"


def ask(client: httpx.Client, variant: str) -> tuple[float, bool]:
    """One first visit: (ms, whether the page said the deal is being prepared)."""
    client.cookies.clear()
    started = time.perf_counter()
    response = client.get(page_of(variant))
    ms = (time.perf_counter() - started) * 1000
    assert response.status_code == 200, response.status_code
    return ms, "being prepared" in response.text


def ready(client: httpx.Client, variant: str) -> bool:
    return client.get(f"/api/daily/{variant}/").status_code == 200


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=20, help="per variant")
    parser.add_argument("--wait", type=float, default=600, help="seconds to wait for the deals")
    args = parser.parse_args()
    OUTPUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as workdir:
        site = Site(Path(workdir), DAILY_VARIANTS=MAKING_ORDER)
        began = time.monotonic()
        site.start(wait_for_dailies=False)
        up = time.monotonic()
        try:
            with httpx.Client(base_url=site.base_url, timeout=30) as client:
                report(client, args.requests, args.wait, up - began)
        finally:
            site.stop()


def report(client: httpx.Client, requests: int, wait: float, start_s: float) -> None:
    print(f"site answering {start_s:.1f} s after launch (migrate + uvicorn start)")
    answers = {variant: [ask(client, variant) for _ in range(requests)] for variant in VARIANTS}
    for variant, timed in answers.items():
        waiting = [ms for ms, preparing in timed if preparing]
        shown = (f"median {statistics.median(waiting):.1f} ms, max {max(waiting):.1f} ms"
                 if waiting else "none (the deal was ready)")
        print(f"GET /daily/{variant}/ while being prepared: {len(waiting)} of {len(timed)}"
              f" answers; {shown}")
    started = time.monotonic()
    for variant in VARIANTS:
        while not ready(client, variant) and time.monotonic() - started < wait:
            time.sleep(0.5)
        done = ready(client, variant)
        print(f"{variant} daily ready {'after' if done else 'not within'} "
              f"{time.monotonic() - started + start_s:.1f} s from launch")
        if done:
            ms = statistics.median(ask(client, variant)[0] for _ in range(requests))
            print(f"GET /daily/{variant}/ once ready: median {ms:.1f} ms")


if __name__ == "__main__":
    main()
