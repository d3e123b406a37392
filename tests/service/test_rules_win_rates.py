"""The proved win rates on the rules pages (issue 18): every figure of the shipped
``solver_worker/data/win_rates.json`` reaches the page, read here straight from the file
so the test fails if the page ignores it; undecided deals show as a range; a row without
a random sample or players renders; the loader reads the file once, typed."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, Decimal
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from game import win_rates
from patience import game_named
from patience.protocol import Published
from solver_worker import winrates

from .conftest import Browser

pytestmark = pytest.mark.django_db

FILE = Path(winrates.__file__).with_name("data") / "win_rates.json"
DASH = "\u2013"  # the en dash between a range's ends
def page_of(game: str) -> str:
    return f"/{game}/rules/"


def shipped_rows() -> list[dict[str, Any]]:
    return list(json.loads(FILE.read_text(encoding="utf-8"))["rows"])


def block_of(page: str, variant: str) -> str:
    """The HTML of one variant's win-rate block."""
    start = page.index(f'id="win-rates-{variant}"')
    end = page.find('class="win-rates"', start + 1)
    return page[start:] if end < 0 else page[start:end]


def cells(block: str, heading: str) -> list[str]:
    """The cells of a solver table's row, by its row heading, as text."""
    found = re.search(rf'<th scope="row">{re.escape(heading)}</th>(.*?)</tr>', block, re.S)
    assert found, heading
    return [re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<td>(.*?)</td>", found.group(1), re.S)]


def published_of(game: str, variant: str) -> list[Published]:
    guide = game_named(game).guide
    return [figure for figure in guide.published if figure.variant == variant] if guide else []


def tenth(fraction: float, rounding: str) -> str:
    value = (Decimal(str(fraction)) * 100).quantize(Decimal("0.1"), rounding=rounding)
    return f"{value:f}".removesuffix(".0")


def count(number: int) -> str:
    return f"{number:,}"


@pytest.mark.parametrize("row", shipped_rows(), ids=lambda row: row["variant"])
def test_every_row_of_the_file_is_on_its_game_s_rules_page(alice: Browser, row: Any) -> None:
    page = alice.get(page_of(row["game"])).content.decode()
    block = block_of(page, row["variant"])
    runs = [run for run in (row["range"], row["sample"]) if run is not None]

    published = published_of(row["game"], row["variant"])
    assert block.count("<caption>") == 1 + bool(row["players"]) + bool(published)
    for heading, key in (("Deals played", "count"), ("Won", "won"),
                         ("Proved lost", "lost"), ("Undecided", "unknown")):
        assert cells(block, heading) == [count(run[key]) for run in runs], heading
    rates = cells(block, "Can be won")
    for run, shown in zip(runs, rates, strict=True):
        low, high = run["won_range"]
        if run["unknown"]:
            assert shown == f"{tenth(low, ROUND_FLOOR)}{DASH}{tenth(high, ROUND_CEILING)}%"
        else:
            assert shown == f"{tenth(low, ROUND_HALF_EVEN)}%"
    assert cells(block, "95% interval") == [
        f"{tenth(run['ci95'][0], ROUND_FLOOR)}{DASH}{tenth(run['ci95'][1], ROUND_CEILING)}%"
        for run in runs]
    # From the first run's budget up to the longest re-run's on the deals left undecided.
    assert cells(block, "Time allowed a deal") == [
        f"{run['budget_s']:g}{DASH}{max(run['rerun_budgets_s']):g} s"
        if max(run.get("rerun_budgets_s") or [0]) > run["budget_s"] else f"{run['budget_s']:g} s"
        for run in runs]
    for player in row["players"]:
        assert f"{count(player['won'])} won of {count(player['count'])}" in block
        assert f"<strong>{tenth(player['rate'], ROUND_HALF_EVEN)}%</strong>" in block
    # Players read figures, not command lines: those stay in docs/figures.md.
    for command in [run["command"] for run in runs] + [p["command"] for p in row["players"]]:
        assert command not in block
    assert "own solver and its players" in block


def test_the_faq_quotes_no_figure_of_its_own(alice: Browser) -> None:
    page = alice.get("/rules/").content.decode()
    faq = page[page.index('id="faq"'):page.index('id="win-rates-')]

    assert "shown as a range" in faq and "never hidden" in faq
    for stale in ("1,929", "471", "2,178", "217 undecided", "90.7%"):
        assert stale not in faq, stale


def test_the_numbers_follow_the_language(alice: Browser) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    page = client.get("/rules/").content.decode()
    three_card = next(row for row in shipped_rows() if row["variant"] == "three-card")

    grouped = f"{three_card['range']['count']:,}".replace(",", "\xa0")
    assert f"<td>{grouped}</td>" in block_of(page, "three-card")


CRAFTED = {"rows": [
    {"game": "napoleons-tomb", "variant": "three-card", "note": "a key nobody reads",
     "range": {"deals": "1-300", "count": 300, "won": 270, "lost": 0, "unknown": 30,
               "won_range": [0.9, 1.0], "ci95": [0.861, 1.0], "budget_s": 0.5,
               "command": "python -m solver_worker.solve --deals 1-300"},
     "sample": None, "players": []},
    {"game": "napoleons-tomb", "variant": "no-such-variant",
     "range": {"deals": "random", "count": 10, "won": 5, "lost": 5, "unknown": 0,
               "won_range": [0.5, 0.5], "ci95": [0.23, 0.77], "budget_s": 1,
               "command": "python -m solver_worker.solve --sample 10"},
     "sample": None,
     "players": [{"player": "nobody-yet", "count": 10, "won": 1, "rate": 0.1,
                  "ci95": [0.01, 0.4], "command": "python -m solver_worker.play"}]},
]}


@pytest.fixture
def crafted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(winrates, "_shipped", lambda: tuple(winrates.parse(CRAFTED)))


def test_undecided_deals_make_a_range_and_a_missing_sample_or_player_is_fine(
        alice: Browser, crafted: None) -> None:
    response = alice.get("/rules/")
    page = response.content.decode()
    block = block_of(page, "three-card")

    assert response.status_code == 200
    assert cells(block, "Can be won") == [f"90{DASH}100%"]
    assert cells(block, "Undecided") == ["30"]
    assert f"Deals 1{DASH}300" in block and "Random deals" not in block
    assert "No player who cannot see the stock has been measured" in block


def test_a_variant_or_player_the_site_does_not_name_keeps_its_slug(
        alice: Browser, crafted: None) -> None:
    block = block_of(alice.get("/rules/").content.decode(), "no-such-variant")

    assert "No-such-variant" in block and "Random deals" in block
    assert cells(block, "Can be won") == ["50%"]
    assert '<th scope="row">nobody-yet</th>' in block and "1 won of 10" in block


def test_a_game_with_no_row_shows_no_table(alice: Browser, crafted: None) -> None:
    page = alice.get("/st-helena/rules/").content.decode()
    assert 'id="win-rates"' not in page and "win-rate" not in page


@pytest.mark.parametrize("row", [row for row in shipped_rows()
                                 if published_of(row["game"], row["variant"])],
                         ids=lambda row: row["variant"])
def test_figures_published_elsewhere_stand_beside_the_site_s_and_say_if_they_meet(
        alice: Browser, row: Any) -> None:
    block = block_of(alice.get(page_of(row["game"])).content.decode(), row["variant"])
    ours = (row["sample"] or row["range"])["ci95"]
    for figure in published_of(row["game"], row["variant"]):
        shown = re.search(rf'<th scope="row">{re.escape(figure.source)}</th><td>'
                          rf'{re.escape(figure.what)}</td><td class="figure">(.*?)</td>'
                          r'<td>(.*?)</td>',
                          block.replace("&#x27;", "'"))
        assert shown, figure
        ends = [Decimal(str(value)) for value in (figure.low, figure.high)]
        places = max(-int(end.as_tuple().exponent) for end in ends)
        low, high = (f"{end:.{places}f}" for end in ends)
        assert shown.group(1) == f"{low}{DASH}{high}%"
        verdict = re.sub(r"<[^>]+>", "", shown.group(2))
        if not figure.sees_all:
            assert verdict.startswith("Blind play")
        elif ours[0] * 100 <= figure.high and figure.low <= ours[1] * 100:
            assert verdict == "Yes: the intervals overlap"
        else:
            assert verdict == "No: the intervals do not overlap"


def test_a_published_figure_far_from_the_site_s_says_no(
        alice: Browser, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = game_named("klondike")
    far = Published("turn-3", "A made-up source", "Made up", 10.0, 12.0)
    near = Published("turn-3", "Another source", "Also made up", 1.0, 99.0)
    monkeypatch.setattr(type(rules), "guide", replace(rules.guide, published=(far, near)))
    block = block_of(alice.get("/klondike/rules/").content.decode(), "turn-3")
    assert block.count("No: the intervals do not overlap") == 1
    assert block.count("Yes: the intervals overlap") == 1
    assert win_rates._published(far, (0.8, 0.85))["meets"] is False
    assert win_rates._published(near, (0.8, 0.85))["meets"] is True
    assert win_rates._published(far, None)["meets"] is None


# -- the loader and the rounding ------------------------------------------------------


def test_the_shipped_file_loads_typed_and_once() -> None:
    rows = winrates.load()

    assert [(row.game, row.variant) for row in rows] == [
        (row["game"], row["variant"]) for row in shipped_rows()]
    assert winrates._shipped() is winrates._shipped()
    first = rows[0].range
    assert first is not None and first.numbered is not None


def test_a_missing_file_or_named_key_fails_loudly(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        winrates.read(tmp_path / "win_rates.json")
    broken = json.loads(json.dumps(CRAFTED))
    del broken["rows"][0]["range"]["won"]
    with pytest.raises(KeyError):
        winrates.parse(broken)


def test_intervals_round_outward_and_a_rate_is_never_rounded_to_certainty() -> None:
    assert win_rates._interval((0.99984, 1.0)) == {"low": Decimal("99.9"),
                                                   "high": Decimal("100.0")}
    assert win_rates._interval((0.1234, 0.5671)) == {"low": Decimal("12.3"),
                                                     "high": Decimal("56.8")}
    assert win_rates._point(0.99999) == Decimal("99.9")
    assert win_rates._point(0.00001) == Decimal("0.1")
    assert win_rates._point(1.0) == Decimal("100.0")
    assert win_rates._point(0.2544) == Decimal("25.4")
