"""``python -m ycsbctl``: the same command line as the ``ycsbctl`` script."""

from ycsbctl.cli import main

if __name__ == "__main__":
    main(prog_name="ycsbctl")
