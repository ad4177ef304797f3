"""percentile resolver (see the modules of this package)."""
