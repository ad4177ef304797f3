"""battlesystem resolver (see the modules of this package)."""
