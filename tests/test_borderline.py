"""Findings decided on a confidence interval, not a point estimate (threshold.judge), and CPU steal time.

Every case is a fake measurement with a chosen interval: wholly past the threshold (reported), wholly
short of it (not reported), straddling it (reported, marked borderline). No clock is read.
"""

import dataclasses
import json

import numpy as np
import pytest

from levelbench import Severity
from levelbench._measuring import environment
from levelbench._measuring.checks import steady_findings
from levelbench._results.measurement import Measurement
from levelbench._values.findings import Finding
from levelbench._values.stats import Interval, relative_iqr_ci
from levelbench._values.steal import steal_text
from levelbench._values.threshold import Threshold, Verdict, against, is_borderline, judge, verdict


# -- the one helper -------------------------------------------------------------------------------

def test_the_whole_interval_decides_against_a_threshold_above():
    assert against(Interval(3.0, 2.5, 3.5), 2.0) is Verdict.PAST
    assert against(Interval(1.5, 1.0, 1.9), 2.0) is Verdict.SHORT
    assert against(Interval(2.1, 1.5, 2.5), 2.0) is Verdict.BORDERLINE
    assert against(Interval(1.9, 1.5, 2.5), 2.0) is Verdict.BORDERLINE  # the point estimate does not decide


def test_a_threshold_below_is_the_mirror_image():
    assert against(Interval(3.0, 2.0, 4.0), 5.0, above=False) is Verdict.PAST
    assert against(Interval(7.0, 6.0, 8.0), 5.0, above=False) is Verdict.SHORT
    assert against(Interval(5.5, 4.0, 6.0), 5.0, above=False) is Verdict.BORDERLINE


def test_several_thresholds_together_are_as_short_as_the_shortest():
    past, straddling, short = (Threshold("a", Interval(3, 2.5, 3.5), 2), Threshold("b", Interval(2, 1, 3), 2),
                               Threshold("c", Interval(1, 0.5, 1.5), 2))
    assert verdict(past, past) is Verdict.PAST
    assert verdict(past, straddling) is Verdict.BORDERLINE
    assert verdict(straddling, short) is Verdict.SHORT


def test_judge_reports_past_drops_short_and_marks_borderline_in_title_evidence_data_and_json():
    f = Finding("LB999", "slow", Severity.WARNING, evidence="measured", data={"x": 1})
    assert judge(f, Threshold("speed-up", Interval(3, 2.5, 3.5), 2)) == [f]
    assert judge(f, Threshold("speed-up", Interval(1.5, 1.0, 1.9), 2)) == []
    [b] = judge(f, Threshold("speed-up", Interval(2.2, 1.6, 2.8), 2, fmt="{:.2f}x".format))
    assert b.title == "slow (borderline)" and b.severity is Severity.INFO and is_borderline(b)
    assert b.data["severity_past"] == "warning"  # a note: a straddling interval cannot claim a warning
    assert "borderline: speed-up 2.20x (95% CI 1.60x-2.80x) against the threshold > 2.00x" in b.evidence
    assert b.evidence.startswith("measured\n") and b.data["x"] == 1
    dumped = json.loads(json.dumps(b.to_dict()))
    assert dumped["data"]["borderline"] == [{"quantity": "speed-up", "estimate": 2.2, "lower": 1.6, "upper": 2.8,
                                             "confidence": 0.95, "threshold": 2, "above": True}]
    assert not is_borderline(f)


# -- LB240: the speed-up and saving of jit --------------------------------------------------------

def _spread(center, rel, n=40, seed=0):
    return list(center * (1 + rel * np.random.default_rng(seed).uniform(-1, 1, n)))


def test_lb240_decides_on_the_speed_up_interval():
    pytest.importorskip("jax")
    from levelbench._probing.probes import dispatch

    def lb240(eager, jitted):
        return dispatch.dispatch_finding("f", 10, eager=float(np.median(eager)), jitted=float(np.median(jitted)),
                                         compile_total=0.1, eager_samples=eager, jitted_samples=jitted)

    [past] = lb240(_spread(1e-3, 0.05), _spread(1e-4, 0.05, seed=1))  # 10x, tight
    assert not is_borderline(past) and "ratio_ci" in past.data
    assert lb240(_spread(1.5e-4, 0.02), _spread(1e-4, 0.02, seed=1)) == []  # 1.5x, wholly short of 2x
    [border] = lb240(_spread(2.05e-4, 0.6), _spread(1e-4, 0.05, seed=1))  # about 2x, wide
    assert is_borderline(border) and border.title.endswith("(borderline)")
    assert border.data["borderline"][0]["quantity"] == "speed-up from jit"


def test_lb240_decides_on_rounds_timed_in_turn_where_it_has_them():
    """The machine slowing down over the rounds (4x from the first to the last) moves both calls alike:
    paired by round, the speed-up is 1.8x each round, short of 2x, with a tight interval. The same times
    unpaired (as if the call as given had been timed in the slow minutes and the jitted one in the
    fast ones) straddle the threshold: borderline, a coin toss between runs."""
    pytest.importorskip("jax")
    from levelbench._probing.probes import dispatch

    load = np.linspace(1.0, 4.0, 15)
    eager, jitted = list(1.8e-4 * load), list(1e-4 * load)
    assert dispatch.dispatch_finding("f", 10, eager=float(np.median(eager)), jitted=float(np.median(jitted)),
                                     compile_total=0.1, eager_samples=eager, jitted_samples=jitted,
                                     paired=(eager, jitted, 1.0)) == []
    [unpaired] = dispatch.dispatch_finding("f", 10, eager=float(np.median(eager)), jitted=float(np.median(jitted)),
                                           compile_total=0.1, eager_samples=eager, jitted_samples=jitted)
    assert is_borderline(unpaired)
    faster = list(3e-4 * load)  # 3x every round: past 2x, whatever the load
    [past] = dispatch.dispatch_finding("f", 10, eager=1.0, jitted=1.0, compile_total=0.1,
                                       paired=(faster, jitted, 0.95))
    assert not is_borderline(past) and past.data["ratio"] == pytest.approx(3.0)
    assert past.data["eager"] == pytest.approx(float(np.median(faster)))  # the paired medians are the figures
    # the same rounds while the process had its CPU 40% of the time: no warning, a borderline note saying why
    [busy] = dispatch.dispatch_finding("f", 10, eager=1.0, jitted=1.0, compile_total=0.1, paired=(faster, jitted, 0.4))
    assert is_borderline(busy) and busy.severity == Severity.INFO and busy.data["severity_past"] == "warning"
    assert "ran on a CPU for 40% of the time it was timed" in busy.evidence


def test_lb240_without_samples_decides_on_the_points_as_before():
    pytest.importorskip("jax")
    from levelbench._probing.probes import dispatch

    [f] = dispatch.dispatch_finding("f", 10, eager=1e-3, jitted=1e-4, compile_total=0.1)
    assert not is_borderline(f)
    assert dispatch.dispatch_finding("f", 10, eager=1.5e-4, jitted=1e-4, compile_total=0.1) == []


# -- LB270: the compilation in steady calls -------------------------------------------------------

def test_lb270_decides_on_the_steady_time_interval():
    pytest.importorskip("jax")
    from levelbench._probing.probes import compile_share

    def lb270(lower, upper):  # 0.1 s of compilation against a steady call of about 10 ms: about 10 calls
        return compile_share.compile_finding("f", 0.02, 0.02, 0.06, first_call=0.1, steady=(lower + upper) / 2,
                                             eager=None, steady_ci=Interval((lower + upper) / 2, lower, upper))

    [past] = lb270(4e-3, 6e-3)  # 17-25 calls
    assert not is_borderline(past)
    assert past.data["steady_calls_per_compile_ci"]["lower"] == pytest.approx(0.1 / 6e-3)
    assert lb270(12e-3, 14e-3) == []  # 7-8 calls
    [border] = lb270(8e-3, 12e-3)  # 8-12 calls
    assert is_borderline(border) and "compilation / steady call" in border.evidence


# -- LB003 and LB004 on a measurement's samples ---------------------------------------------------

def _m(samples, floor=None, env=None):
    return Measurement(label="f", framework="jax", samples=tuple(samples), calls_per_sample=100,
                       first_call=samples[0], dispatch_floor=floor, target_reached=True, environment=env or {})


def _codes(m, code):
    return [f for f in steady_findings(m) if f.code == code]


def test_lb004_decides_on_the_median_interval_against_five_times_the_floor():
    floor = 10e-6
    [past] = _codes(_m(_spread(30e-6, 0.05), floor), "LB004")  # 2.9-3.1x the floor
    assert not is_borderline(past)
    assert _codes(_m(_spread(70e-6, 0.05), floor), "LB004") == []  # 6.7-7.3x
    [border] = _codes(_m(_spread(50e-6, 0.3), floor), "LB004")  # 3.5-6.5x
    assert is_borderline(border) and border.data["borderline"][0]["above"] is False


def test_the_noise_note_decides_on_a_bootstrap_interval_of_iqr_over_median():
    tight = _spread(1e-3, 0.02, n=200)  # IQR about 2% of the median
    wide = _spread(1e-3, 0.6, n=200)  # about 60%
    assert relative_iqr_ci(tight).upper < 0.10 < relative_iqr_ci(wide).lower
    assert _codes(_m(tight), "LB003") == []
    [noisy] = _codes(_m(wide), "LB003")
    assert not is_borderline(noisy) and noisy.data["relative_iqr"]["lower"] > 0.10
    few = [1e-3, 1.1e-3, 0.9e-3, 1.05e-3, 0.95e-3, 1.2e-3]  # IQR 13% on 6 samples: cannot be pinned
    [unsure] = _codes(_m(few), "LB003")
    assert is_borderline(unsure)
    assert _codes(_m([1e-3, 2e-3, 3e-3]), "LB003") == []  # 3 samples: no quartiles, no noise note


def test_relative_iqr_interval_is_reproducible():
    x = _spread(1e-3, 0.3, n=100)
    assert relative_iqr_ci(x) == relative_iqr_ci(x)
    with pytest.raises(ValueError, match="at least one sample"):
        relative_iqr_ci([])


def test_relative_iqr_interval_of_many_samples_narrows_from_a_subsample():
    from levelbench._values.stats import RELATIVE_IQR_SUBSAMPLE

    many = np.random.default_rng(0).lognormal(0, 0.2, 20 * RELATIVE_IQR_SUBSAMPLE)
    few = many[:RELATIVE_IQR_SUBSAMPLE]
    wide, narrow = relative_iqr_ci(few), relative_iqr_ci(many)
    assert narrow.lower <= narrow.estimate <= narrow.upper
    assert narrow.upper - narrow.lower < 0.5 * (wide.upper - wide.lower)
    assert narrow.contains(0.27)  # lognormal(0, 0.2): IQR / median = 2 sinh(0.2 x 0.674) = 0.271


# -- CPU steal time ---------------------------------------------------------------------------------

def _proc_stat(tmp_path, name, user, steal, idle=0):
    p = tmp_path / name
    p.write_text(f"cpu  {user} 0 0 {idle} 0 0 0 {steal} 0 0\ncpu0 {user} 0 0 {idle} 0 0 0 {steal} 0 0\nintr 1 2\n")
    return str(p)


def test_steal_is_the_share_of_cpu_time_between_two_readings(tmp_path):
    start = environment.cpu_times(_proc_stat(tmp_path, "a", user=1000, steal=100, idle=900))
    assert start == {"total": 2000, "steal": 100}
    end = environment.cpu_times(_proc_stat(tmp_path, "b", user=1170, steal=130, idle=950))  # 250 ticks, 30 stolen
    assert environment.steal_share(start, end) == pytest.approx(0.12)
    assert environment.steal_share(start, start) is None and environment.steal_share(None, end) is None


def test_a_kernel_without_a_steal_column_or_no_proc_stat_records_nothing(tmp_path):
    old = tmp_path / "old"
    old.write_text("cpu  1 2 3 4 5 6 7\n")
    assert environment.cpu_times(str(old)) is None
    assert environment.cpu_times(str(tmp_path / "missing")) is None


def test_collect_records_steal_over_the_run_and_the_noise_note_names_it(monkeypatch, tmp_path):
    start = environment.cpu_times(_proc_stat(tmp_path, "a", user=1000, steal=100, idle=900))
    monkeypatch.setattr(environment, "PROC_STAT", _proc_stat(tmp_path, "b", user=1170, steal=130, idle=950))
    env = environment.collect([1.0, 1.0, 1.0], start)
    assert env["steal"] == {"share": 0.12, "ticks": 30, "total_ticks": 250}
    assert "steal" in environment.VOLATILE
    text = "another virtual machine on this host took 12% of the CPU during sampling"
    assert text in steal_text(env)
    [noisy] = _codes(_m(_spread(1e-3, 0.6, n=200), env=env), "LB003")
    assert text in noisy.evidence and noisy.data["steal_share"] == 0.12
    quiet = {"steal": {"share": 0.001}}
    assert steal_text(quiet) == "" and steal_text({}) == ""
    [noisy] = _codes(_m(_spread(1e-3, 0.6, n=200), env=quiet), "LB003")
    assert "virtual machine" not in noisy.evidence


def test_the_comparison_noise_line_names_steal():
    from levelbench._rendering.comparison import noise_line

    m = _m(_spread(1e-3, 0.6, n=200))

    class C:
        measurements = {"a": dataclasses.replace(m, findings=tuple(steady_findings(m)))}
        environment = {"steal": {"share": 0.12}, "load_average": {"start": [1.5], "end": [2.0]}, "cpu_count": 2}
        target_reached = True
        rel_ci_target = 0.01

    line = noise_line(C)
    assert "load average 1.5 -> 2.0 on 2 cores" in line and "took 12% of the CPU during sampling" in line


# -- LB260: which bound, from fractions of the steady time ------------------------------------------

def test_lb260_marks_a_bound_whose_cut_the_steady_interval_straddles():
    pytest.importorskip("jax")
    from levelbench._probing.probes import roofline

    def lb260(lower, upper):  # 1 GFLOP at a peak of 100 GFLOP/s: a roofline bound of 10 ms
        steady = (lower + upper) / 2
        [f] = roofline.roofline_finding("f", 1e9, 1e3, steady, peak=1e11, bandwidth=1e10, floor=None, loops=False,
                                        dtype="float32", steady_ci=Interval(steady, lower, upper))
        return f

    compute = lb260(0.015, 0.025)  # the bound is 40-67% of the call: compute-bound
    assert compute.data["bound"] == "compute" and not is_borderline(compute)
    latency = lb260(0.06, 0.08)  # 12-17%: latency-bound
    assert latency.data["bound"] == "latency" and not is_borderline(latency)
    border = lb260(0.03, 0.05)  # 20-33%: either, by run
    assert is_borderline(border) and border.data["borderline"][0]["quantity"] == "roofline bound / steady time"
    assert border.severity is Severity.INFO  # marked, never dropped: LB260 is always reported


def test_a_borderline_finding_says_so_in_the_text_rendering_and_the_measurement_json():
    from levelbench._rendering.terminal import render_findings

    m = _m(_spread(50e-6, 0.3), 10e-6)
    m = dataclasses.replace(m, findings=tuple(steady_findings(m)))
    text = "\n".join(t.plain for t in render_findings(m.findings))
    assert "LB004" in text and "(borderline)" in text and "per-call time / dispatch floor" in text
    [lb004] = [f for f in json.loads(json.dumps(m.to_dict()))["findings"] if f["code"] == "LB004"]
    assert lb004["title"].endswith("(borderline)") and lb004["data"]["borderline"][0]["threshold"] == 5.0


def test_a_comparison_in_workers_records_the_steal_over_the_whole_run(monkeypatch, tmp_path):
    from levelbench._measuring.compare import _with_start_load

    start = environment.cpu_times(_proc_stat(tmp_path, "a", user=1000, steal=100, idle=900))
    monkeypatch.setattr(environment, "PROC_STAT", _proc_stat(tmp_path, "b", user=1170, steal=130, idle=950))
    worker_env = {"python": "3.x", "load_average": {"end": [2.0]}}
    env = _with_start_load(worker_env, [1.0], start)
    assert env["steal"]["share"] == 0.12 and env["load_average"] == {"start": [1.0], "end": [2.0]}
    assert "steal" not in _with_start_load(worker_env, [1.0], None)  # no reading at the start: nothing claimed
