"""The GEMM lane: a comparison in worker processes times a NumPy GEMM in every round beside its candidates,
and "% of peak" is a share of what that GEMM reached in the same minutes, not of a figure from another day.
The lane's rate is real (measured here); the assertions are about how it is used, never about its size."""

from __future__ import annotations

import json
import textwrap

import numpy as np
import pytest

import levelbench
from levelbench._measuring import compare as compare_module
from levelbench._measuring import peak
from levelbench._measuring.workers import Workers
from levelbench._results.comparison import LanePeak
from levelbench._results.measurement import Measurement
from levelbench._values.stats import Interval

BUILDERS = textwrap.dedent('''
    import numpy as np
    from levelbench import Candidate

    def matmul(n=256, dtype="float32", flops=True):
        a = np.random.default_rng(0).standard_normal((n, n)).astype(dtype)
        return Candidate(np.matmul, (a, a), flops=2.0 * n**3 if flops else None)

    def dot(n=256, dtype="float32", flops=True):
        a = np.random.default_rng(0).standard_normal((n, n)).astype(dtype)
        return Candidate(np.dot, (a, a), flops=2.0 * n**3 if flops else None)
''')


@pytest.fixture
def bench(tmp_path):
    path = tmp_path / "bench.py"
    path.write_text(BUILDERS)
    return lambda name, **kw: levelbench.Builder(f"{path}:{name}", kw)


def test_an_isolated_comparison_times_a_gemm_lane_and_shares_are_of_its_rate(bench):
    c = levelbench.compare({"matmul": bench("matmul"), "dot": bench("dot")}, budget=0.5, min_rounds=3)
    assert set(c.lane_peaks) == {"float32"} and set(c.measurements) == {"matmul", "dot"}  # never a candidate
    lane = c.lane_peaks["float32"]
    rounds = len(c.rounds["matmul"])
    assert lane.n == 1024 and lane.samples >= 3 * rounds  # a turn of >= 3 samples in every round
    assert 0 < lane.rate.lower <= lane.rate.estimate <= lane.rate.upper
    best = max(m.flops / m.median for m in c.measurements.values())
    assert c.peak_flops["float32"] == pytest.approx(max(lane.rate.estimate, best))
    assert all(0 < c.peak_share(n) <= 1 for n in c.measurements)
    text = str(c)
    assert "% peak (this run)" in text and "a NumPy GEMM timed in the same rounds" in text and "n=1024" in text
    again = levelbench.Comparison.from_dict(json.loads(json.dumps(c.to_dict())))
    assert again.lane_peaks == c.lane_peaks and again.peak_share("dot") == c.peak_share("dot")


def test_float64_inputs_get_a_float64_lane_too(bench):
    c = levelbench.compare({"a": bench("matmul", dtype="float64"), "b": bench("dot", dtype="float64")},
                           budget=0.3, min_rounds=3)
    assert set(c.lane_peaks) == {"float32", "float64"} and c.lane_peaks["float64"].n == 768
    assert c.peak_flops["float64"] >= c.lane_peaks["float64"].rate.estimate


def test_no_lane_in_one_process_or_without_peak_flops_or_asked_not_to(bench, monkeypatch):
    a = np.ones((64, 64), np.float32)
    here = levelbench.compare({"dot": (np.dot, (a, a)), "matmul": (np.matmul, (a, a))}, budget=0.2, min_rounds=3)
    assert here.lane_peaks == {} and "% practical peak" in str(here)
    started = []
    start = Workers.start
    monkeypatch.setattr(Workers, "start", lambda self: started.append(1) or start(self))
    for off in ({"peak": False}, {"count_flops": False}, {"peak_lane": False}, {}):
        started.clear()
        c = levelbench.compare({"matmul": bench("matmul"), "dot": bench("dot")}, budget=0.2, min_rounds=3, **off)
        assert (c.lane_peaks == {}) == bool(off) and len(started) == (2 if off else 3)


def test_a_lane_that_cannot_start_leaves_the_comparison_whole_on_the_practical_peak(bench, monkeypatch):
    monkeypatch.setattr(compare_module, "_lane_size", lambda dtype: -1)  # the GEMM's builder raises in its worker
    c = levelbench.compare({"matmul": bench("matmul"), "dot": bench("dot")}, budget=0.2, min_rounds=3)
    assert c.lane_peaks == {} and c.failed == {} and set(c.measurements) == {"matmul", "dot"}
    assert c.peak_flops["float32"] >= peak.machine_peak().float32_flops * 0.999  # the practical peak stands in


def measured(rate: float, flops: float = 2e9, precision: str = "float32") -> Measurement:
    seconds = flops / rate
    return Measurement(label="x", framework="numpy", samples=(seconds,) * 5, calls_per_sample=1, first_call=seconds, flops=flops,
                       output_dtype=precision)


def lane(rate: float, dtype: str = "float32") -> LanePeak:
    return LanePeak(dtype, 1024, Interval(rate, rate * 0.95, rate * 1.05), 30)


def fake_cached(monkeypatch, tmp_path, float32: float) -> None:
    monkeypatch.setenv("LEVELBENCH_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(peak, "_uncached", {})
    monkeypatch.setattr(peak, "measure_peak", lambda: peak.settle(
        lambda: {"float32": float32, "float64": float32 / 2, "cpu_share": 1.0}, key=peak._machine_key()))
    peak.machine_peak()


def test_the_lane_rate_is_the_reference_and_a_candidate_above_it_replaces_it(tmp_path, monkeypatch):
    fake_cached(monkeypatch, tmp_path, 300e9)
    peaks, note = compare_module._peaks_of_run({"slow": measured(100e9)}, {"float32": lane(150e9)}, [])
    assert peaks["float32"] == 150e9 and note == ""  # the lane, though the cached practical peak is higher
    peaks, note = compare_module._peaks_of_run({"fast": measured(180e9)}, {"float32": lane(150e9)}, [])
    assert peaks["float32"] == pytest.approx(180e9)
    assert "fast reached 180.0 GFLOP/s float32, above the GEMM lane's 150.0 in this run" in note
    assert peak.machine_peak().float32_flops == 300e9  # below the cached figure: nothing raised there


def test_a_lane_above_the_cached_practical_peak_raises_it_and_says_so(tmp_path, monkeypatch):
    fake_cached(monkeypatch, tmp_path, 100e9)
    peaks, note = compare_module._peaks_of_run({"slow": measured(50e9)}, {"float32": lane(140e9)}, [])
    assert peaks["float32"] == 140e9 and "cached practical peak was raised to 140.0 GFLOP/s float32" in note
    assert peak.machine_peak().float32_flops == 140e9 and "GEMM lane" in peak.machine_peak().raised_by


def test_lb303_candidates_never_set_the_reference(tmp_path, monkeypatch):
    fake_cached(monkeypatch, tmp_path, 100e9)
    lb303 = levelbench.Finding("LB303", "faster than physics", levelbench.Severity.ERROR, subject="fake")
    peaks, note = compare_module._peaks_of_run({"fake": measured(5000e9)}, {"float32": lane(90e9)}, [lb303])
    assert peaks["float32"] == 90e9 and note == ""
