"""The static files storage of production images (STATIC_ROOT set, collectstatic run)."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class HashedModulesStorage(CompressedManifestStaticFilesStorage):
    """Content-hashed names, also inside the ES modules' own imports.

    A page loads play.<hash>.js; without this its `import ... from "./board.js"`
    would fetch the unhashed file (a second copy of the module, cached for a
    minute only) instead of the board.<hash>.js the page preloads.
    """

    support_js_module_import_aggregation = True
