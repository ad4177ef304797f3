"""`/api/organisations` lists each organisation's display name beside the name a scenario uses."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install .[web])")

from fastapi.testclient import TestClient

from allocator.core.library import names
from allocator.games.crossfire.battle import load_organisation
from allocator.web.app import create_app


def test_the_library_lists_every_title_beside_its_name() -> None:
    client = TestClient(create_app(), base_url="http://127.0.0.1")
    nations = client.get("/api/organisations").json()["nations"]
    listed = {org["name"]: org["title"] for nation in nations for org in nation["organisations"]}
    assert listed == {name: load_organisation(name).title for name in names("orgs")}
    assert listed["german-rifle-company"] == "German rifle company, 1944"
    assert len(set(listed.values())) == len(listed)
