"""explain keeps its budget: probes that would not fit are skipped for time, with the budget that
would run them; estimates come from what was measured; progress shows on a terminal only.

The scheduling is tested against a fake clock and fake probe costs: whether explain returns within
its budget on real code is a timing claim, measured by benchmarks/explain_budget.py.
"""

import io
import itertools
import types

import pytest

from conftest import FakeClock
from levelbench._probing import budget as _budget
from levelbench._probing import diagnose as _diagnose
from levelbench._probing.probes.base import Probe
from levelbench._values.progress import ProgressLine
from levelbench._values.settings import PROBING


# -- the schedule ------------------------------------------------------------------------------
def test_a_task_that_does_not_fit_is_a_skip_naming_the_budget_that_would_run_it():
    clock = FakeClock()
    s = _budget.Schedule(10.0, start=0.0, clock=clock)
    clock.now = 6.5
    assert s.fits("the dead-code probe", 3.0) is None
    skip = s.fits("the unrolled-loop probe", 14.0)
    assert (skip.needs, skip.left) == (14.0, 3.5)
    assert skip.budget == pytest.approx(20.5)  # 10.5 s more than the 10 given
    assert skip.reason() == ("skipped for time: the unrolled-loop probe needs about 14 s, 3.5 s of the budget "
                             "left; a budget of 25 s would run it (budget=25, --budget 25)")
    assert s.to_dict()["skipped_for_time"] == [skip.to_dict()]


def test_the_reserve_for_fix_trials_is_kept_from_the_probes_only():
    clock = FakeClock()
    s = _budget.Schedule(8.0, start=0.0, reserve=2.0, clock=clock)
    clock.now = 5.0
    assert s.left() == 1.0 and s.left(for_fixes=True) == 3.0
    assert s.fits("a probe", 2.5) is not None
    assert s.fits("a trial", 2.5, for_fixes=True) is None


def test_a_fix_trial_skipped_for_time_says_the_budget_that_would_measure_it():
    text = _budget.spent(10.0, needs=4.0, remaining=1.0, what="two fresh processes")
    assert text.startswith("explain's budget was spent")  # the mark the finding's evidence reads
    assert "needs about 4 s, 1 s left" in text and "raise budget= to 13 (--budget 13)" in text


# -- estimates from what was measured ------------------------------------------------------------
class _Subject:
    """What the estimates read of a `Subject`: the facts known, and the numbers measured."""

    def __init__(self, jitted=True, known=(), calls=None, measured=None):
        self.is_jitted, self._known, self.calls = jitted, set(known), calls
        self.fn, self.args, self.kwargs, self.scale_axis = (lambda x: x), (), {}, None
        self.measured, self.shortening, self.budget, self.measure_budget = measured or {}, None, 10.0, 0.5
        self.quick = False

    def known(self, name):
        return name in self._known


def test_facts_computed_already_cost_a_probe_nothing():
    c = _budget.Costs(first_call=4.0, steady=0.001, compile=4.0, sample=0.5)
    cold = _budget.estimate("compile", _Subject(), c)
    warm = _budget.estimate("compile", _Subject(known={"traced", "compiled", "timing", "jitted_timing"}), c)
    assert cold > 8.0  # a cold compile, and a timing whose first call compiles again
    assert warm == pytest.approx(_budget.PROBE_OVERHEAD)


def test_a_function_that_compiles_on_every_call_makes_repeated_calls_costly():
    steady = _budget.Costs(first_call=3.0, steady=0.002, compile=3.0, sample=0.5)
    recompiling = _budget.Costs(first_call=3.0, steady=3.0, compile=3.0, sample=0.5)
    cheap = _budget.estimate("retrace", _Subject(known={"compiled"}), steady)
    costly = _budget.estimate("retrace", _Subject(known={"compiled"}), recompiling)
    assert costly >= 3 * 3.0 > cheap
    with_an_int = _Subject(known={"compiled"})
    with_an_int.args = (1.0, 7)  # 7 is tried with another value: one more compile
    assert _budget.estimate("retrace", with_an_int, steady) == pytest.approx(cheap + 3.0 + 0.002)


def test_a_measured_compile_replaces_the_first_calls_time():
    subject = _Subject(measured={"compile": {"total": 0.2}})
    assert _budget.costs_of(subject, first_call=5.0, steady=0.01).compile == 0.2
    projected = _Subject(measured={"scale": {"linear": True, "projected_seconds": 40.0}})
    assert _budget.costs_of(projected, first_call=0.5, steady=0.4).compile == 40.0


def test_after_the_loop_is_cut_the_probes_cost_the_share_of_its_steps_they_run():
    # real case 107 (jax-ml/jax#14185): 100 eager jax.grad calls take 1.2 s as given; the probes after the
    # unrolled one run on 8 of the 100 steps, so the dispatch probe's 15 paired rounds cost 8% of that, not 35 s
    from levelbench._probing.subject import Shortening

    as_given = _Subject(jitted=False)
    cut = _Subject(jitted=False)
    cut.shortening = Shortening(argument="xs", axis=0, length=100, to=8, reason="compiling all 100 would take 4 s")
    full = _budget.costs_of(as_given, first_call=4.7, steady=1.2)
    short = _budget.costs_of(cut, first_call=4.7, steady=1.2)
    assert (full.steady, full.first_call) == (1.2, 4.7)
    assert short.steady == pytest.approx(1.2 * 8 / 100) and short.first_call == pytest.approx(4.7 * 8 / 100)
    assert _budget.estimate("dispatch", cut, short) < 5.0 < _budget.estimate("dispatch", as_given, full)


def test_a_slow_op_by_op_call_is_paired_over_the_rounds_that_fit_its_budget():
    # real case 196 (first 119): a 1000-step loop run op by op takes 0.12 s a call; 15 paired rounds of it and its jit
    # (3.6 s of a 5 s budget) got the dispatch probe skipped for time, and LB240 went unreported
    from levelbench._probing.probes.dispatch import MIN_PAIRED_ROUNDS, PAIRED_SHARE, paired_rounds

    rounds = paired_rounds(0.12, budget=5.0)
    assert MIN_PAIRED_ROUNDS <= rounds < PROBING.paired_rounds
    assert rounds * 0.12 <= PAIRED_SHARE * 5.0 < (rounds + 1) * 0.12
    assert paired_rounds(2.0, budget=5.0) == MIN_PAIRED_ROUNDS  # never fewer: a paired interval needs them
    slow = _Subject(jitted=False, known={"traced", "compiled", "timing", "jitted_timing"})
    slow.budget = 5.0
    c = _budget.Costs(first_call=0.4, steady=0.12, compile=1.2, sample=0.25)
    # the jitted call is estimated at the cost of the call as given: a round is 2 x 0.12 s at most
    assert _budget.estimate("dispatch", slow, c) < PROBING.paired_rounds * 2 * c.steady


def test_the_dispatch_probe_costs_a_jitted_function_nothing():
    # real case 196's jit_function: 'the dispatch probe needs about 12 s' was listed as skipped for time,
    # for a probe that returns at once on a jitted function
    c = _budget.Costs(first_call=2.0, steady=1e-4, compile=2.0, sample=0.25)
    assert _budget.estimate("dispatch", _Subject(jitted=True), c) == _budget.PROBE_OVERHEAD
    assert _budget.estimate("dispatch", _Subject(jitted=False), c) > c.compile  # unjitted: its jit compiles


def test_a_fast_call_keeps_every_paired_round():
    from levelbench._probing.probes.dispatch import paired_rounds

    assert paired_rounds(2e-5, budget=5.0) == PROBING.paired_rounds
    assert paired_rounds(2e-5, budget=0.5) == PROBING.paired_rounds  # a sample lasts sample_seconds at least


def test_the_configuration_probe_is_never_skipped_for_time():
    c = _budget.Costs(first_call=100.0, steady=100.0, compile=100.0, sample=0.5)
    assert _budget.estimate("config", _Subject(), c) == 0.0


# -- explain on a fake clock ---------------------------------------------------------------------
def _fake_probes(monkeypatch, clock, spec):
    """Probes named in ``spec`` (name -> (estimated, actual seconds)) that advance the fake clock."""
    probes = tuple(Probe(name, (), clock.work(actual, result=[]), frameworks=("python",)) for name, (_, actual)
                   in spec.items())
    monkeypatch.setattr(_diagnose, "all_probes", lambda: probes)
    monkeypatch.setattr(_diagnose, "_framework", lambda fn, args, kwargs: "python")  # no trace by JAX
    for name, (estimated, _) in spec.items():
        monkeypatch.setitem(_budget.ESTIMATES, name, lambda s, c, e=estimated: e)


def test_explain_skips_what_would_not_fit_and_runs_what_still_does(monkeypatch):
    clock = FakeClock()
    _fake_probes(monkeypatch, clock, {"a": (3.0, 3.0), "b": (20.0, 20.0), "c": (1.0, 1.0)})
    # the first call (2 s: its trace and compile), then every call 0.5 s
    fn = clock.work(itertools.chain([2.0], itertools.repeat(0.5)), result=1.0)
    steps = []
    d = _diagnose.diagnose(fn, (), {}, budget=10.0, clock=clock, progress=steps.append, fixes=False)
    assert d.probes == ("a", "c")
    assert d.skipped["b"].startswith("skipped for time: the b probe needs about 20 s, 6.5 s of the budget left")
    assert "--budget 25" in d.skipped["b"]
    record = d.measured["budget"]
    assert record["first_call"] >= 2.0 and record["second_call"] == 0.5
    assert [s["what"] for s in record["skipped_for_time"]] == ["the b probe"]
    # within the budget after the first call; the 20 s probe would have taken it to 26.5 s
    assert d.elapsed <= record["first_call"] + 10.0
    assert any("running the 'a' probe" in s and "then b, c" in s for s in steps)


def test_an_estimate_that_fits_runs_the_probe_even_when_the_budget_is_nearly_spent(monkeypatch):
    clock = FakeClock()
    _fake_probes(monkeypatch, clock, {"a": (9.0, 9.0), "b": (0.4, 0.4), "c": (0.6, 0.6)})
    fn = clock.work(0.1, result=1.0)
    d = _diagnose.diagnose(fn, (), {}, budget=10.0, clock=clock, fixes=False)
    assert d.probes == ("a", "b") and d.skipped["c"].startswith("skipped for time")


def test_an_unjitted_function_is_timed_op_by_op_before_the_probes_of_other_costs(monkeypatch):
    # real cases 060, 107, 196: unjitted, their Python loops run op by op, and the probes listed before the
    # dispatch one (an x64 copy, transfers, the compile split) spent the budget LB240 needed
    clock = FakeClock()
    _fake_probes(monkeypatch, clock, {"unrolled": (1.0, 1.0), "precision": (3.5, 3.5), "dispatch": (2.0, 2.0)})
    fn = clock.work(0.1, result=1.0)  # a python function: not jitted
    d = _diagnose.diagnose(fn, (), {}, budget=5.0, clock=clock, fixes=False)
    assert d.probes == ("unrolled", "dispatch")
    assert d.skipped["precision"].startswith("skipped for time")


def test_a_jitted_function_keeps_the_fixed_order():
    from levelbench._probing.probes import all_probes, in_order

    every = list(all_probes())
    assert in_order(every, jitted=True) == every
    names = [p.name for p in in_order(every, jitted=False)]
    assert names[names.index("unrolled") + 1] == "dispatch"
    assert sorted(names) == sorted(p.name for p in every)  # moved, none lost
    without = [p for p in every if p.name != "dispatch"]
    assert in_order(without, jitted=False) == without


def test_a_probe_that_only_reads_what_was_measured_runs_after_the_budget_is_spent(monkeypatch):
    # real cases 083, 137, 143 on a busy machine: the second call as given compiled again and took the whole
    # budget; the recompilation probe, which reads the two calls' compile counts, was skipped for time
    clock = FakeClock()
    _fake_probes(monkeypatch, clock, {"retrace": (0.0, 0.01), "precision": (0.5, 0.5)})
    fn = clock.work(itertools.chain([2.0, 6.0], itertools.repeat(0.5)), result=1.0)  # the second call: 6 s
    d = _diagnose.diagnose(fn, (), {}, budget=5.0, clock=clock, fixes=False)
    assert d.probes == ("retrace",)
    assert d.skipped["precision"].startswith("skipped for time")  # the twin: any work of its own is skipped


def test_beside_a_measurement_no_probe_is_skipped_for_time(monkeypatch):
    # levelbench run chooses the probes and passes its own timing: explain makes no call of its own
    clock = FakeClock()
    _fake_probes(monkeypatch, clock, {"a": (50.0, 0.0)})
    called = []
    given = types.SimpleNamespace()  # stands for run's Measurement; the fake probe never reads it
    d = _diagnose.diagnose(lambda: called.append(1), (), {}, budget=0.5, clock=clock, measurement=given,
                           fixes=False)
    assert d.probes == ("a",) and "budget" not in d.measured and not called


# -- progress on a terminal ----------------------------------------------------------------------
def test_progress_shows_only_after_a_few_seconds_and_clears_its_line():
    clock = FakeClock()
    out = io.StringIO()
    line = ProgressLine("explain", stream=out, clock=clock, force=True)
    line("running the 'dead' probe")
    assert out.getvalue() == ""  # a quick explain prints nothing
    clock.now = 5.0
    line("running the 'roofline' probe (then kernels)")
    assert "explain [5 s] running the 'roofline' probe (then kernels)" in out.getvalue()
    line.close()
    assert out.getvalue().endswith("\r\x1b[2K")


def test_progress_is_silent_when_standard_error_is_not_a_terminal():
    clock = FakeClock()
    out = io.StringIO()  # a pipe or a file: not a terminal
    line = ProgressLine("explain", stream=out, clock=clock)
    clock.now = 60.0
    line("running the 'dead' probe")
    line.close()
    assert out.getvalue() == ""


def test_the_unrolled_loop_probe_costs_the_share_of_steps_it_traces_on_each_axis_it_tries():
    np = pytest.importorskip("numpy")
    pytest.importorskip("jax")
    c = _budget.Costs(first_call=20.0, steady=0.01, compile=20.0, sample=0.5)
    long = _Subject()
    long.fn, long.args = (lambda xs: xs), (np.ones((1000, 8)),)
    square = _Subject()  # m, n = A.shape: both axes of the guessed argument are tried
    square.fn, square.args = (lambda a: a), (np.ones((200, 100)),)
    per_compile = 4 * _budget.PER_COMPILE
    assert _budget.estimate("unrolled", long, c) == pytest.approx(
        _budget.PROBE_OVERHEAD + 20.0 * 29 / 1000 + per_compile)
    assert _budget.estimate("unrolled", square, c) == pytest.approx(
        _budget.PROBE_OVERHEAD + 20.0 * 29 / 200 + 20.0 * 29 / 100 + 2 * per_compile)


# -- a fix trial that compiles another program than the one explain measured ----------------------
def _split_loop(key):  # returns nothing: under jit XLA empties it, so the trial jits it kept whole
    from jax import random

    for _ in range(40):
        key, sub = random.split(key)
        random.normal(sub, (3,))


def _compiles_during(fn):
    from jax import monitoring

    seen = []
    listener = lambda event, seconds, **kw: seen.append(seconds) if event.endswith("backend_compile_duration") else None
    monitoring.register_event_duration_secs_listener(listener)
    try:
        fn()
    finally:
        monitoring.unregister_event_duration_listener(listener)
    return seen


def test_a_kept_work_trial_estimates_its_own_compile_from_prefixes_of_the_program():
    import jax
    from jax import random

    from levelbench._probing import fixes

    key = random.PRNGKey(0)
    closed = jax.make_jaxpr(_split_loop)(key)
    assert len(closed.jaxpr.eqns) >= fixes.ESTIMATED_FROM
    out = {}
    compiles = _compiles_during(lambda: out.update(estimate=fixes.kept_compile_seconds(closed, (key,))))
    assert len(compiles) == 2  # the first eighth and the first quarter, each kept whole
    assert out["estimate"] >= 16 * compiles[1] * 0.99  # at least quadratic growth from the quarter to the whole
    # with no time left, the eighth alone decides (grown in proportion): the quarter is never compiled
    fresh = jax.make_jaxpr(lambda k: _split_loop(k))(random.PRNGKey(1))
    compiles = _compiles_during(lambda: out.update(estimate=fixes.kept_compile_seconds(fresh, (key,), left=0.0)))
    assert len(compiles) == 1 and out["estimate"] >= 8 * compiles[0] * 0.99
    small = jax.make_jaxpr(lambda k: random.split(k))(key)
    assert _compiles_during(lambda: out.update(estimate=fixes.kept_compile_seconds(small, (key,)))) == []
    assert out["estimate"] == 0.0


def test_a_trial_whose_variant_compile_would_not_fit_is_skipped_for_time_before_compiling_it(monkeypatch):
    from levelbench._probing import fixes

    calls = []
    variant = fixes.Variant("jit", "f = jax.jit(f)", lambda: None, (), {}, (),
                            compile_estimate=lambda left: calls.append(left) or 30.0)
    subject = types.SimpleNamespace(measured={"compile": {"total": 0.1}, "budget": {"second_call": 0.001}},
                                    budget=10.0, label="f", known=lambda fact: False, line=None)
    monkeypatch.setitem(fixes._BUILDERS, "LB240", lambda s, f: variant)
    monkeypatch.setattr(fixes, "_at", lambda s: "")
    measured = []
    monkeypatch.setattr(fixes, "measure_variant", lambda *a: measured.append(a))
    finding = fixes.Finding("LB240", "op by op", fixes.Severity.WARNING)
    import time

    trial = fixes._trial_for(subject, finding, {}, time.perf_counter() + 8.0, True)
    assert len(calls) == 1 and 7.0 < calls[0] <= 8.0 and measured == []
    assert trial.status == fixes.SKIPPED and "needs about 31 s" in trial.reason and "raise budget=" in trial.reason
    # without the time a trial needs anyway, the variant's compile is not even estimated
    calls.clear()
    trial = fixes._trial_for(subject, finding, {}, time.perf_counter() + 0.1, True)
    assert calls == [] and trial.status == fixes.SKIPPED
