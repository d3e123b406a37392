"""Build the Tomb's first compiled core, the second search that checks the book's losses.

    python bench/first_core.py OUT.so [--commit 0d9ede3] [--forgetting-table]

The first core is ``solver_worker/_core.c`` as it stood at ``--commit`` (by default
0d9ede3: before the relaxed-verdict cache and the wider rule 5), read from git and
compiled with the flags setup.py uses. ``bench/solver.py --ab OUT.so --ab-old-only``
then runs it on the deals this checkout's core called lost.

``--forgetting-table`` splices today's transposition table into it (the code from
``table_init`` to the dead test, whose full table forgets its least costly entries
where the first one ceased to remember) and nothing else: the first core's search,
its pruning rules and its dead test stay its own. A long check then no longer
re-searches the same subtrees once its table is full. The table's forgetting is
checked on its own (tests/solver/test_soundness.py, a 1-MB table against a roomy one).
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TODAYS_CORE = ROOT / "solver_worker" / "games" / "tomb" / "_core.c"
FIRST_CORE_PATH = "solver_worker/_core.c"
FIRST_COMMIT = "0d9ede3"  # before the relaxed-verdict cache and the wider rule 5
SHARED_OBJECT_FLAGS = ["-shared", "-fPIC"]
TABLE_START = "static int table_init"
TABLE_END = "/* ---- the dead-position test"
# The first core's search adds failed states without their effort; today's table
# takes the node count of the failed subtree.
NO_EFFORT = "table_add(&c->failed, &key);"
WITH_EFFORT = "table_add(&c->failed, &key, c->nodes - before);"
LOOKUP = "    if (table_has(&c->failed, &key)) return 0;\n    tick(c);"
LOOKUP_COUNTING = ("    if (table_has(&c->failed, &key)) return 0;\n"
                   "    long long before = c->nodes;\n    tick(c);")


def first_core_source(commit: str) -> str:
    return subprocess.run(["git", "show", f"{commit}:{FIRST_CORE_PATH}"], cwd=ROOT,
                          check=True, capture_output=True, text=True).stdout


def section(source: str, what: str) -> tuple[int, int]:
    start, end = source.find(TABLE_START), source.find(TABLE_END)
    if start < 0 or end < start:
        raise SystemExit(f"{what}: no table section between {TABLE_START!r} and {TABLE_END!r}")
    return start, end


def with_forgetting_table(first: str) -> str:
    """The first core with today's table code in place of its own."""
    today = TODAYS_CORE.read_text(encoding="utf-8")
    first_start, first_end = section(first, "the first core")
    today_start, today_end = section(today, "today's core")
    spliced = first[:first_start] + today[today_start:today_end] + first[first_end:]
    if spliced.count(LOOKUP) != 1 or NO_EFFORT not in spliced:
        raise SystemExit("the first core's search does not read as expected: not spliced")
    return spliced.replace(LOOKUP, LOOKUP_COUNTING).replace(NO_EFFORT, WITH_EFFORT)


def setup_flags(setup_py: Path = ROOT / "setup.py") -> list[str]:
    """setup.py's ``FLAGS``, read from its text: importing setup.py would run setup()."""
    tree = ast.parse(setup_py.read_text(encoding="utf-8"))
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id == "FLAGS"):
            try:
                flags = ast.literal_eval(node.value)
            except ValueError:  # not a literal: nothing to read without running setup.py
                break
            if isinstance(flags, list) and all(isinstance(flag, str) for flag in flags):
                return flags
    raise SystemExit("setup.py names no FLAGS list of strings: cannot build as it does")


def compile_core(source: str, out: Path) -> None:
    with tempfile.TemporaryDirectory() as work:
        c_file = Path(work) / "_core.c"
        c_file.write_text(source, encoding="utf-8")
        include = sysconfig.get_paths()["include"]
        compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
        subprocess.run([compiler, *setup_flags(), *SHARED_OBJECT_FLAGS, f"-I{include}",
                        str(c_file), "-o", str(out)], check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path, help="the shared object to write")
    parser.add_argument("--commit", default=FIRST_COMMIT)
    parser.add_argument("--forgetting-table", action="store_true")
    args = parser.parse_args(argv)
    source = first_core_source(args.commit)
    if args.forgetting_table:
        source = with_forgetting_table(source)
    compile_core(source, args.out)
    print(f"{args.out}: the first core of {args.commit}"
          + (" with today's forgetting table" if args.forgetting_table else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
