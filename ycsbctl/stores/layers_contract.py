"""import-linter's contract for the stores, with its top layer read from the registry: every store package
of :data:`ycsbctl.stores.registry._MODULES` is independent of the others and sits above the contracts
they share. A new store is one folder and one registry line; this contract then covers it without an edit
to ``pyproject.toml``.

Loaded by ``lint-imports`` only (``[tool.importlinter] contract_types``); nothing in ycsbctl imports it.
"""

from __future__ import annotations

from typing import Any

from importlinter.contracts.layers import LayersContract


class StoreLayersContract(LayersContract):
    """A layers contract whose first layer is ``store_a | store_b | …``, the registry's store packages
    (the other layers as ``pyproject.toml`` lists them: what the stores share, top to bottom)."""

    type_name = "store_layers"

    def __init__(self, name: str, session_options: dict[str, Any], contract_options: dict[str, Any]) -> None:
        from ycsbctl.stores.registry import store_packages

        layers = [" | ".join(store_packages()), *contract_options.get("layers", [])]
        super().__init__(name, session_options, {**contract_options, "layers": layers})
