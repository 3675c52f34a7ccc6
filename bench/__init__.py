"""Benchmarks of ycsbctl itself. Each ``bench/<name>.py`` exposes ``main()`` (returning an exit
code or None) and prints its numbers against a reference; ``python -m bench [name…]`` runs them."""
