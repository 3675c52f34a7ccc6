"""The compiled per-operation core (``ycsbctl._native``, one C file); everything else is in
pyproject.toml. ``optional=True``: where it cannot be built (no C compiler), the install goes on and
ycsbctl runs its pure-Python twin, saying so in one warning line (see ycsbctl/native.py)."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("ycsbctl._native", ["ycsbctl/_native.c"], extra_compile_args=["-O2"], optional=True)])
