"""Builds the engine's optional compiled core, ``rummy.engine._native`` (docs/engine.md, "Backends").

Everything else about the package is in pyproject.toml.  The core is optional: where no C compiler (or no
Python headers) is found, the build prints a warning and the install goes on; the engine then runs its
Python backend, which is the reference the compiled one is held identical to.
"""

from __future__ import annotations

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# Warnings are errors on the project's own C (only these sources get the flags).
COMPILE_ARGS = ["-std=c11", "-O2", "-Wall", "-Wextra", "-Werror"]


class OptionalBuildExt(build_ext):
    """Build the compiled core if a compiler is there; warn and go on without it otherwise."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # the compiler missing or failing: setuptools raises several kinds
            self._skip(error)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:
            self._skip(error)

    @staticmethod
    def _skip(error: Exception) -> None:
        print(f"WARNING: the compiled core rummy.engine._native was not built ({error}); the engine will run "
              "its Python backend. Install a C compiler and the Python headers (Debian: gcc python3-dev) and "
              "reinstall to build it.", file=sys.stderr)


setup(
    ext_modules=[
        Extension(
            "rummy.engine._native",
            sources=["src/rummy/engine/_native_src/lay_down.c",
                     "src/rummy/engine/_native_src/best_lay_down.c",
                     "src/rummy/engine/_native_src/best_rules.c",
                     "src/rummy/engine/_native_src/best_dead_naturals.c",
                     "src/rummy/engine/_native_src/best_groups.c",
                     "src/rummy/engine/_native_src/best_runs.c",
                     "src/rummy/engine/_native_src/best_full_runs.c",
                     "src/rummy/engine/_native_src/best_assemble.c",
                     "src/rummy/engine/_native_src/best_contract.c",
                     "src/rummy/engine/_native_src/spare_search.c",
                     "src/rummy/engine/_native_src/spare_builds.c",
                     "src/rummy/engine/_native_src/rearrangements.c",
                     "src/rummy/engine/_native_src/table_plays.c"],
            depends=["src/rummy/engine/_native_src/core.h", "src/rummy/engine/_native_src/best.h",
                     "src/rummy/engine/_native_src/spare.h"],
            extra_compile_args=COMPILE_ARGS,
            optional=True,
        ),
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
