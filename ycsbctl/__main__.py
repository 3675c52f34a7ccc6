"""``python -m ycsbctl``: the same command line as the ``ycsbctl`` script."""

from ycsbctl.cli import main

if __name__ == "__main__":
    try:
        main(prog_name="ycsbctl")
    finally:
        # CPython remembers a KeyboardInterrupt that ended a *string* exec or eval (the code a dataclass or a
        # namedtuple generates, when Ctrl-C or SIGTERM lands while a module being imported defines one) even
        # though ycsbctl caught it and said so; under `python -m` it then ends by killing itself with SIGINT
        # (exit -2) instead of with ycsbctl's 130. Every string eval starts by clearing that flag, so this one
        # does; an interrupt that really goes uncaught sets it again after this block (runpy's caller checks).
        eval("None")  # noqa: S307 - a constant string, evaluated for its side effect above
