"""Builds the Tomb's compiled search core; everything else is in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "solver_worker.games.tomb._core",
            sources=["solver_worker/games/tomb/_core.c"],
            extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wextra"],
        )
    ]
)
