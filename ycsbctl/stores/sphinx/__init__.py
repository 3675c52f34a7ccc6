"""Sphinx (searchd 2.2, SphinxQL on its MySQL-protocol port): store, binding and hot chain, SHOW STATUS sampler."""
