"""Django's makemessages, knowing the project's own markers and what not to scan.

The board's modules mark strings with tomb/i18n.js's t(), tn(), tnf() and tc() (short, and
Django's JavaScriptCatalog behind them); xgettext learns those names here. Tests, benchmarks
and documents hold no user-facing text, and their sample strings must not become msgids.
A catalog made new (its header still gettext's template, marked fuzzy) gets its language
filled in; Django has already copied the language's Plural-Forms into it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.commands import makemessages

# xgettext keywords of tomb/i18n.js: t(msgid), tn(singular, plural, n), tnf(singular, plural,
# n, values), tc(context, msgid).
JS_KEYWORDS = ["--keyword=t", "--keyword=tn:1,2", "--keyword=tnf:1,2", "--keyword=tc:1c,2"]
NOT_SCANNED = ["tests/*", "bench/*", "docs/*", "test-output/*", "staticfiles/*", "*.egg-info/*"]
TEMPLATE_HEADER = re.compile(r'\A(?P<comments>(?:#[^\n]*\n)*?)#, fuzzy\nmsgid ""\n')


def fill_new_header(path: Path, language: str) -> bool:
    """gettext's template header -> this project's; False when the header was filled already."""
    text = path.read_text(encoding="utf-8")
    if not TEMPLATE_HEADER.match(text):
        return False
    text = TEMPLATE_HEADER.sub(lambda match: match["comments"] + 'msgid ""\n', text, count=1)
    replacements = {
        "Project-Id-Version": "napoleons-tomb", "Language": language,
        "Language-Team": dict(settings.LANGUAGES).get(language, language),
        "Last-Translator": "Napoleon's Tomb translators",
    }
    for field, value in replacements.items():
        text = re.sub(rf'^"{field}: [^\n]*\\n"$', f'"{field}: {value}\\\\n"', text, count=1,
                      flags=re.MULTILINE)
    path.write_text(text, encoding="utf-8")
    return True


class Command(makemessages.Command):
    def handle(self, *args: Any, **options: Any) -> None:
        options["ignore_patterns"] = [*(options.get("ignore_patterns") or []), *NOT_SCANNED]
        domain = options.get("domain") or "django"
        if domain == "djangojs":
            self.xgettext_options = [*self.xgettext_options, *JS_KEYWORDS]
        super().handle(*args, **options)
        for folder in settings.LOCALE_PATHS:
            for catalog in sorted(Path(folder).glob(f"*/LC_MESSAGES/{domain}.po")):
                if fill_new_header(catalog, catalog.parent.parent.name):
                    self.stdout.write(f"filled in the new header of {catalog}")
