"""Runs a plan: provision → iperf baseline → load → each thread count with telemetry → store.

One job per module:

- :mod:`~ycsbctl.experiment.run`: :func:`run_plan` — host claim, the result folder's life cycle, signals
- :mod:`~ycsbctl.experiment.sweep`: the loop over targets, workloads, thread counts and repetitions,
  with crash restarts and skips
- :mod:`~ycsbctl.experiment.points`: one point — dataset check, engine inside telemetry, judge, keep, tell
- :mod:`~ycsbctl.experiment.judge`: a point's status and reason; :mod:`~ycsbctl.experiment.dataset`: records present?
- :mod:`~ycsbctl.experiment.standin`: the MongoDB stand-in policy; :mod:`~ycsbctl.experiment.naming`: ids,
  workload names and properties
- :mod:`~ycsbctl.experiment.servers`, :mod:`~ycsbctl.experiment.store` and :mod:`ycsbctl.engine.contract`:
  the three seams a sweep is given (provisioner, result store, engine)
- :mod:`~ycsbctl.experiment.console`: what the user reads; :mod:`~ycsbctl.experiment.outcome`: how it ended

Everything we start is stopped on any exit (Ctrl-C and SIGTERM included); every finished point
is kept before the next starts; the folder is renamed into place when the plan ends.
"""

from ycsbctl.experiment.outcome import Outcome
from ycsbctl.experiment.run import run_plan

__all__ = ["Outcome", "run_plan"]
