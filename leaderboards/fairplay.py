"""Fair play on the ranked daily: which results are held for an admin's review, and why.

The reasons, all decided on the server from what it saw itself:

* shared: another account already played the same daily (same variant; other
  variants are a different deal and teach nothing) from the same device (the
  ``tomb_device`` cookie, leaderboards.device) or the same client address.
  The deal of the day is secret, so a second account is the way to learn it.
* pace: the moves came faster than a human can make them.
* first-pass: the whole stock was turned before the first placement, and the game
  was won (the 3-card deal's redeal then plays a known order: a solver's game).
* clairvoyant: the choices depended on unseen cards (solver_worker.clairvoyance,
  judged when the game ends: actions.reviews).
* scout: linked to an attempt that turned most of its stock and gave up.

The human floor. A simple reaction to something seen takes about 200-250 ms
(Woods et al. 2015, "Factors influencing the latency of simple reaction
time", Frontiers in Human Neuroscience 9:131); pointing at a target takes
longer still by Fitts' law (MacKenzie 1992, "Fitts' law as a research and
design tool in human-computer interaction", Human-Computer Interaction 7),
and the Keystroke-Level Model (Card, Moran & Newell 1983, "The Psychology of
Human-Computer Interaction") puts one keystroke at 0.08 s for the best typist
up to 1.2 s, pointing with a mouse at 1.1 s and a mental preparation at
1.35 s. We take 300 ms a placement (``PLACEMENT_FLOOR_MS``): the best typist's
keystroke after a simple reaction to the card; the project's human-paced players
place at a median of about 1 s, their fastest at 450 ms. Each variant's floors are
measured (solver_worker.clairvoyance.limits, docs/figures.md): the median floor,
and the least time a person needs for a whole win, the 1st percentile over the
blind players' winning lines of their placements at 300 ms and their stock turns
at a held key's repeat.

The rule only times placements, the moves that put a card somewhere: a move
that shows a new card (a stock turn; the game's ``Rules.reveals`` says which,
read by ``actions.attempts.placed_a_card``) needs no decision, and a held key
repeats some 30 times a second in the browser, so honest keyboard players turn
the stock as fast as the round trip allows. Their intervals are the server's, from the previous
move or undo to this placement; the board sends one action at a time, so a
quick chain of known cards can still arrive at round-trip speed now and then,
which is why the rule looks at the median and not at the fastest move:

* the median interval before a placement is under the variant's floor (more than
  half of the placements came faster than a person's fastest), judged once there
  are at least PACE_MIN_PLACEMENTS of them; or
* a win took less time than placements x floor (its mean placement beat it); or
* a win took less time than the variant's whole-game floor.

A script paced above the floors passes these: the clairvoyance judge and the scout
links are for it.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils.crypto import salted_hmac

from accounts.network import network_of
from patience import Status, rules_of
from solver_worker.clairvoyance import Limits, limits
from solver_worker.games import blind_of_variant, has_blind

PACE_MIN_PLACEMENTS = 20
DEVICE, ADDRESS, PACE = "device", "address", "pace"
FIRST_PASS, CLAIRVOYANT, SCOUT = "first-pass", "clairvoyant", "scout"
# A scout: turned at least this share of its stock with at most SCOUT_PLACEMENTS
# placements, then gave up (lost, or no move for SCOUT_IDLE_S while playing).
SCOUT_STOCK_SHARE = 0.75
SCOUT_PLACEMENTS = 3
SCOUT_IDLE_S = 10 * 60
# A winner who started within this long after a scout's last move is linked by timing.
SCOUT_WINDOW_S = 2 * 60 * 60
_SALT = "leaderboards.fairplay"


def keyed_hash(kind: str, value: str) -> str:
    """HMAC-SHA256 keyed from SECRET_KEY: the stored hash cannot be reversed to an
    address by trying the 2^32 of them without that key. Empty stays empty."""
    if not value:
        return ""
    return salted_hmac(f"{_SALT}.{kind}", value, algorithm="sha256").hexdigest()


@dataclass(frozen=True)
class Client:
    """Where a ranked start came from: the device cookie's id and the client address."""

    device: str = ""
    address: str = ""

    def device_hash(self) -> str:
        return keyed_hash(DEVICE, self.device)

    def address_hash(self) -> str:
        return keyed_hash(ADDRESS, self.address)


def client_of(request: Any) -> Client:
    """The request's device (set by leaderboards.device.DeviceCookieMiddleware) and
    REMOTE_ADDR: behind a trusted proxy uvicorn's --proxy-headers (with
    FORWARDED_ALLOW_IPS) puts the real client there; X-Forwarded-For itself is
    never read here, since anyone can send it."""
    return Client(device=getattr(request, "device_id", "") or "",
                  address=network_of(request.META.get("REMOTE_ADDR", "") or ""))


def same_client(device_hash: str, address_hash: str) -> Q | None:
    """Attempts from this device or this address (an empty hash matches nothing)."""
    found = [Q(**{field: value}) for field, value in
             (("device_hash", device_hash), ("address_hash", address_hash)) if value]
    if not found:
        return None
    query = found[0]
    for more in found[1:]:
        query |= more
    return query


def shared_reasons(device_hash: str, address_hash: str, others: list[tuple[str, str]]) -> list[str]:
    """Which of this start's hashes another account's attempt on the daily shares."""
    reasons = []
    if device_hash and any(device == device_hash for device, _ in others):
        reasons.append(DEVICE)
    if address_hash and any(address == address_hash for _, address in others):
        reasons.append(ADDRESS)
    return reasons


# -- pace ---------------------------------------------------------------------

def parse_intervals(text: str) -> list[int]:
    return [int(part) for part in text.split()]


def too_fast(intervals: list[int], *, won: bool, time_ms: int, variant: str) -> bool:
    """The pace rule of the module's docstring, with the variant's measured floors."""
    floor = limits(variant)
    if len(intervals) >= PACE_MIN_PLACEMENTS and statistics.median(intervals) < floor.median_ms:
        return True
    if not won:
        return False
    return (bool(intervals) and time_ms < len(intervals) * floor.median_ms) or \
        time_ms < floor.win_ms


def pace_figures(intervals: list[int], variant: str) -> dict[str, Any]:
    """What the review queue shows of a game's pace."""
    floor: Limits = limits(variant)
    return {
        "placements": len(intervals),
        "median_ms": round(statistics.median(intervals)) if intervals else None,
        "fastest_ms": sorted(intervals)[:5],
        "under_floor": sum(1 for value in intervals if value < floor.median_ms),
        "floor_ms": floor.median_ms,
        "win_floor_ms": floor.win_ms,
    }


# -- what the stock showed: the first pass and the scouts -------------------------------

def from_the_start(position: Any) -> Any:
    """A copy of ``position`` taken back to its deal (the engine's own undo)."""
    start = position.copy()
    while start.moves:
        start.undo()
    return start


def stock_facts(position: Any) -> dict[str, Any]:
    """What the game's line did with its stock: the share of it turned (the most shown
    at once), the placements made, and whether the whole stock order was known before
    the first placement (every card turned, or all but the last, which the others
    name). Replays the line, so call it once a game (at its end)."""
    rules = rules_of(position.variant.slug)
    walk = from_the_start(position)
    stock = rules.visible_view(walk)["stock_count"]
    lowest, placements, through_first = stock, 0, False
    for move in list(position.moves):
        placing = not rules.reveals(walk, move)
        if placing and placements == 0:
            through_first = stock > 0 and (lowest == 0 or _order_known(walk))
        placements += placing
        walk.apply(move)
        lowest = min(lowest, rules.visible_view(walk)["stock_count"])
    return {"stock": stock, "turned_share": round((stock - lowest) / stock, 3) if stock else 0,
            "placements": placements, "whole_stock_first": through_first}


def _order_known(position: Any) -> bool:
    """The player knows the unseen stock's order from what it saw (the game's blind
    knowledge says; a game without any knows it only once the stock is empty)."""
    slug = position.variant.slug
    return has_blind(slug) and blind_of_variant(slug).known_order(position) is not None


def turned_whole_stock_first(position: Any) -> bool:
    """A won game whose stock ran out before its first placement (the first-pass rule)."""
    return position.status is Status.WON and bool(stock_facts(position)["whole_stock_first"])


def scout_signal(facts: dict[str, Any], *, gave_up: bool) -> bool:
    """Most of the stock seen, hardly a card placed, then given up: a scout's game."""
    return gave_up and facts["turned_share"] >= SCOUT_STOCK_SHARE and \
        facts["placements"] <= SCOUT_PLACEMENTS


def add_flag(flags: str, reason: str) -> str:
    found = flags.split()
    return flags if reason in found else " ".join([*found, reason])
