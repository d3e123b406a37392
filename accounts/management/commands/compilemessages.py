"""Django's compilemessages, compiling the project's catalogs only.

Run from the project's root it would also walk the virtualenv (.venv) and recompile every
installed package's catalogs; hidden folders and build output are not the project's.
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands import compilemessages

NOT_THE_PROJECTS = [".*", "*.egg-info", "node_modules", "staticfiles"]


class Command(compilemessages.Command):
    def handle(self, **options: Any) -> None:
        options["ignore_patterns"] = [*(options.get("ignore_patterns") or []),
                                      *NOT_THE_PROJECTS]
        super().handle(**options)
