"""Build script: compiles the Cython search cores (``src/barbu_dd/_core.pyx``, ``_dominoes.pyx``)."""

from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension(
        "barbu_dd._core",
        ["src/barbu_dd/_core.pyx"],
        extra_compile_args=["-O3"],
    ),
    Extension(
        "barbu_dd._dominoes",
        ["src/barbu_dd/_dominoes.pyx"],
        extra_compile_args=["-O3"],
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
