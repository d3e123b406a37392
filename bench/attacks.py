"""How long each of issue 11's attacks takes to be refused, on a real stack of its own
(uvicorn behind this script as its trusted proxy, PostgreSQL, Redis, a Celery worker).

    python bench/attacks.py [--runs 3]

Each attack is the one tests/service/test_attacks.py plays and asserts; this prints the
median time from an attack's first request to the answer that refuses it, per attack.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from service import attacks  # noqa: E402
from service.stack import started_stack  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh stacks, one run each")
    runs = parser.parse_args().runs
    times: dict[str, list[float]] = {}
    refused: dict[str, bool] = {}
    for _ in range(runs):
        log_dir = Path(tempfile.mkdtemp(prefix="tomb-attacks-"))
        with started_stack(log_dir, attacks.ATTACK_ENV, dailies=True) as stack:
            for attack in attacks.every_attack(stack):
                outcome = attack()
                times.setdefault(outcome.attack, []).append(outcome.seconds * 1000)
                refused[outcome.attack] = refused.get(outcome.attack, True) and outcome.refused
    print(f"{'attack':48} {'refused':>8} {'median ms':>10}  (runs: {runs})")
    for name, values in times.items():
        print(f"{name:48} {'yes' if refused[name] else 'NO':>8} {statistics.median(values):10.1f}")
    return 0 if all(refused.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
