"""Record the win-rate runs and build the table the rules pages show.

    python scripts/make_win_rates.py record -- python -m solver_worker.solve \\
        --variant classic --deals 1-2400 --jobs 2 --budget-s 20 --json
    python scripts/make_win_rates.py record --output FILE -- <the command that printed FILE>
    python scripts/make_win_rates.py build

``record`` runs a ``solver_worker.solve`` or ``solver_worker.play`` command with
``--json`` (or reads the output it already printed, ``--output``) and keeps its
summary with the command in ``docs/runs/``; a solve over a range of deal numbers also
keeps every deal's line, gzipped, in ``solver_worker/data/solved/`` (the book that
hints read); a solve over a random sample keeps every deal's verdict, without its line,
in ``docs/runs/samples/`` (for ``bench/book_rerun.py --book`` to search its unknown
deals again). ``build`` turns the kept runs into ``solver_worker/data/win_rates.json``:
for each variant the solver's rate on deals 1-N, on a random sample, and the blind
players' rates on a random sample, each with the command that measured it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RUNS = ROOT / "docs" / "runs"
SAMPLES = RUNS / "samples"
SOLVED = ROOT / "solver_worker" / "data" / "solved"
TABLE = ROOT / "solver_worker" / "data" / "win_rates.json"
sys.path.insert(0, str(ROOT))

from patience import all_variants  # noqa: E402
from solver_worker.book import verdicts_only, write_book  # noqa: E402

# Each registered variant's game, in the registry's order.
GAME_OF = {variant.slug: rules.slug for rules, variant in all_variants()}
ORDER = list(GAME_OF)


def option(argv: list[str], name: str) -> str | None:
    return argv[argv.index(name) + 1] if name in argv else None


def variant_of(argv: list[str]) -> str:
    return option(argv, "--variant") or "three-card"  # the commands' own default


def run_name(argv: list[str]) -> str:
    """``solve-classic-deals-1-2400``, ``play-careful-three-card-sample-20000``."""
    kind = "solve" if "solver_worker.solve" in argv else "play"
    if kind == "play" and "solver_worker.play" not in argv:
        raise SystemExit("record runs python -m solver_worker.solve or solver_worker.play")
    scope = (f"deals-{option(argv, '--deals')}" if "--deals" in argv
             else f"sample-{option(argv, '--sample')}")
    player = f"{option(argv, '--player') or 'careful'}-" if kind == "play" else ""
    return f"{kind}-{player}{variant_of(argv)}-{scope}"


def output_of(argv: list[str], saved: Path | None) -> list[str]:
    if saved is not None:
        return saved.read_text(encoding="utf-8").splitlines()
    if "--json" not in argv:
        raise SystemExit("record needs the command's --json output")
    done = subprocess.run(argv, cwd=ROOT, check=True, capture_output=True, text=True)
    return done.stdout.splitlines()


def record(argv: list[str], saved: Path | None) -> Path:
    """Keep a run; ``argv`` as typed (``python -m ...``), so the kept command names no path."""
    lines = output_of([sys.executable, *argv[1:]] if argv[0] == "python" else argv, saved)
    summary = json.loads(lines[-1])
    if not summary.get("summary"):
        raise SystemExit("the output's last line is not a summary: was the run cut short?")
    name = run_name(argv)
    RUNS.mkdir(parents=True, exist_ok=True)
    kept = RUNS / f"{name}.json"
    command = " ".join(argv)
    kept.write_text(json.dumps({"command": command, "summary": summary}, indent=1) + "\n")
    if name.startswith("solve-") and "--deals" in argv:
        keep_lines(f"{variant_of(argv)}-{option(argv, '--deals')}", lines)
    elif name.startswith("solve-"):
        keep_sample_verdicts(f"{variant_of(argv)}-sample-{option(argv, '--sample')}", lines)
    return kept


def keep_lines(stem: str, lines: list[str]) -> None:
    """The run's deals in deal order (``--jobs`` prints them as they finish), then its
    summary."""
    SOLVED.mkdir(parents=True, exist_ok=True)
    deals = sorted(map(json.loads, lines[:-1]), key=lambda row: int(row["deal"]))
    write_book(SOLVED / f"{stem}.jsonl.gz", [*deals, json.loads(lines[-1])])


def keep_sample_verdicts(stem: str, lines: list[str]) -> None:
    """A sample's verdicts by deal, without their lines (``docs/runs/samples/``), so that
    ``bench/book_rerun.py --book`` can search its unknown deals again and merge them.
    Its winning lines stay out: each was replayed before the run called it won, and a
    random sample's lines would serve no hint (the book's deals are 1-N)."""
    SAMPLES.mkdir(parents=True, exist_ok=True)
    deals = sorted(map(json.loads, lines[:-1]), key=lambda row: int(row["deal"]))
    write_book(SAMPLES / f"{stem}.jsonl.gz", [*verdicts_only(deals), json.loads(lines[-1])])


def kept_runs() -> list[dict[str, Any]]:
    runs = []
    for path in sorted(RUNS.glob("*.json")):
        run = json.loads(path.read_text())
        run["name"] = path.stem
        runs.append(run)
    return runs


def solver_row(run: dict[str, Any]) -> dict[str, Any]:
    summary, command = run["summary"], run["command"]
    argv = command.split()
    row = {key: summary[key] for key in ("won", "lost", "unknown", "won_range", "ci95")}
    # A book's undecided deals searched again (bench/book_rerun.py): the tally is the
    # merged one, so the page names every command that made it.
    shown = "; then ".join([command, *run.get("reruns", [])])
    row.update(count=summary["deals"], budget_s=float(option(argv, "--budget-s") or 0),
               deals=option(argv, "--deals") or "random", command=shown)
    if run.get("reruns"):
        row["rerun_budgets_s"] = [float(option(rerun.split(), "--budget-s") or 0)
                                  for rerun in run["reruns"]]
    if "--sample" in argv:
        row["seed"] = int(option(argv, "--seed") or 0)
    return row


def player_row(run: dict[str, Any]) -> dict[str, Any]:
    summary = run["summary"]
    return {"player": summary["player"], "count": summary["games"], "won": summary["wins"],
            "rate": summary["win_rate"], "ci95": summary["ci95"], "command": run["command"]}


def build() -> dict[str, Any]:
    rows: dict[str, dict[str, Any]] = {
        variant: {"game": game, "variant": variant, "range": None, "sample": None, "players": []}
        for variant, game in GAME_OF.items()}
    for run in kept_runs():
        argv = run["command"].split()
        row = rows[variant_of(argv)]
        if run["name"].startswith("play-"):
            row["players"].append(player_row(run))
        else:
            row["range" if "--deals" in argv else "sample"] = solver_row(run)
    kept = [rows[variant] for variant in ORDER if rows[variant]["range"] or rows[variant]["sample"]]
    for row in kept:
        row["players"].sort(key=lambda player: -player["rate"])
    return {"rows": kept}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["record", "build"])
    parser.add_argument("--output", type=Path, help="record: the output the command printed")
    own, _, command = " ".join(sys.argv[1:]).partition(" -- ")
    args = parser.parse_args(own.split())
    if args.what == "build":
        TABLE.write_text(json.dumps(build(), indent=1) + "\n")
        print(TABLE.relative_to(ROOT))
        return
    argv = command.split()
    if not argv:
        parser.error("record needs the command after --")
    print(record(argv, args.output).relative_to(ROOT))


if __name__ == "__main__":
    main()
