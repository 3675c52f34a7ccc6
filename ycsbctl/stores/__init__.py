"""Data stores: :mod:`~ycsbctl.stores.registry` (URL scheme -> store) and one package per store
protocol (``redis/``, ``mongodb/``, ``basic/``), each with its URL parsing, bindings, admin calls,
server sampler and footprint; the binding contract (:mod:`~ycsbctl.stores.binding`) they share."""
