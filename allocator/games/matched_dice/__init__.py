"""matched_dice resolver (see the modules of this package)."""
