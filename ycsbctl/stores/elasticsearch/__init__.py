"""Elasticsearch 6.8 (REST): store, binding and hot chain on YCSB's index es.ycsb, _stats sampler."""
