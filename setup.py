"""Build script: compiles the Cython search core (``src/barbu_dd/_core.pyx``)."""

from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension(
        "barbu_dd._core",
        ["src/barbu_dd/_core.pyx"],
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
