"""Fair play on the ranked daily: which results are held for an admin's review, and why.

Two reasons, both decided on the server from what it saw itself:

* shared: another account already played the same daily (same variant; other
  variants are a different deal and teach nothing) from the same device (the
  ``tomb_device`` cookie, leaderboards.device) or the same client address.
  The deal of the day is secret, so a second account is the way to learn it.
* pace: the moves came faster than a human can make them.

The human floor. A simple reaction to something seen takes about 200-250 ms
(Woods et al. 2015, "Factors influencing the latency of simple reaction
time", Frontiers in Human Neuroscience 9:131); pointing at a target takes
longer still by Fitts' law (MacKenzie 1992, "Fitts' law as a research and
design tool in human-computer interaction", Human-Computer Interaction 7),
and the Keystroke-Level Model (Card, Moran & Newell 1983, "The Psychology of
Human-Computer Interaction") puts one keystroke at 0.08 s for the best typist
up to 1.2 s, pointing with a mouse at 1.1 s and a mental preparation at
1.35 s. We take 100 ms, under the best typist's keystroke plus any reaction
and far under a reaction to a card just shown: a human cannot sustain it.

The rule only times placements, the moves that put a card somewhere: a move
that shows a new card (a stock turn; the game's ``Rules.reveals`` says which,
read by ``actions.attempts.placed_a_card``) needs no decision, and a held key
repeats some 30 times a second in the browser, so honest keyboard players turn
the stock as fast as the round trip allows. Their intervals are the server's, from the previous
move or undo to this placement; the board sends one action at a time, so a
quick chain of known cards can still arrive at round-trip speed now and then,
which is why the rule looks at the median and not at the fastest move:

* the median interval before a placement is under the floor (more than half
  of the placements came faster than a human's fastest keystroke), judged
  once there are at least PACE_MIN_PLACEMENTS of them; or
* a win took less time than placements x floor (its mean placement beat it).

A paced script evades both; these rules are for the scripts that do not
bother, and the shared-device/address check is for the second account.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils.crypto import salted_hmac

from accounts.network import network_of

PACE_FLOOR_MS = 100
PACE_MIN_PLACEMENTS = 20
DEVICE, ADDRESS, PACE = "device", "address", "pace"
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


def too_fast(intervals: list[int], *, won: bool, time_ms: int) -> bool:
    """The pace rule of the module's docstring."""
    if len(intervals) >= PACE_MIN_PLACEMENTS and statistics.median(intervals) < PACE_FLOOR_MS:
        return True
    return won and bool(intervals) and time_ms < len(intervals) * PACE_FLOOR_MS


def pace_figures(intervals: list[int]) -> dict[str, Any]:
    """What the review queue shows of a game's pace."""
    return {
        "placements": len(intervals),
        "median_ms": round(statistics.median(intervals)) if intervals else None,
        "fastest_ms": sorted(intervals)[:5],
        "under_floor": sum(1 for value in intervals if value < PACE_FLOOR_MS),
        "floor_ms": PACE_FLOOR_MS,
    }


def add_flag(flags: str, reason: str) -> str:
    found = flags.split()
    return flags if reason in found else " ".join([*found, reason])
