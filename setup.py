"""Builds the solver's compiled core; everything else is in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "solver_worker._core",
            sources=["solver_worker/_core.c"],
            extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wextra"],
        )
    ]
)
