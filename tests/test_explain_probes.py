"""Each explain probe on a small function that has its problem, and on one that does not.

Functions are defined inside each test: JAX caches traces and compilations per function, and a
probe that looks for recompilation must see a function nobody has called before.
"""

import functools
import types

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

from levelbench import Severity  # noqa: E402
from levelbench._probing import Call, explain  # noqa: E402
from levelbench._probing.probes import compile_share, config, dispatch, precision, pytorch, roofline  # noqa: E402


def codes(d):
    return {f.code for f in d.findings}


# -- unrolled ---------------------------------------------------------------------------------
def test_unrolled_loop_grows_linearly_and_is_projected_at_the_full_length():
    w = jnp.eye(8) * 0.5

    def loop(w, xs):
        h = jnp.zeros(8)
        for x in xs:
            h = jnp.tanh(w @ h + x)
        return h

    d = explain(jax.jit(loop), w, jnp.ones((200, 8)), probes=["unrolled"], budget=4)
    f = d.finding("LB201")
    assert f is not None and f.severity == Severity.WARNING
    assert f.data["lengths"] == [4, 8, 16]
    assert f.data["equations_per_step"] == pytest.approx(5, abs=0.5)  # slice, squeeze, dot, add, tanh
    assert f.data["length"] == 200 and f.data["projected_equations"] == pytest.approx(1000, rel=0.05)
    assert f.data["cost_seconds"] > 0
    assert "xs" in f.title and "lax.scan" in f.fix
    assert f.subject.endswith("(loop)")  # the line of the loop in this file


def test_scan_version_does_not_grow():
    def scanned(w, xs):
        return jax.lax.scan(lambda h, x: (jnp.tanh(w @ h + x), None), jnp.zeros(8), xs)[0]

    d = explain(jax.jit(scanned), jnp.eye(8), jnp.ones((200, 8)), probes=["unrolled"])
    assert not codes(d) & {"LB201", "LB202"}
    assert d.measured["scale"]["linear"] is False
    assert d.measured["scale"]["equations"][0] == d.measured["scale"]["equations"][-1]


def test_repeated_block_found_without_a_sequence_axis():
    def layers(x, w):
        for _ in range(24):
            x = jnp.tanh(x @ w)
        return x

    x = jnp.ones((8, 32))
    d = explain(jax.jit(layers), x, jnp.ones((32, 32)), probes=["unrolled"], scale_axis=False)
    f = d.finding("LB202")
    assert f is not None and f.data["repeats"] == 24 and f.data["block"] == 2
    assert f.severity == Severity.WARNING


def test_long_unrolled_input_is_shortened_for_the_probes_after():
    def loop(w, xs):
        h = jnp.zeros(4)
        for x in xs:
            h = w @ h + x
        # returns nothing, like the seed question

    # 50,000 steps: the projected compile time (tens of seconds on any machine) is far above the
    # 1 s threshold, so the outcome does not depend on how fast this machine compiles.
    n = 50_000
    d = explain(jax.jit(loop), jnp.eye(4), jnp.ones((n, 4)), probes=["unrolled", "dead"], budget=1)
    assert {"LB201", "LB220"} <= codes(d)
    assert d.measured["shortened"]["to"] == 8 and d.measured["shortened"]["length"] == n
    assert d.measured["equations"] < 100  # the dead-work probe traced 8 steps, not 50,000
    assert any(f"cut to 8 of {n:,}" in note or f"cut to 8 of {n}" in note for note in d.notes), d.notes


# -- retrace ----------------------------------------------------------------------------------
def test_jit_created_inside_recompiles_every_identical_call():
    def inner_jit(x):
        return jax.jit(lambda y: y * 2 + 1)(x)

    d = explain(inner_jit, jnp.ones(16), probes=["retrace"])
    f = d.finding("LB210")
    assert f is not None and f.severity == Severity.ERROR
    # decided on explain's own two calls as given: the second, identical one compiled the lambda again
    assert d.measured["retrace"]["calls"] == 2 and d.measured["retrace"]["compilations"][1] == 1
    assert "test_explain_probes.py" in f.subject  # where the re-created lambda is defined
    assert "jax.jit(step)" in f.fix


def test_identical_calls_that_compile_again_are_blamed_before_any_changed_argument():
    """The user's sequence changes n, but the function compiles again on identical calls too (a jit
    of a fresh lambda per call): the recompiles are LB210, not n's (LB211), and the sequence is not
    even run, so the probe fits any budget."""
    def inner_jit(x, n):
        return jax.jit(lambda y: y * 2 + n)(x)

    x = jnp.ones(16)
    d = explain(inner_jit, calls=[(x, 1), (x, 2), (x, 3)], probes=["retrace", "dispatch"], budget=0.5)
    assert d.finding("LB210") is not None and d.finding("LB211") is None
    assert d.measured["retrace"]["calls"] == 2  # explain's own calls as given, no more
    assert d.measured["budget"]["estimates"]["retrace"] < 0.1 and "retrace" in d.probes
    assert d.finding("LB240") is None  # its time is compilation, not op-by-op dispatch
    assert any("compiles on every call" in note for note in d.notes), d.notes


def test_a_second_call_that_compiles_nothing_leaves_the_repeated_calls_to_the_probe():
    from levelbench._probing.subject import CallRecord, Subject

    subject = Subject(jax.jit(jnp.sin), (jnp.ones(3),), {}, label="sin", framework="jax")
    subject.record_given_calls([CallRecord(1, 1, 0.1, ("jit(sin)",), ()), CallRecord(0, 0, 0.0, (), ())])
    assert not subject.known("repeated_calls")
    subject.record_given_calls([CallRecord(1, 1, 0.1, ("jit(f)",), ()), CallRecord(1, 1, 0.1, ("jit(f)",), ())])
    assert subject.known("repeated_calls") and subject.compiles_every_call()


def test_python_int_changing_every_call_is_named_with_old_and_new_values():
    scale = jax.jit(lambda x, n: x * n, static_argnums=1)
    x = jnp.ones(16)
    d = explain(scale, calls=[(x, 1), (x, 2), (x, 3)], probes=["retrace"])
    f = d.finding("LB211")
    assert f is not None
    assert (f.data["argument"], f.data["kind"], f.data["old"], f.data["new"]) == ("n", "value", "1", "2")
    assert f.data["calls"] == [2, 3]


def test_changing_shape_is_named():
    total = jax.jit(lambda x: x.sum())
    d = explain(total, calls=[Call(jnp.ones(3)), Call(jnp.ones(4))], probes=["retrace"])
    f = d.finding("LB211")
    assert f is not None and (f.data["kind"], f.data["old"], f.data["new"]) == ("shape", "(3,)", "(4,)")


def test_traced_int_that_changes_does_not_recompile():
    scale = jax.jit(lambda x, n: x * n)  # n is traced, not static: one program for every value
    x = jnp.ones(16)
    d = explain(scale, calls=[(x, 1), (x, 2), (x, 3)], probes=["retrace"])
    assert not codes(d)


def test_static_int_is_tried_with_another_value():
    scale = jax.jit(lambda x, n: x * n, static_argnums=1)
    d = explain(scale, jnp.ones(16), 3, probes=["retrace"])
    f = d.finding("LB212")
    assert f is not None and f.subject == "n" and f.severity == Severity.INFO
    plain = jax.jit(lambda x: x * 3)
    assert not codes(explain(plain, jnp.ones(16), probes=["retrace"]))


# -- dead work --------------------------------------------------------------------------------
def test_jitted_function_returning_nothing_is_an_error_with_dispatch_evidence():
    def no_return(x, w):
        y = x @ w  # noqa: F841

    d = explain(jax.jit(no_return), jnp.ones((64, 64)), jnp.ones((64, 64)), probes=["dead"])
    f = d.finding("LB220")
    assert f is not None and f.severity == Severity.ERROR
    assert "XLA removed all of its work" in f.title
    assert "no outputs" in f.evidence and "dispatch" in f.evidence
    assert "return" in f.fix


def test_unjitted_function_returning_nothing_is_a_note():
    # Unjitted, the work runs and is timed: "XLA would remove it" is a note for when it is jitted,
    # not the cause of anything measured now (it used to be a warning: wrong on real cases).
    def no_return(x):
        y = jnp.sin(x)  # noqa: F841

    f = explain(no_return, jnp.ones(8), probes=["dead"]).finding("LB220")
    assert f is not None and f.severity == Severity.INFO and "would remove" in f.title


def test_output_from_constants_only():
    w = jnp.ones((16, 16))
    d = explain(jax.jit(lambda x: w @ w), jnp.ones(16), probes=["dead"])
    assert codes(d) == {"LB221"}


def test_dead_matmul_is_reported_and_live_work_is_not():
    def half_dead(x, w):
        unused = x @ w  # noqa: F841
        return x + 1

    x = jnp.ones((128, 128))
    f = explain(jax.jit(half_dead), x, x, probes=["dead"]).finding("LB222")
    assert f is not None and f.data["dead_matmuls"] == 1
    assert not codes(explain(jax.jit(lambda a, b: a @ b), x, x, probes=["dead"]))


# -- precision --------------------------------------------------------------------------------
def test_float64_numpy_inputs_to_jnp_dot_are_reported_truncated():
    a = np.random.default_rng(0).standard_normal((32, 32))
    f = explain(jnp.dot, a, a, probes=["precision"]).finding("LB230")
    assert f is not None and "float32" in f.evidence and "jax_enable_x64" in f.fix
    assert not codes(explain(jnp.dot, a.astype(np.float32), a.astype(np.float32), probes=["precision"]))


def test_float64_request_inside_is_reported_at_its_line():
    def widen(x):
        y = jnp.asarray(x, dtype=jnp.float64)
        return y * 2

    f = explain(widen, jnp.ones(4), probes=["precision"]).finding("LB231")
    assert f is not None and "test_explain_probes.py" in f.subject
    assert f.data["line"] == widen.__code__.co_firstlineno + 1


def test_matmul_precision_is_flagged_on_gpu_only():
    closed = jax.make_jaxpr(lambda a: a @ a)(jnp.ones((4, 4)))
    assert precision.matmul_precision(closed, "gpu", None)[0].code == "LB232"
    assert precision.matmul_precision(closed, "cpu", None) == []
    assert precision.matmul_precision(closed, "gpu", "highest") == []


# -- dispatch ---------------------------------------------------------------------------------
def test_eager_function_is_timed_against_itself_jitted():
    def many_ops(x):
        for _ in range(40):
            x = jnp.sin(x) * 0.5 + 1
        return x

    d = explain(many_ops, jnp.ones(8), probes=["dispatch"])
    f = d.finding("LB240")
    assert f is not None
    assert f.data["dispatches"] == 120 and f.data["ratio"] >= 2
    assert "jax.jit(many_ops)" in f.fix
    assert not codes(explain(jax.jit(many_ops), jnp.ones(8), probes=["dispatch"]))


def test_dispatch_finding_needs_a_real_saving():
    assert dispatch.dispatch_finding("f", 10, eager=1e-3, jitted=1e-4, compile_total=0.1)[0].data["ratio"] == 10
    assert dispatch.dispatch_finding("f", 10, eager=1.5e-4, jitted=1e-4, compile_total=0.1) == []
    assert dispatch.dispatch_finding("f", 1, eager=3e-6, jitted=1e-6, compile_total=0.1) == []


def test_a_busy_machine_leaves_a_speed_up_of_hundreds_a_warning():
    # real case 196: run op by op, 354x slower than jitted (interval 295x-418x), timed while the process had
    # a core for 48% of the rounds: even with every wait counted against the call as given, it is far past 2x
    eager = [0.118 * (1 + 0.02 * np.sin(i)) for i in range(8)]
    jitted = [3.3e-4 * (1 + 0.02 * np.cos(i)) for i in range(8)]
    [f] = dispatch.dispatch_finding("f", 3000, eager=1.0, jitted=1.0, compile_total=1.2,
                                    paired=(eager, jitted, 0.48))
    assert f.severity == Severity.WARNING and not f.data.get("borderline")
    assert "ran on a CPU" not in f.evidence


def test_a_busy_machine_still_doubts_a_speed_up_its_waits_could_explain():
    # the quiet twin: 3x on fast calls at the same share; waits of half a round could make all of it
    eager = [3e-4 * (1 + 0.02 * np.sin(i)) for i in range(15)]
    jitted = [1e-4 * (1 + 0.02 * np.cos(i)) for i in range(15)]
    [f] = dispatch.dispatch_finding("f", 10, eager=1.0, jitted=1.0, compile_total=0.1, paired=(eager, jitted, 0.48))
    assert f.severity == Severity.INFO and f.data["borderline"]
    assert "ran on a CPU for 48% of the time it was timed" in f.evidence


# -- transfers --------------------------------------------------------------------------------
def test_numpy_input_copy_is_timed():
    f = explain(jax.jit(lambda x: x * 2), np.ones((512, 512), np.float32), probes=["transfers"]).finding("LB250")
    assert f is not None and f.data["bytes"] == 512 * 512 * 4 and f.data["cost_seconds"] > 0
    assert not codes(explain(jax.jit(lambda x: x * 2), jnp.ones((512, 512)), probes=["transfers"]))


def test_host_callback_in_the_program():
    def printing(x):
        jax.debug.print("x0={x}", x=x[0])
        return x * 2

    f = explain(jax.jit(printing), jnp.ones(8), probes=["transfers"]).finding("LB251")
    assert f is not None and "debug" in f.evidence


def test_host_read_in_unjitted_function():
    def branches(x):
        if x.sum() > 0:
            return x * 2
        return x

    f = explain(branches, jnp.ones(8), probes=["transfers"]).finding("LB252")
    assert f is not None and f.data["error"] == "TracerBoolConversionError"
    assert f"{branches.__code__.co_firstlineno + 1}" in f.subject


# -- compile share ----------------------------------------------------------------------------
def test_compile_finding_reports_split_and_payback():
    [f] = compile_share.compile_finding("f", 0.2, 0.05, 0.75, first_call=0.01, steady=1e-3, eager=3e-3)
    assert f.title.startswith("compilation takes 1 s, as long as 1,000 steady calls")
    assert f.data["payback_calls"] == pytest.approx(500)
    assert f.severity == Severity.WARNING
    assert compile_share.compile_finding("f", 1e-3, 1e-3, 1e-3, first_call=1e-3, steady=1e-3, eager=None) == []


def test_compile_probe_measures_a_jitted_function():
    d = explain(jax.jit(lambda a: jnp.tanh(a @ a).sum()), jnp.ones((64, 64)), probes=["compile"])
    split = d.measured["compile"]
    assert split["trace"] > 0 and split["compile"] > 0 and not split["cached"]
    assert d.measured["steady"] > 0 and d.measured["first_call"] > 0


# -- roofline ---------------------------------------------------------------------------------
@pytest.mark.parametrize("cost, problem", [
    (None, "no cost analysis"), ({}, "empty"), ({"flops": -1.0}, "flops = -1"), ({"bytes accessed": 8.0}, "no 'flops'"),
])
def test_invalid_cost_analysis_is_said_not_printed(cost, problem):
    assert problem in roofline.invalid_cost(cost)


def test_roofline_classifies_the_bound():
    [compute] = roofline.roofline_finding("f", 1e9, 1e6, 0.02, peak=1e11, bandwidth=1e10, floor=1e-5,
                                          loops=False, dtype="float32")
    assert compute.data["bound"] == "compute" and compute.data["cost_seconds"] == pytest.approx(0.01)
    [overhead] = roofline.roofline_finding("f", 1e3, 1e3, 2e-5, peak=1e11, bandwidth=1e10, floor=1e-5,
                                           loops=False, dtype="float32")
    assert overhead.data["bound"] == "overhead"
    [unknown] = roofline.roofline_finding("f", 1e9, 1e6, 0.02, peak=None, bandwidth=None, floor=None,
                                          loops=False, dtype="float32")
    assert "peak unknown" in unknown.title and not unknown.data["cost_seconds"]


def test_roofline_probe_on_a_matmul(monkeypatch):
    monkeypatch.setattr(roofline, "machine_peak_flops", lambda dtype: 1e11)
    d = explain(jax.jit(lambda a, b: a @ b), jnp.ones((128, 128)), jnp.ones((128, 128)), probes=["roofline"])
    f = d.finding("LB260")
    assert f is not None and f.data["flops"] == 2 * 128**3 and f.data["peak_flops"] == 1e11


# -- config -----------------------------------------------------------------------------------
def test_debug_options_are_reported():
    on = types.SimpleNamespace(jax_disable_jit=True, jax_debug_nans=True, jax_debug_infs=False,
                               jax_enable_checks=False, jax_log_compiles=False)
    found = config.run(None, on)
    assert [f.code for f in found] == ["LB290", "LB291"] and found[1].subject == "jax_debug_nans"
    off = types.SimpleNamespace(jax_disable_jit=False)
    assert config.run(None, off) == []


# -- PyTorch ----------------------------------------------------------------------------------
def test_torch_module_in_training_mode_with_autograd():
    torch = pytest.importorskip("torch")
    model = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.Dropout(0.1))
    x = torch.ones(4, 16)
    d = explain(model, x, quick=True)
    assert d.framework == "torch"
    assert {"LB280", "LB281", "LB283"} <= codes(d)
    assert d.finding("LB281").severity == Severity.WARNING  # it has dropout
    model.eval()
    d = explain(functools.partial(_no_grad_call, model), x, quick=True)
    assert not codes(d) & {"LB280", "LB281"}


def _no_grad_call(model, x):
    import torch

    with torch.inference_mode():
        return model(x)




def _fit_step(model, x):
    out = model(x)
    out.mean().backward()
    return out


def test_lb280_not_offered_to_a_call_that_runs_its_own_backward_pass():
    """Timing forward and backward is timing training: the graph is the work, and inference mode (where backward
    cannot run) is no comparison. A backward pass is seen by what it writes, the parameters' gradients."""
    torch = pytest.importorskip("torch")
    model = torch.nn.Linear(8, 8).eval()
    d = explain(_fit_step, model, torch.ones(4, 8), quick=True)
    assert "LB280" not in codes(d)
    d = explain(_fit_step, model, torch.ones(4, 8), quick=True)  # gradients accumulate into an existing .grad
    assert "LB280" not in codes(d)
    weights = torch.ones(8, 8, requires_grad=True)
    d = explain(lambda w, x: _backward_of(w, x), weights, torch.ones(4, 8), quick=True)
    assert "LB280" not in codes(d)


def _backward_of(w, x):
    y = x @ w
    y.sum().backward()
    return y


def test_lb280_still_reported_for_a_forward_that_only_builds_the_graph():
    torch = pytest.importorskip("torch")
    model = torch.nn.Linear(8, 8).eval()
    assert "LB280" in codes(explain(lambda m, x: m(x) * 2, model, torch.ones(4, 8), quick=True))
    weights = torch.ones(8, 8, requires_grad=True)
    assert "LB280" in codes(explain(lambda w, x: x @ w, weights, torch.ones(4, 8), quick=True))


def test_torch_threads_and_float64():
    assert pytorch.threads(1, 2)[0].code == "LB282"
    assert pytorch.threads(2, 2) == []
    torch = pytest.importorskip("torch")
    [f] = pytorch.device_and_dtype([torch.ones(2, dtype=torch.float64)], [])
    assert f.severity == Severity.WARNING and "float64" in f.title
