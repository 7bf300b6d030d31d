"""The web layer: routes that parse a request, call the engine or the store, and render."""
