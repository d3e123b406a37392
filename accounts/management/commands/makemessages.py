"""Django's makemessages, knowing the project's own markers and what not to scan.

The board's modules mark strings with tomb/i18n.js's t(), tn(), tnf() and tc() (short, and Django's
JavaScriptCatalog behind them); xgettext learns those names here. Tests, benchmarks and
documents hold no user-facing text, and their sample strings must not become msgids.
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands import makemessages

# xgettext keywords of tomb/i18n.js: t(msgid), tn(singular, plural, n), tnf(singular, plural,
# n, values), tc(context, msgid).
JS_KEYWORDS = ["--keyword=t", "--keyword=tn:1,2", "--keyword=tnf:1,2", "--keyword=tc:1c,2"]
NOT_SCANNED = ["tests/*", "bench/*", "docs/*", "test-output/*", "staticfiles/*", "*.egg-info/*"]


class Command(makemessages.Command):
    def handle(self, *args: Any, **options: Any) -> None:
        options["ignore_patterns"] = [*(options.get("ignore_patterns") or []), *NOT_SCANNED]
        if options.get("domain") == "djangojs":
            self.xgettext_options = [*self.xgettext_options, *JS_KEYWORDS]
        super().handle(*args, **options)
