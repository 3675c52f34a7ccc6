"""Run the benchmarks of ``bench/``: every module, or the ones named.

    .venv/bin/python -m bench                 # all, in name order
    .venv/bin/python -m bench workload_gen    # one (``bench/workload_gen.py``)
    .venv/bin/python -m bench placement --pairs 3   # one, with its own options (after its name)
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def available() -> list[str]:
    """Names of the benchmark modules in ``bench/``."""
    return sorted(m.name for m in pkgutil.iter_modules([str(HERE)]) if not m.name.startswith("_"))


def run(name: str, args: list[str] | None = None) -> int:
    """Import ``bench.<name>`` and call its ``main()`` with ``args`` as its options; its exit code."""
    module = importlib.import_module(f"bench.{name}")
    if not callable(getattr(module, "main", None)):
        print(f"error: bench/{name}.py has no main()", file=sys.stderr)
        return 2
    saved = sys.argv
    sys.argv = [str(HERE / f"{name}.py"), *(args or [])]  # modules that parse arguments see only their own
    try:
        code = module.main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except Exception:  # one broken benchmark does not hide the others
        traceback.print_exc()
        code = 1
    finally:
        sys.argv = saved
    return int(code or 0)


def main(argv: list[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    first_option = next((i for i, a in enumerate(given) if a.startswith("-")), len(given))
    names, options = given[:first_option], given[first_option:]
    if options and len(names) != 1:
        print("error: options go to one benchmark: name it first (python -m bench placement --pairs 3)",
              file=sys.stderr)
        return 2
    known = available()
    unknown = [n for n in names if n not in known]
    if unknown:
        print(f"error: no benchmark {', '.join(unknown)}: use one of {', '.join(known)}", file=sys.stderr)
        return 2
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    failed = []
    for name in names or known:
        print(f"== bench/{name}.py", flush=True)
        t0 = time.perf_counter()
        code = run(name, options)
        print(f"== {name}: {'ok' if code == 0 else f'exit code {code}'} ({time.perf_counter() - t0:.1f} s)\n",
              flush=True)
        if code:
            failed.append(name)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
