"""The web page and JSON API (``cfalloc serve``; needs the ``web`` extra: ``pip install .[web]``).

- :mod:`~allocator.web.app`: the FastAPI app, its endpoints and their typed answers;
- :mod:`~allocator.web.work`: the bounded pool the heavy work runs in, and ``ApiRoute``, which
  reads JSON bodies with the shared reader;
- :mod:`~allocator.web.guards`: the Host, cross-site and body checks every request passes;
- :mod:`~allocator.web.errors`: the one error form of every refusal;
- :mod:`~allocator.web.server`: the socket and uvicorn's settings against slow clients;
- :mod:`~allocator.web.settings`: the server's settings (``cfalloc serve``, in
  :mod:`allocator.cli.serve`, builds them from its options).

Nothing here imports FastAPI at package import time, so that ``cfalloc serve`` can say clearly
when the extra is missing.
"""
