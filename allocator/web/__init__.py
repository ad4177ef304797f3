"""The web page and JSON API (``cfalloc serve``; needs the ``web`` extra: ``pip install .[web]``).

Nothing here imports FastAPI at package import time, so that ``allocator.web.cli.serve`` can say
clearly when the extra is missing.
"""
