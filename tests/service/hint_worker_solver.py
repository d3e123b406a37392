"""A hint solver for the worker-loss test: its first call hangs (the test kills the worker
meanwhile), every later call asks the real solver at once.

Set as HINT_SOLVER ("service.hint_worker_solver:hint") with HINT_WORKER_DIR naming a
folder: the first call leaves a file there, which tells the test the hint is mid-flight.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from patience.tomb import Position
from solver_worker.hints import hint as real_hint

HANG_SECONDS = 600.0


def started_marker(folder: str | Path) -> Path:
    return Path(folder) / "hint-started"


def hint(position: Position, budget_s: float) -> dict[str, Any]:
    marker = started_marker(os.environ["HINT_WORKER_DIR"])
    if not marker.exists():
        marker.write_text(str(os.getpid()))
        time.sleep(HANG_SECONDS)
    return real_hint(position, budget_s)
