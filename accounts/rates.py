"""Rates as the settings write them ("30/minute", "5/hour", DRF's notation), for every
per-player and per-address limit: sign-ups here, hints in game.limits."""

from __future__ import annotations

from dataclasses import dataclass

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: int


def parse_rate(text: str) -> Rate:
    """"30/minute" -> Rate(30, 60); the period by its first letter (s, m, h, d)."""
    count, period = text.split("/")
    return Rate(int(count), PERIODS[period.strip()[0]])
