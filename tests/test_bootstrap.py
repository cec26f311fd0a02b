"""The bootstrap CIs of ratios of medians (``levelbench._values.stats``): the same numbers however they are
drawn, in memory that does not grow with resamples x samples (defect 16 of the 2026-12-02 probe: 2000 x
1,000,000 imported timings took 24 GB)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

from levelbench._values import stats
from levelbench._values.stats import paired_ratio_ci, unpaired_ratio_ci


@pytest.mark.parametrize("n, m", [(3, 3), (5, 9), (40, 41), (201, 150)])
def test_drawing_the_resamples_in_blocks_gives_the_same_intervals(n, m, monkeypatch):
    rng = np.random.default_rng(n * m)
    a, b = rng.lognormal(size=n), rng.lognormal(size=m)
    whole = (paired_ratio_ci(a, b), unpaired_ratio_ci(a, b))
    for chunk in (1, 7, 1000):  # one row at a time, a few rows, whole rows of several samples
        monkeypatch.setattr(stats, "BOOTSTRAP_CHUNK", chunk)
        assert (paired_ratio_ci(a, b), unpaired_ratio_ci(a, b)) == whole


def test_the_ratio_of_a_candidate_to_itself_is_its_estimate_without_a_bootstrap():
    from test_store_fakes import comparison

    c = comparison({"a": ("numpy", 1e-3), "b": ("numpy", 2e-3)}, n=40)
    assert c.ratio("a") == stats.Interval(1.0, 1.0, 1.0)
    assert c.ratio("b", "b") == stats.Interval(1.0, 1.0, 1.0)
    assert c.ratio("b") == paired_ratio_ci(c.rounds["b"], c.rounds["a"])


def test_a_bootstrap_of_400000_samples_needs_no_more_than_100_mb_more():
    # Before: (20 x 400,000) indices, the resampled values and the median's copy, about 190 MB at once.
    script = textwrap.dedent("""
        import resource
        import numpy as np
        from levelbench._values.stats import paired_ratio_ci, unpaired_ratio_ci

        a = np.linspace(1.0, 2.0, 400_000)
        with open("/proc/self/status") as f:
            size = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
        resource.setrlimit(resource.RLIMIT_AS, (size + 100 * 2**20, resource.RLIM_INFINITY))
        print(unpaired_ratio_ci(a, a[::-1], resamples=20).estimate, paired_ratio_ci(a, a, resamples=20).estimate)
    """)
    if not sys.platform.startswith("linux"):
        pytest.skip("reads /proc/self/status")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                       env={"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin",
                            "PYTHONPATH": ":".join(sys.path)})
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == ["1.0", "1.0"]
