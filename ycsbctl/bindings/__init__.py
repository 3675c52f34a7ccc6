"""bindings."""
