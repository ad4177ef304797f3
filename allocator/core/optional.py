"""Optional extras: packages imported when first used, with one clear message when missing.

cfalloc's own dependencies are always there; a few features need an extra
(``pip install 'cfalloc[sweep]'``, ``'cfalloc[plot]'``). :func:`optional_module` imports such a
package where it is used, so that the command line starts fast and runs without it, and says
which extra to install when it is missing.

>>> optional_module("json", "reading JSON", "sweep").__name__
'json'
>>> optional_module("no_such_package_here", "drawing", "plot")
Traceback (most recent call last):
...
allocator.core.errors.InputError: drawing needs the optional extra 'plot', which is not ...
"""

from __future__ import annotations

import importlib
from types import ModuleType

from allocator.core.errors import USAGE, InputError


def optional_module(name: str, what: str, extra: str) -> ModuleType:
    """The module ``name`` of the optional extra ``extra``, imported.

    Parameters
    ----------
    name : str
        The module to import (``joblib``, ``dask.distributed``, ``matplotlib``).
    what : str
        What needs it, as the message starts: ``--backend dask``.
    extra : str
        The extra of ``pyproject.toml`` that installs it.

    Returns
    -------
    ModuleType

    Raises
    ------
    InputError
        When the module cannot be imported: the message names the extra to install.
    """
    try:
        return importlib.import_module(name)
    except ImportError:
        raise InputError(
            f"{what} needs the optional extra '{extra}', which is not installed: "
            f"pip install 'cfalloc[{extra}]'",
            kind=USAGE,
        ) from None
