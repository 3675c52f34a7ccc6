"""The Redis protocol (Redis, Valkey, KeyDB, Dragonfly): store, RESP binding and hot chain, INFO sampler."""
