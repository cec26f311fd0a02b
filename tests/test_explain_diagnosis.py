"""`Diagnosis`: ranking, serialisation, rendering, attaching to a measurement; `explain`'s argument checks."""

import json

import pytest

from conftest import FakeClock
from levelbench import Finding, Measurement, Severity
from levelbench._probing import Diagnosis, explain
from levelbench._results.diagnosis import rank
from levelbench._probing.diagnose import CallFailed, select_probes


def _finding(code, severity, cost=None):
    data = {"cost_seconds": cost} if cost is not None else {}
    return Finding(code, f"title {code}", severity, evidence="e", fix="f", data=data)


def test_rank_puts_costly_problems_first_and_notes_last():
    found = [
        _finding("LB270", Severity.INFO, cost=50.0),
        _finding("LB220", Severity.ERROR),
        _finding("LB201", Severity.WARNING, cost=40.0),
        _finding("LB250", Severity.WARNING, cost=0.001),
    ]
    assert [f.code for f in rank(found)] == ["LB201", "LB250", "LB220", "LB270"]


def _diagnosis():
    return Diagnosis(
        label="forward",
        framework="jax",
        findings=rank([_finding("LB220", Severity.ERROR), _finding("LB201", Severity.WARNING, cost=12.5)]),
        measured={"equations": 480, "outputs": 0, "steady": 9e-5, "ratio": float("inf"),
                  "scale": {"axis": {"name": "X"}, "lengths": [4, 8, 16], "equations": [240, 480, 960],
                            "equations_per_step": 60.0, "linear": True, "projected_seconds": 12.5, "length": 1000}},
        probes=("unrolled", "dead"),
        skipped={"roofline": "not selected: quick=True", "retrace": "failed: ValueError: boom"},
        notes=("probes after 'unrolled' ran with X cut to 8 of 1000",),
        elapsed=1.5,
    )


def test_round_trip_through_json():
    d = _diagnosis()
    doc = json.loads(json.dumps(d.to_dict()))
    assert doc["format"] == "levelbench.diagnosis" and doc["measured"]["ratio"] is None  # no inf in JSON
    again = Diagnosis.from_dict(doc)
    assert again.codes == ("LB201", "LB220") and again.skipped == d.skipped and again.notes == d.notes


def test_from_dict_rejects_other_documents_and_newer_versions():
    with pytest.raises(ValueError, match="expected a 'levelbench.diagnosis' document"):
        Diagnosis.from_dict({"format": "levelbench.measurement"})
    with pytest.raises(ValueError, match="upgrade levelbench"):
        Diagnosis.from_dict({**_diagnosis().to_dict(), "version": 99})


def test_report_lists_numbers_then_findings_in_rank_order():
    text = str(_diagnosis())
    assert text.startswith("explain forward")
    assert "240/480/960 equations at 4/8/16 steps of X (+60 per step)" in text
    assert "12.5 s to trace and compile at 1,000 steps" in text
    assert text.index("1. warning LB201") < text.index("2. error LB220")
    assert "probe retrace not run: failed: ValueError: boom" in text
    assert "quick=True" not in text  # probes left out on purpose are not noise in the report


def test_attach_to_a_measurement_adds_findings_once():
    m = Measurement(label="forward", framework="jax", samples=(1e-4, 1e-4, 1e-4), calls_per_sample=1,
                    first_call=1e-3, findings=(_finding("LB220", Severity.ERROR),))
    merged = _diagnosis().attach_to(m)
    assert [f.code for f in merged.findings] == ["LB220", "LB201"]
    assert merged.median == m.median


def test_select_probes_by_name_and_quick():
    selected, skipped = select_probes(["dead", "retrace"], quick=False)
    assert [p.name for p in selected] == ["dead", "retrace"] and "unrolled" in skipped
    selected, skipped = select_probes(None, quick=True)
    assert "unrolled" not in [p.name for p in selected] and skipped["roofline"] == "not selected: quick=True"
    with pytest.raises(ValueError, match="unknown probe.*'deadd'.*expected some of"):
        select_probes(["deadd"], quick=False)


def test_explain_checks_its_arguments():
    pytest.importorskip("jax")
    import jax.numpy as jnp

    with pytest.raises(TypeError, match=r"not explain\(f\(x\)\)"):
        explain(jnp.ones(3))
    with pytest.raises(ValueError, match="array arguments are: x"):
        explain(lambda x: x * 2, jnp.ones((40, 2)), scale_axis="y")
    with pytest.raises(ValueError, match="calls= is empty"):
        explain(lambda x: x, calls=[])


def test_a_failing_probe_is_recorded_not_raised(monkeypatch):
    pytest.importorskip("jax")
    import dataclasses

    import jax.numpy as jnp
    from levelbench._probing import diagnose as _diagnose

    def broken(subject):
        raise RuntimeError("the probe is broken")

    probes = tuple(dataclasses.replace(p, run=broken) if p.name == "retrace" else p for p in _diagnose.all_probes())
    monkeypatch.setattr(_diagnose, "all_probes", lambda: probes)
    d = explain(jnp.sin, jnp.ones(3), probes=["retrace"])
    assert d.skipped["retrace"].startswith("failed: RuntimeError: the probe is broken")
    assert d.findings == ()


# Defect 13: a function that always raises, arguments that do not fit it, or a generator function
# were reported as "nothing found"; the call as given is now checked, and its failure raised.
def test_a_function_that_always_raises_is_an_error_naming_the_exception_and_its_line():
    pytest.importorskip("jax")
    import jax.numpy as jnp

    def broken(x):
        raise ValueError("boom")

    with pytest.raises(CallFailed, match=r"calling broken as given raised ValueError: boom at "
                                         r"test_explain_diagnosis.py:\d+ in broken: .*fix the function") as e:
        explain(broken, jnp.ones(3), probes=["retrace"])
    assert isinstance(e.value.__cause__, ValueError)


def test_example_arguments_that_do_not_fit_are_an_error_with_the_signature():
    with pytest.raises(CallFailed, match=r"calling one with the example arguments \(3 positional, 0 keyword\) raised "
                                         r"TypeError: .*takes 1 positional argument but 3 were given: make the example "
                                         r"arguments fit one\(x\)"):
        explain(one, 1, 2, 3, quick=True)


def one(x):
    return x


def test_a_generator_or_async_function_is_an_error_saying_nothing_ran(recwarn):
    def gen(x):
        yield x

    async def co(x):
        return x

    with pytest.raises(CallFailed, match="gen returned a lazy generator: nothing ran.*LB001"):
        explain(gen, 1, quick=True)
    with pytest.raises(CallFailed, match="co returned a coroutine: nothing ran.*LB001"):
        explain(co, 1, quick=True)
    import gc

    gc.collect()
    assert not [w for w in recwarn if "never awaited" in str(w.message)]


def test_numpy_function_is_not_diagnosed_as_jax():
    np = pytest.importorskip("numpy")
    d = explain(np.dot, np.ones((4, 4)), np.ones((4, 4)), quick=True)
    assert d.framework == "numpy" and d.findings == () and "explain diagnoses JAX functions" in d.notes[-1]


def test_stopwatch_takes_fewer_samples_of_a_call_slower_than_the_budget():
    from levelbench._measuring.sampler import quick_timing

    clock = FakeClock()
    t = quick_timing(clock.work(0.4), (), {}, budget=0.5, timer=clock)
    assert (t.samples, t.calls_per_sample) == (2, 1)
    assert t.first_call == pytest.approx(0.4) and t.median == pytest.approx(0.4)
    assert clock.calls == 3 and t.dispatch_floor is None


def test_stopwatch_batches_fast_calls_and_stops_at_the_sample_cap():
    from levelbench._measuring.sampler import quick_timing
    from levelbench._values.settings import PROBING

    clock = FakeClock()
    t = quick_timing(clock.work(1e-4), (), {}, budget=0.5, timer=clock)
    assert t.calls_per_sample * 1e-4 >= PROBING.sample_seconds
    assert t.samples == PROBING.max_samples and t.median == pytest.approx(1e-4)
