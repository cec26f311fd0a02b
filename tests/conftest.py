import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

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


@pytest.fixture(scope="session")
def _peak_cache(tmp_path_factory) -> str:
    """A cache folder for the session holding a stand-in practical peak (100 / 50 GFLOP/s), so that no test
    measures it by the way: measuring takes seconds, and on a busy machine it never settles (nothing is
    cached, every process measures again and warns). Tests of the measurement set a folder of their own;
    a candidate faster than the stand-in raises it, as on a real machine."""
    given = os.environ.get("LEVELBENCH_TEST_CACHE")
    if given:
        return given
    import json
    import time

    from levelbench._measuring import peak

    folder = tmp_path_factory.mktemp("cache")
    stand_in = peak.Peak(100e9, 50e9, time.time(), peak._machine_key(), raised_by="the tests' stand-in")
    (folder / f"peak-{stand_in.key}.json").write_text(json.dumps({"version": peak.CACHE_VERSION, **stand_in.to_dict()}))
    return str(folder)


@pytest.fixture(autouse=True)
def _isolated_store(tmp_path, monkeypatch, _kernel_dir, _peak_cache):
    # Results recorded by tests go to a temporary database, never the user's .levelbench/.
    monkeypatch.setenv("LEVELBENCH_DB", str(tmp_path / "results.db"))
    monkeypatch.setenv("LEVELBENCH_CACHE_DIR", _peak_cache)
    monkeypatch.setenv("LEVELBENCH_KERNEL_DIR", _kernel_dir)


WALLCLOCK = "wallclock"


def pytest_collection_modifyitems(config, items):
    """Leave the tests marked ``wallclock`` out of a run that names no markers (``make test``, ``pytest``).

    They assert on real elapsed time, which a busy machine stretches; ``make test-wallclock``
    (``pytest -m wallclock``) runs them apart. Any ``-m`` given decides alone, as pytest's own would.
    """
    if config.getoption("markexpr"):
        return
    timed = [item for item in items if item.get_closest_marker(WALLCLOCK)]
    if timed:
        config.hook.pytest_deselected(items=timed)
        items[:] = [item for item in items if not item.get_closest_marker(WALLCLOCK)]


@pytest.fixture(autouse=True)
def _not_an_xdist_worker_for_nested_runs(monkeypatch):
    """`make test` runs each test in a pytest-xdist worker, whose ``PYTEST_XDIST_WORKER`` a pytest the test starts
    (pytester, a subprocess) would inherit: pytest-benchmark reads it and turns itself off there. The test's own
    runs are not workers; xdist itself does not read these variables back."""
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.delenv("PYTEST_XDIST_WORKER_COUNT", raising=False)


@pytest.fixture
def quiet_machine(request):
    """Skip a wall-clock accuracy check when other processes hold more than the machine's cores.

    On an oversubscribed machine a busy thread gets the CPU part of the time, so wall-clock
    durations stretch (a 2 ms busy-wait reads ~4 ms at load 2x); no timer can fix that.
    Only for tests marked ``@pytest.mark.wallclock``, which the default run leaves out: a test
    using it without the marker errors, naming the marker.
    """
    if request.node.get_closest_marker(WALLCLOCK) is None:
        pytest.fail(f"{request.node.nodeid} uses quiet_machine, so it asserts on real elapsed time, but has no "
                    "@pytest.mark.wallclock: mark it (make test-wallclock runs it apart), or test the logic on "
                    "conftest.FakeClock instead", pytrace=False)
    load = os.getloadavg()[0]
    cores = len(os.sched_getaffinity(0))
    if load > cores + 0.5:
        pytest.skip(f"machine overloaded (load {load:.1f} on {cores} cores): wall-clock accuracy not checkable")


@pytest.fixture
def steps(monkeypatch):
    """Every first call and every block of samples compare's local lanes make, in order."""
    from levelbench._measuring import lanes as _lanes

    seen = []
    first_call, block = _lanes.LocalLane.first_call, _lanes.LocalLane.block

    def spy_first(self):
        seen.append(("first", self.name))
        return first_call(self)

    def spy_block(self, *a, **k):
        seen.append(("block", self.name))
        return block(self, *a, **k)

    monkeypatch.setattr(_lanes.LocalLane, "first_call", spy_first)
    monkeypatch.setattr(_lanes.LocalLane, "block", spy_block)
    return seen


def temporary_kernel(root: Path, monkeypatch) -> dict[str, Any]:
    """The options for `nbclient.NotebookClient` that start a kernel of this interpreter, from a kernelspec
    under ``root`` (found through JUPYTER_PATH): ``NotebookClient(nb, **temporary_kernel(root, mp), ...)``.

    The kernel inherits this process's environment, so results it records go to ``root``. It talks over Unix
    sockets under ``root`` (the IPC transport), not TCP: jupyter_client picks a free TCP port by binding and
    releasing it, the kernel binds it a moment later, and in a parallel run another process can take it in
    between; the kernel then dies at start ("Address already in use", nbclient's "Kernel died before replying
    to kernel_info").
    """
    from traitlets.config import Config  # lazy: nbclient's dependency, for the tests that have it

    spec = root / "kernels" / "levelbench-test"
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    spec_json = {"argv": argv, "display_name": "levelbench test", "language": "python"}
    (spec / "kernel.json").write_text(json.dumps(spec_json))
    monkeypatch.setenv("JUPYTER_PATH", str(root))
    monkeypatch.setenv("JAX_PLATFORMS", "cpu")
    monkeypatch.setenv("LEVELBENCH_DB", str(root / "results.db"))
    monkeypatch.setenv("LEVELBENCH_CACHE_DIR", str(root / "cache"))
    # ip: the sockets' path prefix (the default, "kernel-ipc", is relative to the kernel's working directory)
    return {"kernel_name": "levelbench-test",
            "config": Config({"KernelManager": {"transport": "ipc", "ip": str(root / "kernel-ipc")}})}


class FakeClock:
    """A timer that moves only when the code under test 'works', so stopping rules test deterministically.

    Pass it as ``timer=``; ``work(costs)`` is a function whose n-th call advances the clock by the
    n-th cost (a number repeats forever) and returns ``result``. ``calls`` counts every work call.
    """

    def __init__(self) -> None:
        self.now = 0.0
        self.calls = 0

    def __call__(self) -> float:
        return self.now

    def work(self, costs: float | Iterable[float], result: Any = 1.0) -> Callable[..., Any]:
        steps = _forever(costs) if isinstance(costs, (int, float)) else iter(costs)

        def run(*args: Any, **kwargs: Any) -> Any:
            self.now += next(steps)
            self.calls += 1
            return result

        return run


def _forever(cost: float):
    while True:
        yield cost


@pytest.fixture
def sigint_is_ctrl_c():
    """SIGINT raises KeyboardInterrupt in this process, as at a terminal, for a test that sends itself one. A
    pytest started with SIGINT ignored (put in the background by a shell without job control: nohup, a CI
    runner) hands that on to its xdist workers, where levelbench rightly leaves an ignored SIGINT ignored."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


CTRL_C = ("import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
          "runpy.run_module('levelbench', run_name='__main__', alter_sys=True)")


def levelbench_argv(*args: str) -> list[str]:
    """``python -m levelbench ARGS`` that takes SIGINT as Ctrl-C even where the tests run with SIGINT
    ignored (a job started with ``&`` by a shell without job control): for the tests that send it."""
    return [sys.executable, "-c", CTRL_C, *args]


def levelbench_cli(*args: str, cwd: str | Path | None = None, env: dict[str, str] | None = None,
                   timeout: float = 300) -> subprocess.CompletedProcess:
    """``python -m levelbench ARGS`` in a fresh process, output captured as text; ``env`` adds variables."""
    return subprocess.run([sys.executable, "-m", "levelbench", *args], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, **(env or {})}, timeout=timeout)
