"""The plan as data, and running it: provision → iperf baseline → load → each thread count with
telemetry → result folder.

One job per module:

- :mod:`~ycsbctl.experiment.plan`: the plan (targets, workloads, thread ladder, rates, profile) as data
- :mod:`~ycsbctl.experiment.resolve`: the plan checked and resolved once — the one place that reads property
  files, builds workloads and names targets — into a :mod:`~ycsbctl.experiment.study` of frozen values
  (targets, cases, cells, and points with their run ids), which everything below is handed whole
- :mod:`~ycsbctl.experiment.run`: :func:`run_plan` — host claim, the result folder's life cycle, signals
- :mod:`~ycsbctl.experiment.sweep`: the loop over targets, workloads, thread counts and repetitions,
  with crash restarts and skips; :mod:`~ycsbctl.experiment.rounds`: the order points run in
- :mod:`~ycsbctl.experiment.point_runner`: one point of a sweep — dataset check, measure, judge, keep, tell;
  :mod:`~ycsbctl.experiment.measure`: one measured point (the engine inside telemetry) and the load
- :mod:`~ycsbctl.experiment.rate_search`: the ``--slo`` search for the highest rate meeting an objective
- :mod:`~ycsbctl.experiment.judge`: a point's status and reason; :mod:`~ycsbctl.experiment.dataset`: records present?
- :mod:`~ycsbctl.experiment.standin`: the MongoDB stand-in policy
- :mod:`~ycsbctl.experiment.servers`, :mod:`~ycsbctl.experiment.result_sink` and :mod:`ycsbctl.engine.contract`:
  the three seams a sweep is given (provisioner, result sink, engine)
- :mod:`~ycsbctl.experiment.live_console` and :mod:`~ycsbctl.experiment.progress`: what the user reads while
  it runs; :mod:`~ycsbctl.experiment.outcome`: how it ended
- :mod:`~ycsbctl.experiment.host_claim`: one benchmark per host; :mod:`~ycsbctl.experiment.facts`: host and
  tool facts for the manifest

Everything we start is stopped on any exit (Ctrl-C and SIGTERM included); every finished point
is kept before the next starts; the folder is renamed into place when the plan ends.
"""
