import json
import os
import sys
from pathlib import Path

import pytest

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"


@pytest.fixture
def seeds() -> Path:
    if not SEEDS.is_dir():
        pytest.skip("../shared/seeds is not beside this checkout")
    return SEEDS


@pytest.fixture(scope="session")
def _kernel_dir(tmp_path_factory) -> str:
    """levelbench.nn's native kernel is built (~7 s) once per test session, not once per test."""
    return os.environ.get("LEVELBENCH_KERNEL_DIR") or str(tmp_path_factory.mktemp("kernels"))


@pytest.fixture(autouse=True)
def _isolated_store(tmp_path, monkeypatch, _kernel_dir):
    # Results recorded by tests go to a temporary database, never the user's .levelbench/.
    monkeypatch.setenv("LEVELBENCH_DB", str(tmp_path / "results.db"))
    monkeypatch.setenv("LEVELBENCH_CACHE_DIR", os.environ.get("LEVELBENCH_TEST_CACHE", str(tmp_path / "cache")))
    monkeypatch.setenv("LEVELBENCH_KERNEL_DIR", _kernel_dir)


@pytest.fixture
def quiet_machine():
    """Skip a wall-clock accuracy check when other processes hold more than the machine's cores.

    On an oversubscribed machine a busy thread gets the CPU part of the time, so wall-clock
    durations stretch (a 2 ms busy-wait reads ~4 ms at load 2x); no timer can fix that.
    """
    load = os.getloadavg()[0]
    cores = len(os.sched_getaffinity(0))
    if load > cores + 0.5:
        pytest.skip(f"machine overloaded (load {load:.1f} on {cores} cores): wall-clock accuracy not checkable")


def temporary_kernel(root: Path, monkeypatch) -> str:
    """A kernelspec under ``root`` running this interpreter, found through JUPYTER_PATH; returns its name.

    The kernel inherits this process's environment, so results it records go to ``root``.
    """
    spec = root / "kernels" / "levelbench-test"
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    spec_json = {"argv": argv, "display_name": "levelbench test", "language": "python"}
    (spec / "kernel.json").write_text(json.dumps(spec_json))
    monkeypatch.setenv("JUPYTER_PATH", str(root))
    monkeypatch.setenv("JAX_PLATFORMS", "cpu")
    monkeypatch.setenv("LEVELBENCH_DB", str(root / "results.db"))
    monkeypatch.setenv("LEVELBENCH_CACHE_DIR", str(root / "cache"))
    return "levelbench-test"
