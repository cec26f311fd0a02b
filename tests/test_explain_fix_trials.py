"""Measured fixes beyond jit (issue 16): donated buffers, the persistent compilation cache, XLA's
CPU dot alternatives. No speed ratio is asserted (noisy machines): what is checked is structure,
that agreement was checked before any timing, that a fix changing results is refused and not
timed, and that user state (arrays, jit caches, jax config, XLA_FLAGS) is left as it was.
"""

import os

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

from levelbench._probing import compile_cache as _compile_cache  # noqa: E402
from levelbench._probing import explain  # noqa: E402
from levelbench._probing import fixes as _fixes  # noqa: E402
from levelbench._probing import process_trials as _trials  # noqa: E402
from levelbench._probing import trial as _trial  # noqa: E402
from levelbench._probing import xla_options as _xla  # noqa: E402
from levelbench._probing.probes import kernels as _K  # noqa: E402
from levelbench._probing.donation import overwritten_inputs  # noqa: E402


# -- donated buffers (LB253) -------------------------------------------------------------------
@jax.jit
def update(x, i, v):
    return x.at[i].set(v)


def test_the_overwritten_input_is_found_in_the_program():
    x = jnp.zeros((600, 600))
    found = overwritten_inputs(jax.make_jaxpr(lambda x, i: (jnp.sum(x), x.at[i].set(1.0)))(x, 2))
    assert [(o.index, o.output, o.primitive) for o in found] == [(0, 1, "scatter")]
    assert found[0].nbytes == 600 * 600 * 4
    assert not overwritten_inputs(jax.make_jaxpr(lambda x: x * 2)(x))  # no update: nothing copied
    assert not overwritten_inputs(jax.make_jaxpr(lambda x: x.at[0].set(1.0))(jnp.zeros(16)))  # too small


def test_donation_is_measured_after_agreement_and_leaves_the_users_array_and_cache(steps):
    x = jnp.zeros((1024, 512))
    update(x, 0, 1.0)
    cached = update._cache_size()
    d = explain(update, x, 3, 1.0, probes=["donation"], budget=4)
    f = d.finding("LB253")
    assert f is not None, d.codes
    assert "donate_argnums=(0,)" in f.fix
    trial = f.data["fix_trial"]
    assert trial["status"] == "measured" and "donate_argnums=(0,)" in trial["expression"]
    assert trial["agreement"]["ok"] and trial["agreement"]["compared"]
    assert trial["speedup_low"] <= trial["speedup"] <= trial["speedup_high"]
    assert "measured fix" in f.evidence and "95% CI" in f.evidence
    first_block = next(i for i, s in enumerate(steps) if s[0] == "block")
    assert {s[1] for s in steps[:first_block] if s[0] == "first"} == {"as given", "fixed"}
    assert d.to_dict()["measured"]["fixes"][0]["finding"] == "LB253"
    # the user's array was never donated and the user's jit got no new entry
    assert not x.is_deleted() and float(x.sum()) == 0.0
    assert update._cache_size() == cached


def test_a_donated_variant_that_changes_the_results_is_refused_and_not_timed(steps):
    rng = np.random.default_rng(0)

    @jax.jit
    def noisy(x):  # a NumPy draw at trace time: the fresh jit bakes in another constant
        return x.at[0].set(rng.standard_normal())

    d = explain(noisy, jnp.zeros((1024, 512)), probes=["donation"], budget=4)
    trial = d.finding("LB253").data["fix_trial"]
    assert trial["status"] == "refused" and trial["speedup"] is None
    assert "fix not timed" in d.finding("LB253").evidence
    assert not [s for s in steps if s[0] == "block"]


def test_donation_is_not_suggested_twice_nor_tried_with_fixes_off(steps):
    donating = jax.jit(lambda x: x.at[0].set(1.0), donate_argnums=0)
    assert not explain(donating, jnp.zeros((1024, 512)), probes=["donation"], budget=2).has("LB253")
    d = explain(update, jnp.zeros((1024, 512)), 1, 2.0, probes=["donation"], budget=2, fixes=False)
    assert d.finding("LB253").data["fix_trial"]["status"] == "skipped"
    assert not steps


# -- the persistent compilation cache (LB270) --------------------------------------------------
@jax.jit
def unrolled(x):
    for _ in range(120):
        x = jnp.tanh(x) @ x + 1.0
    return x


def _cache_dirs():
    import tempfile

    return sorted(n for n in os.listdir(tempfile.gettempdir()) if n.startswith("levelbench-jax-cache-"))


def test_the_cache_is_measured_in_two_fresh_processes_and_nothing_of_the_users_changes(monkeypatch):
    # the mechanism, whatever this machine's speed: on a quiet one this program compiles in < 0.1 s
    monkeypatch.setattr(_trials, "CACHE_MIN_COMPILE", 0.0)
    before = (jax.config.jax_compilation_cache_dir, jax.config.jax_persistent_cache_min_compile_time_secs,
              os.environ.get("XLA_FLAGS"), os.environ.get("JAX_COMPILATION_CACHE_DIR"), _cache_dirs())
    d = explain(unrolled, jnp.ones((8, 8)), probes=["compile"], budget=20)
    f = d.finding("LB270")
    assert f is not None, d.codes
    trial = f.data["fix_trial"]
    assert trial["status"] == "measured" and trial["kind"] == "processes", trial
    assert trial["expression"] == _trials.CACHE_FIX
    assert trial["original"] > 0 and trial["fixed"] > 0 and trial["speedup"] == pytest.approx(
        trial["original"] / trial["fixed"])
    assert "in a fresh process" in f.evidence and "no CI" in f.evidence
    assert "counted a cache hit" in f.evidence  # the reading process did read what the first wrote
    after = (jax.config.jax_compilation_cache_dir, jax.config.jax_persistent_cache_min_compile_time_secs,
             os.environ.get("XLA_FLAGS"), os.environ.get("JAX_COMPILATION_CACHE_DIR"), _cache_dirs())
    assert after == before


def test_the_cache_trial_is_skipped_for_time_or_with_fixes_off(monkeypatch):
    import subprocess

    def no_process(*a, **k):
        raise AssertionError("no process may be started")

    monkeypatch.setattr(subprocess, "run", no_process)
    monkeypatch.setattr(_trials, "CACHE_MIN_COMPILE", 0.0)
    d = explain(unrolled, jnp.ones((8, 8)), probes=["compile"], budget=4, fixes=False)
    assert d.finding("LB270").data["fix_trial"]["status"] == "skipped"
    monkeypatch.setattr(_compile_cache, "IMPORT_SECONDS", 1e6)
    d = explain(unrolled, jnp.ones((8, 8)), probes=["compile"], budget=4)
    trial = d.finding("LB270").data["fix_trial"]
    assert trial["status"] == "skipped" and "raise budget=" in trial["reason"]
    assert "fix not measured (skipped)" in d.finding("LB270").evidence


# -- XLA's alternatives for the CPU dot (LB262) --------------------------------------------------
def test_only_what_the_installed_jaxlib_accepts_is_offered():
    bogus = _xla.Alternative("bogus", "", {"xla_cpu_no_such_option_anywhere": True})
    ok, refused = _xla.offered((*_xla.ALTERNATIVES, bogus))
    assert bogus not in ok and "not offered by jaxlib" in refused["bogus"]
    assert any(a.precision == "highest" for a in ok)  # a precision needs no compiler option


def test_the_exported_program_runs_in_a_worker_as_the_users_does(tmp_path):
    def program(a, b):
        return jnp.tanh(a @ b).sum(axis=0)

    a = jnp.asarray(np.random.default_rng(0).standard_normal((64, 32), dtype=np.float32))
    b = jnp.asarray(np.random.default_rng(1).standard_normal((32, 16), dtype=np.float32))
    eigen = _xla.ALTERNATIVES[0]
    highest = next(x for x in _xla.ALTERNATIVES if x.precision)
    built = _xla.write_program(jax.jit(program), (a, b), {}, str(tmp_path), [eigen, highest])
    assert set(built) == {_xla.DEFAULT, _xla.PLACEBO, eigen.name, highest.name}
    assert built[highest.name]["program"] != built[_xla.DEFAULT]["program"]
    for name, kw in built.items():
        c = _xla.exported_program(**kw)  # what each worker builds
        np.testing.assert_allclose(np.asarray(c.fn(*c.args)), np.asarray(program(a, b)), rtol=1e-5, atol=1e-5)


def _lb262(severity):
    from levelbench import Finding

    return Finding("LB262", "title", severity, evidence="e", cost="", fix="the probe's fix", data={"kernel": {}})


def _alternatives_trial(faster):
    m = {"name": "Eigen dot (YNNPACK off)", "code": "compile({...})", "ratio": 0.8, "lower": 0.75, "upper": 0.85,
         "seconds": 0.8, "agree": True, "faster": faster}
    return _trial.FixTrial("LB262", "measured", m["code"] if faster else _trials.XLA_FIX, original=1.0,
                           fixed=0.8 if faster else None, speedup=1.25 if faster else None,
                           speedup_low=1 / 0.85 if faster else None, speedup_high=1 / 0.75 if faster else None,
                           kind=_trial.ALTERNATIVES, alternatives=(m,))


def test_an_alternative_is_kept_in_the_fix_only_when_faster():
    from levelbench import Severity

    kept = _fixes._with_trial(_lb262(Severity.INFO), _alternatives_trial(True))
    assert kept.fix.startswith("measured 1.25x faster on the whole program (Eigen dot") and "compile({...})" in kept.fix
    assert "measured XLA alternatives on the whole program" in kept.evidence
    assert kept.data["fix_trial"]["alternatives"][0]["faster"]
    dropped = _fixes._with_trial(_lb262(Severity.INFO), _alternatives_trial(False))
    assert dropped.fix == "the probe's fix" and "none is faster" in dropped.evidence


def test_the_alternatives_are_measured_isolated_and_leave_the_users_state(monkeypatch):
    monkeypatch.setattr(_xla, "ALTERNATIVES", _xla.ALTERNATIVES[:1])
    monkeypatch.setattr(_xla.offered, "__defaults__", (_xla.ALTERNATIVES,))
    monkeypatch.setattr(_K, "MIN_KERNEL_FLOPS", 0.0)
    _K._done.clear()
    before = (jax.config.jax_default_matmul_precision, jax.config.jax_enable_x64, os.environ.get("XLA_FLAGS"))
    x = jnp.asarray(np.random.default_rng(0).standard_normal((128, 128), dtype=np.float32))
    f = jax.jit(jnp.dot)
    f(x, x)
    cached = f._cache_size()
    d = explain(f, x, x, probes=["kernels"], budget=60)
    trial = d.finding("LB262").data["fix_trial"]
    assert trial["status"] == "measured" and trial["kind"] == "alternatives", trial
    [m] = trial["alternatives"]
    assert m["name"] == _xla.ALTERNATIVES[0].name and m["agree"] and m["lower"] <= m["ratio"] <= m["upper"]
    assert "noise floor" in trial["note"]
    after = (jax.config.jax_default_matmul_precision, jax.config.jax_enable_x64, os.environ.get("XLA_FLAGS"))
    assert after == before and f._cache_size() == cached


def test_the_alternatives_start_no_worker_with_fixes_off_or_out_of_budget(monkeypatch):
    import time

    from levelbench._probing.subject import Subject

    def no_worker(*a, **k):
        raise AssertionError("no worker may be started")

    monkeypatch.setattr(_xla, "measure", no_worker)
    x = jnp.ones((64, 64))
    subject = Subject(jax.jit(jnp.dot), (x, x), {}, label="dot", framework="jax", budget=10)
    finding = _lb262(_fixes.Severity.INFO)
    off = _fixes._trial_for(subject, finding, {}, time.perf_counter() + 100, enabled=False)
    assert off.status == "skipped" and "fixes=False" in off.reason
    late = _fixes._trial_for(subject, finding, {}, time.perf_counter(), enabled=True)
    assert late.status == "skipped" and "raise budget=" in late.reason and late.kind == "alternatives"


def test_run_tries_the_alternatives_only_where_lb262_claims_a_gap(monkeypatch):
    from levelbench import Candidate, Severity
    from levelbench.workloads import run as _run

    asked = []

    def measure(fn, args, kwargs, timing, timeout, alternatives=None):
        asked.append(timing)
        raise RuntimeError("no worker in this test")  # reported in the finding as a failed trial

    monkeypatch.setattr(_xla, "measure", measure)
    x = jnp.ones((64, 64))
    c = Candidate(jax.jit(jnp.dot), (x, x))
    no_gap = _lb262(Severity.INFO)
    assert _run._what_changes_it(c, no_gap) is no_gap and not asked
    gap = _run._what_changes_it(c, _lb262(Severity.WARNING))
    assert len(asked) == 1
    trial = gap.data["fix_trial"]
    assert trial["kind"] == "alternatives" and trial["status"] == "failed" and "no worker in this test" in trial["reason"]
