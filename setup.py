"""Builds the compiled search cores (the Tomb's, Klondike's, the two-deck Tomb's and
St. Helena's); everything else is in pyproject.toml."""

from setuptools import Extension, setup

FLAGS = ["-O2", "-std=c11", "-Wall", "-Wextra"]
# What every core includes: a change rebuilds them.
COMMON = ["solver_worker/games/core_common.h"]

setup(
    ext_modules=[
        Extension("solver_worker.games.tomb._core",
                  sources=["solver_worker/games/tomb/_core.c"], extra_compile_args=FLAGS,
                  depends=COMMON),
        Extension("solver_worker.games.klondike._core",
                  sources=["solver_worker/games/klondike/_core.c"], extra_compile_args=FLAGS,
                  depends=COMMON),
        Extension("solver_worker.games.twodeck._core",
                  sources=["solver_worker/games/twodeck/_core.c"], extra_compile_args=FLAGS,
                  depends=COMMON),
        Extension("solver_worker.games.sthelena._core",
                  sources=["solver_worker/games/sthelena/_core.c"], extra_compile_args=FLAGS,
                  depends=COMMON),
    ]
)
