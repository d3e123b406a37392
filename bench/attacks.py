"""How long each attack takes to be refused or held, on a real stack of its own
(uvicorn behind this script as its trusted proxy, PostgreSQL, Redis, a Celery worker).

    python bench/attacks.py [--runs 3] [--issue 11|25]

Issue 11's attacks are the ones tests/service/test_attacks.py plays and asserts; issue
25's (the scout on another address, the first pass, the paced line, on a worker that
runs the fair-play judge) are test_attacks_fair_play.py's. This prints the median time
from an attack's first request to the answer that refuses it (or to its result seen
held), per attack, and the last run's details.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from service import attacks, attacks_fair_play  # noqa: E402
from service.stack import started_stack  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh stacks, one run each")
    parser.add_argument("--issue", choices=("11", "25"), default="11")
    args = parser.parse_args()
    module, env = ((attacks, attacks.ATTACK_ENV) if args.issue == "11"
                   else (attacks_fair_play, attacks_fair_play.FAIR_PLAY_ENV))
    times: dict[str, list[float]] = {}
    refused: dict[str, bool] = {}
    details: dict[str, str] = {}
    for _ in range(args.runs):
        log_dir = Path(tempfile.mkdtemp(prefix="tomb-attacks-"))
        with started_stack(log_dir, env, dailies=True) as stack:
            for attack in module.every_attack(stack):
                outcome = attack()
                times.setdefault(outcome.attack, []).append(outcome.seconds * 1000)
                refused[outcome.attack] = refused.get(outcome.attack, True) and outcome.refused
                details[outcome.attack] = outcome.detail
    print(f"{'attack':56} {'refused':>8} {'median ms':>10}  (runs: {args.runs})")
    for name, values in times.items():
        print(f"{name:56} {'yes' if refused[name] else 'NO':>8} {statistics.median(values):10.1f}"
              f"  {details[name]}")
    return 0 if all(refused.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
