"""Build script: compiles the Cython search cores (``src/barbu_dd/_core.pyx`` and
``_dominoes.pyx``)."""

import platform

from Cython.Build import cythonize
from setuptools import Extension, setup

# Hardware popcount (every x86-64 CPU since about 2008): the search counts bits at
# every node, and without it GCC calls a library routine.
ARGS = ["-O3"] + (["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else [])

extensions = [
    Extension(
        "barbu_dd._core",
        ["src/barbu_dd/_core.pyx"],
        extra_compile_args=ARGS,
    ),
    Extension(
        "barbu_dd._dominoes",
        ["src/barbu_dd/_dominoes.pyx"],
        extra_compile_args=ARGS,
    ),
]

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
