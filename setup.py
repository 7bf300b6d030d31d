"""Builds the solver's C core; everything else about the package is in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "app.engine._solver",
            sources=["app/engine/_solver.c"],
            extra_compile_args=["-O2", "-std=c99"],
        )
    ]
)
