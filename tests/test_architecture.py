"""The rules engine is pure: no web framework, task queue or project app in it.

``patience`` (every game's rules) is shared by the site, the solver worker and the command
line, so it must import nothing from Django, Celery, Channels or Django REST
framework, nor from the project's apps (tombsite, leaderboards,
solver_worker, game, accounts). Checked two
ways: statically over every import statement, and by importing the engine in
a fresh interpreter and looking at ``sys.modules``.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
ENGINE = REPO_ROOT / "patience"
FORBIDDEN = ("django", "celery", "channels", "rest_framework", "tombsite", "leaderboards",
             "races", "solver_worker", "game", "accounts")


def engine_modules() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def package_of(path: Path) -> list[str]:
    """``patience.tomb.views`` -> ["patience", "tomb"]: the package a module is in."""
    return list(path.relative_to(REPO_ROOT).with_suffix("").parts[:-1])


def imported_names(path: Path) -> list[str]:
    """Every module an engine file imports, relative imports made absolute."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = package_of(path)
                base = package[: len(package) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            names.append(module)
            # "from game import tombsite" imports game.tombsite.
            names += [f"{module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
            names.append("<dynamic __import__>")
        elif isinstance(node, ast.Attribute) and node.attr == "import_module":
            names.append("<dynamic importlib.import_module>")
    return names


def forbidden(name: str) -> bool:
    if name.startswith("<dynamic"):
        return True
    return name.split(".")[0] in FORBIDDEN


def test_the_check_sees_the_engine_and_its_imports() -> None:
    # Guards against a check that passes because it looked at nothing.
    names = {path.name for path in engine_modules()}
    assert {"__init__.py", "position.py", "deals.py", "views.py", "cli.py"} <= names
    deals_imports = imported_names(ENGINE / "pysol.py")
    assert "pysol_cards.random" in deals_imports
    assert "patience.cards" in deals_imports  # "from .cards import ..." resolved


def test_the_rule_itself() -> None:
    assert forbidden("django.db")
    assert forbidden("rest_framework")
    assert forbidden("game.tombsite")
    assert forbidden("game.views")
    assert forbidden("solver_worker.tasks")
    assert not forbidden("patience.cards")
    assert not forbidden("pysol_cards.random")
    assert not forbidden("json")


def test_no_engine_module_imports_a_framework_or_a_project_app() -> None:
    offenders = {
        str(path.relative_to(REPO_ROOT)): bad
        for path in engine_modules()
        if (bad := [name for name in imported_names(path) if forbidden(name)])
    }
    assert offenders == {}


def test_importing_the_engine_loads_no_framework_or_project_app() -> None:
    code = (
        "import json, sys\n"
        "import patience, patience.tomb.cli\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True,
        timeout=60, check=True,
    )
    loaded = json.loads(result.stdout)
    assert "patience.tomb.position" in loaded  # the import did happen
    assert [name for name in loaded if forbidden(name)] == []
