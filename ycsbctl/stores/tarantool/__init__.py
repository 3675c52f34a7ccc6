"""Tarantool (IPROTO): store, binding and hot chain, box.stat() admin calls and sampler."""
