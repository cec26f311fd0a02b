import os
from pathlib import Path

import pytest

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"


@pytest.fixture
def seeds() -> Path:
    if not SEEDS.is_dir():
        pytest.skip("../shared/seeds is not beside this checkout")
    return SEEDS


@pytest.fixture(autouse=True)
def _isolated_store(tmp_path, monkeypatch):
    # Results recorded by tests go to a temporary database, never the user's .levelbench/.
    monkeypatch.setenv("LEVELBENCH_DB", str(tmp_path / "results.db"))
    monkeypatch.setenv("LEVELBENCH_CACHE_DIR", os.environ.get("LEVELBENCH_TEST_CACHE", str(tmp_path / "cache")))
