"""The Docker layer runs only from its own command, scripts/test-compose (CI runs it after
the README's test command: .ci/run): it builds the image and starts the whole stack, from
minutes to over half an hour on two cores (docs/figures.md), which the README's test
command should not cost every run."""

from __future__ import annotations

import os

collect_ignore_glob = [] if os.environ.get("TOMB_COMPOSE_TEST") == "1" else ["test_*.py"]
