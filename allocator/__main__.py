"""``python -m allocator``: the ``cfalloc`` command line."""

from allocator.cli import main

main()
