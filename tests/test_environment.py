"""What levelbench records about the machine: load average at start and end, CPU frequency and governor,
the macOS CPU brand, and the cache folder from platformdirs (after $LEVELBENCH_CACHE_DIR)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from levelbench._measuring import environment
from levelbench._measuring.environment import collect, cpu_frequency, cpu_model, differences
from levelbench._values.settings import cache_dir


def fake_sysfs(root: Path, cpus: dict[int, tuple[str, int, int, int]]) -> Path:
    """``cpuN/cpufreq`` with (governor, current, min, max) in kHz, as Linux shows them."""
    for n, (governor, cur, low, high) in cpus.items():
        folder = root / f"cpu{n}" / "cpufreq"
        folder.mkdir(parents=True)
        (folder / "scaling_governor").write_text(governor + "\n")
        (folder / "scaling_cur_freq").write_text(f"{cur}\n")
        (folder / "cpuinfo_min_freq").write_text(f"{low}\n")
        (folder / "cpuinfo_max_freq").write_text(f"{high}\n")
    (root / "cpufreq").mkdir()  # not a CPU: ignored
    return root


def test_cpu_frequency_and_governor_are_read_where_linux_shows_them(tmp_path):
    root = fake_sysfs(tmp_path, {0: ("powersave", 1_200_000, 800_000, 3_600_000),
                                 1: ("performance", 3_400_000, 800_000, 3_700_000)})
    assert cpu_frequency(root=str(root)) == {"governor": "performance,powersave", "current_mhz": [1200.0, 3400.0],
                                             "min_mhz": 800.0, "max_mhz": 3700.0}
    assert cpu_frequency([1], root=str(root))["governor"] == "performance"  # only the CPUs the process may use
    assert cpu_frequency(root=str(tmp_path / "missing")) == {}  # a VM, macOS: nothing, no error


def test_collect_records_the_load_average_at_start_and_end_and_the_frequencies(monkeypatch, tmp_path):
    if not hasattr(__import__("os"), "getloadavg"):
        pytest.skip("no load average on this system")
    monkeypatch.setattr(environment, "CPUFREQ", str(fake_sysfs(tmp_path, {0: ("ondemand", 2_000_000, 1, 3)})))
    env = collect(load_at_start=[9.0, 8.0, 7.0])
    assert env["load_average"]["start"] == [9.0, 8.0, 7.0]
    assert len(env["load_average"]["end"]) == 3
    if 0 in (env["affinity"] or [0]):
        assert env["cpu_frequency"]["governor"] == "ondemand"
    assert "start" not in collect()["load_average"]


def test_a_measurement_records_the_load_before_and_after_sampling():
    import levelbench

    if not hasattr(__import__("os"), "getloadavg"):
        pytest.skip("no load average on this system")
    m = levelbench.measure(np.add, np.ones(10), np.ones(10), budget=0.05)
    assert set(m.environment["load_average"]) == {"start", "end"}


def test_a_comparison_in_workers_gets_the_load_at_its_start():
    from levelbench._measuring.compare import _with_start_load

    worker_env = {"cpu": "x", "load_average": {"end": [2.0, 1.0, 1.0]}}
    assert _with_start_load(worker_env, [1.0, 1.0, 1.0])["load_average"] == {"start": [1.0, 1.0, 1.0],
                                                                             "end": [2.0, 1.0, 1.0]}
    assert _with_start_load({}, [1.0, 1.0, 1.0]) == {}


def test_load_and_current_frequency_are_not_environment_differences():
    a = {"cpu": "x", "load_average": {"start": [1, 1, 1]}, "cpu_frequency": {"governor": "performance",
                                                                            "current_mhz": [3000, 3100]}}
    b = {"cpu": "x", "load_average": {"start": [5, 4, 3]}, "cpu_frequency": {"governor": "powersave",
                                                                            "current_mhz": [800, 900]}}
    assert differences(a, b) == ["cpu_frequency.governor: 'performance' -> 'powersave'"]


def test_the_macos_cpu_brand_comes_from_sysctl_and_its_absence_is_harmless(monkeypatch, tmp_path):
    monkeypatch.setattr(environment, "CPUINFO", str(tmp_path / "no-cpuinfo"))
    monkeypatch.setattr(sys, "platform", "darwin")
    calls = []

    def fake_run(argv, **kw):
        calls.append(argv)
        return subprocess.CompletedProcess(argv, 0, stdout="Apple M2 Pro\n", stderr="")

    monkeypatch.setattr(subprocess, "run", fake_run)
    assert cpu_model() == "Apple M2 Pro"
    assert calls == [["sysctl", "-n", "machdep.cpu.brand_string"]]

    def missing(argv, **kw):
        raise FileNotFoundError("sysctl")

    monkeypatch.setattr(subprocess, "run", missing)
    monkeypatch.setattr(environment.platform, "processor", lambda: "arm")
    assert cpu_model() == "arm"


def test_the_cache_folder_is_levelbench_cache_dir_first_then_platformdirs(monkeypatch, tmp_path):
    import platformdirs

    monkeypatch.setenv("LEVELBENCH_CACHE_DIR", str(tmp_path / "mine"))
    assert cache_dir() == tmp_path / "mine"
    monkeypatch.delenv("LEVELBENCH_CACHE_DIR")
    assert cache_dir() == Path(platformdirs.user_cache_dir("levelbench", appauthor=False))
    if sys.platform.startswith("linux"):
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
        assert cache_dir() == tmp_path / "xdg" / "levelbench"
