import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir
from hypothesis.database import DirectoryBasedExampleDatabase

sys.path.insert(0, str(Path(__file__).parent))

# hypothesis keeps the examples it found, and its caches, in a temporary folder, never in the
# checkout, removed when the run ends (a failure prints the blob that reproduces it)
_HOME = Path(tempfile.mkdtemp(prefix="cfalloc-hypothesis-"))
atexit.register(shutil.rmtree, _HOME, ignore_errors=True)
set_hypothesis_home_dir(str(_HOME))
_EXAMPLES = DirectoryBasedExampleDatabase(str(_HOME / "examples"))
settings.register_profile("ci", deadline=None, print_blob=True, database=_EXAMPLES)
settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _defaults_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test starts from the defaults: no ``CFALLOC_*`` setting from the caller's shell."""
    for name in list(os.environ):
        if name.startswith("CFALLOC_"):
            monkeypatch.delenv(name)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that drives Chromium (through the ``browser`` fixture) is a ``browser`` test."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
