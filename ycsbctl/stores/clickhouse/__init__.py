"""ClickHouse (HTTP interface): store, binding and hot chain on a MergeTree table, system.events sampler."""
