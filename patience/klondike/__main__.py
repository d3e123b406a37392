"""Command line: ``python -m patience.klondike deal N`` and ``... play``."""

from .cli import main

raise SystemExit(main())
