"""Builds the engine's optional compiled core, ``rummy.engine._native`` (docs/engine.md, "Backends").

Everything else about the package is in pyproject.toml.  The core is optional: where no C compiler (or no
Python headers) is found, the build prints a warning and the install goes on; the engine then runs its
Python backend, which is the reference the compiled one is held identical to.
"""

from __future__ import annotations

import sys
from glob import glob

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
            sources=sorted(glob("src/rummy/engine/_native_src/*.c")),
            depends=sorted(glob("src/rummy/engine/_native_src/*.h")),
            extra_compile_args=COMPILE_ARGS,
            optional=True,
        ),
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
