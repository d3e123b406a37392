"""Command line: ``python -m patience.tomb deal N`` and ``... play``."""

from .cli import main

raise SystemExit(main())
