"""infinity resolver (see the modules of this package)."""
