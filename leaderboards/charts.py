"""Charts drawn on the server as accessible SVG: pure functions from figures to a Chart.

No chart library: a histogram, a bar chart of rates and a line of best times are a few
rectangles and some text. Each chart is an inline ``<svg role="img">`` labelled by its
own ``<title>`` and described by its ``<desc>`` (the desc says in words what the picture shows), and
carries the table of figures it was drawn from, which the page shows under "The
figures". With nothing to draw, a chart is a sentence (``empty``), never empty axes.

Every text that enters the SVG is escaped here; the table goes through the template's
own escaping. Colours come from pages.css (classes, which use the --nt-* palette), and
the viewBox lets the picture scale to the width of a phone.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html import escape

from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

# The drawing's own units; the page scales it to its width (viewBox).
# 18-unit text on a 420-unit width reads at about 15 px in a phone's 350 px column.
WIDTH, HEIGHT = 420, 240
LEFT, RIGHT, TOP, BOTTOM = 64, 30, 32, 52
PLOT_W, PLOT_H = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
MAX_BINS = 12
# Bin widths a reader can add up in their head: seconds and minutes, or plain counts.
TIME_STEPS_MS = tuple(s * 1000 for s in (5, 10, 15, 20, 30, 60, 120, 300, 600, 900, 1800,
                                          3600, 7200, 14400, 43200, 86400))
COUNT_STEPS = (1, 2, 4, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000)

Formatter = Callable[[int], str]


@dataclass(frozen=True)
class Table:
    """The figures behind a chart, as the page shows them: a caption, heads, rows."""

    caption: str
    heads: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Chart:
    ident: str
    title: str
    desc: str
    svg: SafeString | None  # None when there is nothing to draw: then `empty` says so
    table: Table | None
    empty: str | None = None


@dataclass(frozen=True)
class Bin:
    low: int  # inclusive
    high: int  # exclusive
    count: int
    mine: bool = False


@dataclass(frozen=True)
class Scale:
    """What a histogram counts: how a value reads, and the widths a bin may take."""

    noun: str | Promise  # "time", "moves", "cards home" (translated when drawn)
    format: Formatter
    steps: Sequence[int] = field(default=COUNT_STEPS)
    # How a better figure is said, a whole phrase for the translators: "faster than
    # %(percent)s%% of them".
    beats: str | Promise = "fewer than %(percent)s%% of them"
    higher_is_better: bool = False
    whole: bool = True  # counts: a bin 8 to 11 holds 8, 9, 10 and 11


def clock(ms: int) -> str:
    """4:12, or 1:04:12 past an hour (as boards.clock; repeated to keep this module pure)."""
    minutes, seconds = divmod(ms // 1000, 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


def plain(value: int) -> str:
    """A count as the language writes numbers (1 234 in Russian and Finnish)."""
    return number_format(value, use_l10n=True, force_grouping=True)


def percent(part: int, whole: int) -> int:
    return round(100 * part / whole) if whole else 0


# -- histograms --------------------------------------------------------------------

def bins_of(values: Sequence[int], steps: Sequence[int], mine: int | None = None) -> list[Bin]:
    """Equal bins of the narrowest listed width that needs no more than MAX_BINS,
    starting at a multiple of the width; the bin holding ``mine`` is marked."""
    if not values:
        return []
    low, high = min(values), max(values)
    if mine is not None:
        low, high = min(low, mine), max(high, mine)
    width = next((step for step in steps if high // step - low // step < MAX_BINS), 0)
    if not width:  # beyond the listed widths: stretch the last
        width = math.ceil((high - low + 1) / MAX_BINS)
    start = low // width * width
    counts = [0] * (high // width - low // width + 1)
    for value in values:
        counts[(value - start) // width] += 1
    mine_at = None if mine is None else (mine - start) // width
    return [Bin(start + i * width, start + (i + 1) * width, count, i == mine_at)
            for i, count in enumerate(counts)]


def bin_label(item: Bin, scale: Scale) -> str:
    last = item.high - 1 if scale.whole else item.high
    if last == item.low:
        return scale.format(item.low)
    return gettext("%(low)s to %(high)s") % {"low": scale.format(item.low),
                                              "high": scale.format(last)}


def histogram(ident: str, title: str, values: Sequence[int], scale: Scale, *,
              mine: int | None = None, mine_words: str = "", empty: str) -> Chart:
    """How many players fall in each bin of ``values``; ``mine`` (the reader's own
    figure) marks its bin and is said in the text alternative."""
    if not values:
        return Chart(ident, title, empty, None, None, empty)
    bins = bins_of(values, scale.steps, mine)
    tallest = max(item.count for item in bins)
    players = len(values)
    noun = str(scale.noun)
    desc = ngettext("%(players)s player, %(noun)s from %(low)s to %(high)s; the largest "
                    "group, %(tallest)s, at %(at)s.",
                    "%(players)s players, %(noun)s from %(low)s to %(high)s; the largest "
                    "group, %(tallest)s, at %(at)s.", players) % {
        "players": players, "noun": noun, "low": scale.format(min(values)),
        "high": scale.format(max(values)), "tallest": tallest,
        "at": bin_label(max(bins, key=lambda b: b.count), scale)}
    mine_words = mine_words or gettext("Yours")
    if mine is not None:
        better = sum(1 for value in values
                     if (value < mine if scale.higher_is_better else value > mine))
        desc += " " + gettext("%(whose)s: %(value)s, %(beats)s.") % {
            "whose": mine_words, "value": scale.format(mine),
            "beats": str(scale.beats) % {"percent": percent(better, players)}}
    slot = PLOT_W / len(bins)
    parts = [_axis_y(tallest, plain)]
    for index, item in enumerate(bins):
        x = LEFT + index * slot
        height = PLOT_H * item.count / tallest
        parts.append(
            f'<rect class="bar{" mine" if item.mine else ""}" x="{x + 1.5:.1f}" '
            f'y="{TOP + PLOT_H - height:.1f}" width="{max(slot - 3, 1):.1f}" '
            f'height="{height:.1f}" data-count="{item.count}"/>')
    # Tick labels under the first, middle and last bins' lower edges: few enough to read
    # on a phone; the table has every bin.
    for index in sorted({0, len(bins) // 2, len(bins)}):
        value = bins[0].low + index * (bins[0].high - bins[0].low)
        parts.append(_text(LEFT + index * slot, HEIGHT - BOTTOM + 22, scale.format(value),
                           "tick", "middle"))
    parts.append(_text(LEFT + PLOT_W / 2, HEIGHT - 6, noun, "axis", "middle"))
    marked = next((i for i, item in enumerate(bins) if item.mine), None)
    if marked is not None and mine is not None:
        width = bins[0].high - bins[0].low
        x = LEFT + (marked + (mine - bins[marked].low + 0.5) / width) * slot
        parts.append(f'<line class="mark" x1="{x:.1f}" x2="{x:.1f}" y1="{TOP - 4}" '
                     f'y2="{TOP + PLOT_H}"/>')
        anchor = "start" if x < LEFT + PLOT_W / 2 else "end"
        shift = 5 if anchor == "start" else -5
        parts.append(_text(x + shift, TOP - 8, gettext("%(whose)s: %(value)s") % {
            "whose": mine_words, "value": scale.format(mine)}, "mark-label", anchor))
    table = Table(
        caption=title,
        heads=(noun.capitalize(), gettext("Players")),
        rows=tuple((bin_label(item, scale) + (" " + gettext("(yours)") if item.mine else ""),
                    str(item.count)) for item in bins),
    )
    return Chart(ident, title, desc, _svg(ident, title, desc, parts), table)


# -- over time -----------------------------------------------------------------------

@dataclass(frozen=True)
class Rate:
    label: str  # "week of 3 Mar"
    short: str  # the tick under the bar: "3/3"
    won: int
    played: int


def rate_bars(ident: str, title: str, periods: Sequence[Rate], *, empty: str) -> Chart:
    """Win rate per period, 0 to 100%; a period without a daily has no bar (and says so)."""
    if not any(period.played for period in periods):
        return Chart(ident, title, empty, None, None, empty)
    played = [period for period in periods if period.played]
    won, total = sum(p.won for p in played), sum(p.played for p in played)
    best = max(played, key=lambda p: (percent(p.won, p.played), p.played))
    desc = gettext("%(played)s of the %(periods)s periods with a daily played; %(won)s won "
                   "of %(total)s (%(rate)s%%); the best, %(best)s: %(best_rate)s%%.") % {
        "played": len(played), "periods": len(periods), "won": won, "total": total,
        "rate": percent(won, total), "best": best.label,
        "best_rate": percent(best.won, best.played)}
    slot = PLOT_W / len(periods)
    parts = [_axis_y(100, lambda v: f"{v}%", ticks=(0, 50, 100))]
    for index, period in enumerate(periods):
        x = LEFT + index * slot
        if period.played:
            # A week played and not won still shows a sliver, apart from "no daily".
            height = max(PLOT_H * period.won / period.played, 3)
            parts.append(f'<rect class="bar" x="{x + 2:.1f}" y="{TOP + PLOT_H - height:.1f}" '
                         f'width="{max(slot - 4, 1):.1f}" height="{height:.1f}" '
                         f'data-rate="{percent(period.won, period.played)}"/>')
        else:
            parts.append(_text(x + slot / 2, TOP + PLOT_H - 4, "-", "none", "middle"))
        if index % 2 == 0 or len(periods) <= 6:
            parts.append(_text(x + slot / 2, HEIGHT - BOTTOM + 22, period.short, "tick",
                               "middle"))
    table = Table(caption=title, heads=(gettext("Period"), gettext("Won"), gettext("Played"),
                                        gettext("Win rate")), rows=tuple(
        (p.label, str(p.won), str(p.played),
         f"{percent(p.won, p.played)}%" if p.played else gettext("no daily")) for p in periods))
    return Chart(ident, title, desc, _svg(ident, title, desc, parts), table)


@dataclass(frozen=True)
class Best:
    label: str  # "March 2026"
    short: str  # "Mar"
    ms: int | None  # None: no win that month


def best_line(ident: str, title: str, periods: Sequence[Best], *, empty: str) -> Chart:
    """The best (shortest) winning time per period as points joined by a line; lower is
    faster. A period without a win breaks the line."""
    times = [p.ms for p in periods if p.ms is not None]
    if not times:
        return Chart(ident, title, empty, None, None, empty)
    top = _nice_ceiling(max(times))
    fastest = min((p for p in periods if p.ms is not None), key=lambda p: p.ms or 0)
    desc = gettext("Wins in %(won)s of the %(months)s months; the fastest, %(time)s, in "
                   "%(month)s. Lower is faster.") % {
        "won": len(times), "months": len(periods), "time": clock(fastest.ms or 0),
        "month": fastest.label}
    slot = PLOT_W / len(periods)
    parts = [_axis_y(top, clock, ticks=(0, top // 2, top))]
    segment: list[str] = []
    for index, period in enumerate(periods):
        x = LEFT + index * slot + slot / 2
        if period.ms is None:
            parts.append(_polyline(segment))
            segment = []
        else:
            y = TOP + PLOT_H * (1 - period.ms / top)
            segment.append(f"{x:.1f},{y:.1f}")
            parts.append(f'<circle class="point" cx="{x:.1f}" cy="{y:.1f}" r="5" '
                         f'data-ms="{period.ms}"/>')
        if index % 2 == 0 or len(periods) <= 6:
            parts.append(_text(x, HEIGHT - BOTTOM + 22, period.short, "tick", "middle"))
    parts.insert(1, _polyline(segment))
    table = Table(caption=title, heads=(gettext("Month"), gettext("Best time")), rows=tuple(
        (p.label, gettext("no win") if p.ms is None else clock(p.ms)) for p in periods))
    return Chart(ident, title, desc, _svg(ident, title, desc, parts), table)


# -- drawing -------------------------------------------------------------------------

def _nice_ceiling(value: int) -> int:
    """The next round time above ``value`` (ms): whole half-minutes, minutes, ..."""
    for step in TIME_STEPS_MS:
        if value <= step * 4:
            return math.ceil(value / step) * step
    return value


def _axis_y(top: int, format: Formatter, ticks: Sequence[int] = ()) -> str:
    """The baseline and a few labelled gridlines from 0 to ``top``."""
    ticks = ticks or (0, top)
    lines = [f'<line class="base" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{TOP + PLOT_H}" '
             f'y2="{TOP + PLOT_H}"/>']
    for tick in ticks:
        y = TOP + PLOT_H * (1 - tick / top) if top else TOP + PLOT_H
        if tick:
            lines.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" '
                         f'y2="{y:.1f}"/>')
        lines.append(_text(LEFT - 6, y + 5, format(tick), "tick", "end"))
    return "".join(lines)


def _polyline(points: list[str]) -> str:
    if len(points) < 2:
        return ""
    return f'<polyline class="line" points="{" ".join(points)}"/>'


def _text(x: float, y: float, words: str, kind: str, anchor: str) -> str:
    return (f'<text class="{kind}" x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}">'
            f"{escape(words)}</text>")


def _svg(ident: str, title: str, desc: str, parts: list[str]) -> SafeString:
    ident = escape(ident)
    # Every text above went through escape(); the numbers are formatted here.
    return mark_safe(
        f'<svg class="chart-svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{ident}-title" aria-describedby="{ident}-desc" '
        f'preserveAspectRatio="xMidYMid meet">'
        f'<title id="{ident}-title">{escape(title)}</title>'
        f'<desc id="{ident}-desc">{escape(desc)}</desc>'
        + "".join(parts) + "</svg>")
