"""jit: capture, compile and run graphs (filled in by the jit modules)."""
