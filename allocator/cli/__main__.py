"""``python -m allocator.cli``: the ``cfalloc`` command line."""

from allocator.cli import main

main()
