"""How soon the board is usable: the site on the embedded default as `scripts/run`
serves it (one uvicorn process, SQLite, in-memory layer, static files collected:
hashed, brotli and gzip), loaded N times in headless Chromium.

Prints, per load, the time from navigation start to the page marking itself
ready (table drawn, input enabled: body[data-ready], its time in data-ready-ms)
for a new visitor and for the same visitor reloading, then medians and maxima,
the bytes a new visitor's load moved over the wire (compressed) and decoded, and
the bytes of all the site's JavaScript and CSS before compression.

    python bench/board.py [--loads 10]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tombsite.test_settings")  # the fixtures read it

import django  # noqa: E402

django.setup()
from tests.browser.conftest import CHROMIUM, OUTPUT, Site  # noqa: E402


def static_bytes() -> dict[str, int]:
    static = ROOT / "frontend" / "static"
    return {str(path.relative_to(static)): path.stat().st_size
            for path in sorted(static.rglob("*")) if path.suffix in (".js", ".css")}


def ready_ms(page: object) -> float:
    page.wait_for_selector("body[data-ready='1']")  # type: ignore[attr-defined]
    return float(page.get_attribute("body", "data-ready-ms"))  # type: ignore[attr-defined]


def collect_static(site: Site, into: Path) -> None:
    """What scripts/run does before it serves: the production storage's output."""
    site.env["STATIC_ROOT"] = str(into)
    site.manage("collectstatic", "--noinput", "-v", "0")


def page_weight(page: object, base_url: str) -> tuple[int, int]:
    """A new visitor's load of the play page: bytes over the wire, bytes decoded."""
    loaded: list[object] = []
    page.on("requestfinished", lambda request: loaded.append(request))  # type: ignore[attr-defined]
    page.goto("/")  # type: ignore[attr-defined]
    ready_ms(page)
    page.wait_for_load_state("networkidle")  # type: ignore[attr-defined]
    wire = decoded = 0
    for request in loaded:
        if not request.url.startswith(base_url):  # type: ignore[attr-defined]
            continue
        sizes = request.sizes()  # type: ignore[attr-defined]
        wire += sizes["responseBodySize"]
        response = request.response()  # type: ignore[attr-defined]
        decoded += len(response.body()) if response else 0
    return wire, decoded


def measure(base_url: str, loads: int) -> tuple[list[float], list[float]]:
    """Per load: a new visitor (a game is dealt), then the same visitor back (resumed)."""
    from playwright.sync_api import sync_playwright

    fresh, back = [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--no-sandbox", "--disable-gpu"])
        for load in range(loads):
            # A fresh context each time: a new visitor, nothing cached.
            context = browser.new_context(base_url=base_url)
            page = context.new_page()
            page.goto("/")
            fresh.append(ready_ms(page))
            page.reload()
            back.append(ready_ms(page))
            print(f"load {load + 1}: usable after {fresh[-1]:.0f} ms new visitor, "
                  f"{back[-1]:.0f} ms returning", flush=True)
            context.close()
        browser.close()
    return fresh, back


def weigh(base_url: str) -> tuple[int, int]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--no-sandbox", "--disable-gpu"])
        context = browser.new_context(base_url=base_url)
        try:
            return page_weight(context.new_page(), base_url)
        finally:
            browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=10)
    parser.add_argument("--while-making-dailies", action="store_true",
                        help="leave the site's start-up maker on: the board is timed while "
                             "the same process screens today's and tomorrow's dailies")
    args = parser.parse_args()
    OUTPUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as workdir:
        # The board needs no daily: by default the site makes none, so the figure is the
        # board's own; --while-making-dailies shows a fresh site's first minutes.
        making = "true" if args.while_making_dailies else "false"
        site = Site(Path(workdir), DAILY_PREPARE_AT_START=making)
        collect_static(site, Path(workdir) / "static")
        site.start(wait_for_dailies=args.while_making_dailies)
        try:
            measure(site.base_url, 1)  # warm the server (first imports, first game)
            fresh, back = measure(site.base_url, args.loads)
            wire, decoded = weigh(site.base_url)
        finally:
            site.stop()
    print(f"play page, new visitor: {wire} bytes over the wire, {decoded} decoded "
          f"({wire / max(decoded, 1):.0%})")
    sizes = static_bytes()
    for name, times in (("new visitor (a game is dealt)", fresh),
                        ("returning (the game resumed)", back)):
        print(f"board usable, {name}: median {statistics.median(times):.0f} ms, "
              f"max {max(times):.0f} ms over {len(times)} loads")
    print(f"JS+CSS: {sum(sizes.values())} bytes in {len(sizes)} files "
          + ", ".join(f"{name} {size}" for name, size in sizes.items()))


if __name__ == "__main__":
    main()
