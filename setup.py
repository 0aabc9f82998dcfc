"""The compiled core, engine/_core.pyx, built by Cython; everything else is in pyproject.toml.

The extension is optional: where it cannot be compiled (no C compiler), the install goes on and
the engine runs its pure-Python code.
"""

from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        [Extension("tavli.engine._core", ["engine/_core.pyx"], optional=True)],
        compiler_directives={"language_level": 3},
    )
)
