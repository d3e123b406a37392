"""Command line: ``python -m game.engine deal N`` and ``... play``."""

from .cli import main

raise SystemExit(main())
