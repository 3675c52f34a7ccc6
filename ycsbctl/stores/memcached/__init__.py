"""memcached (text protocol): store, binding and hot chain, ``stats`` admin calls and sampler."""
