"""Measured fixes (issue 16): explain builds the fixed variant, checks it agrees, then times it.

No speed ratio is asserted (these machines are noisy): what is checked is that a ratio with its CI
is reported, that the agreement check ran before any timing, that a variant changing the results
is refused and never timed, and that the user's function, caches and JAX config are left alone.
"""

import json
import textwrap

import numpy as np
import pytest
from conftest import levelbench_cli

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

from levelbench._probing import Diagnosis, explain  # noqa: E402
from levelbench._probing import fixes as _fixes  # noqa: E402


def loss(x):
    for _ in range(12):
        x = jnp.sin(x) * 1.01
    return jnp.sum(x)


grad_loss = jax.grad(loss)


def test_jit_of_grad_is_measured_after_its_outputs_agree(steps):
    d = explain(grad_loss, jnp.linspace(0, 1, 32), probes=["dispatch"], budget=4)
    f = d.finding("LB240")
    assert f is not None, d.codes
    trial = f.data["fix_trial"]
    assert trial["status"] == "measured"
    assert trial["expression"] == "grad_loss = jax.jit(jax.grad(loss))"
    assert trial["agreement"]["ok"] and trial["agreement"]["compared"]
    assert trial["speedup_low"] <= trial["speedup"] <= trial["speedup_high"]
    assert trial["original"] > 0 and trial["fixed"] > 0 and trial["rounds"] >= _fixes.TRIAL_ROUNDS
    assert "measured fix" in f.evidence and "95% CI" in f.evidence and "outputs agree" in f.evidence
    # both first calls (the agreement check) came before the first block of timed samples
    first_block = next(i for i, s in enumerate(steps) if s[0] == "block")
    assert {s[1] for s in steps[:first_block] if s[0] == "first"} == {"as given", "fixed"}
    # and the figures survive to_dict / JSON
    again = Diagnosis.from_dict(json.loads(d.to_json()))
    assert again.finding("LB240").data["fix_trial"]["speedup"] == pytest.approx(trial["speedup"])
    assert d.to_dict()["measured"]["fixes"][0]["finding"] == "LB240"


def test_a_fix_that_changes_the_results_is_refused_and_not_timed(steps):
    rng = np.random.default_rng(0)

    def noisy(x):  # a NumPy draw: a new number every eager call, one constant baked in under jit
        for _ in range(12):
            x = jnp.cos(x)
        return x + rng.standard_normal()

    d = explain(noisy, jnp.ones(8), probes=["dispatch"], budget=4)
    f = d.finding("LB240")
    assert f is not None, d.codes
    trial = f.data["fix_trial"]
    assert trial["status"] == "refused"
    assert trial["agreement"]["ok"] is False and "not the same computation" in trial["reason"]
    assert trial["speedup"] is None and trial["original"] is None
    assert "fix not timed" in f.evidence and "changes the results" in f.evidence
    assert not [s for s in steps if s[0] == "block"]  # nothing was timed


def test_fixes_off_builds_and_times_nothing(steps):
    d = explain(grad_loss, jnp.ones(16), probes=["dispatch"], budget=4, fixes=False)
    trial = d.finding("LB240").data["fix_trial"]
    assert trial["status"] == "skipped" and "fixes=False" in trial["reason"]
    assert not steps


def test_trials_that_do_not_fit_the_budget_are_skipped_and_say_so(monkeypatch, steps):
    monkeypatch.setattr(_fixes, "MIN_TRIAL_SECONDS", 1e6)
    d = explain(grad_loss, jnp.ones(16), probes=["dispatch"], budget=4)
    trial = d.finding("LB240").data["fix_trial"]
    assert trial["status"] == "skipped" and "budget" in trial["reason"] and "raise budget=" in trial["reason"]
    assert "fix not measured (skipped)" in d.finding("LB240").evidence
    assert not steps


def derivative(x, h):
    return (jnp.sin(x + h) - jnp.sin(x)) / h


def test_x64_fix_is_timed_with_its_numeric_difference_and_restores_the_flag():
    f = jax.jit(derivative)
    x = jnp.float32(1.0)
    assert not jax.config.jax_enable_x64
    d0 = explain(f, 1.0, 1e-3, probes=["precision"], budget=4, fixes=False)
    size_without = f._cache_size()
    d = explain(f, 1.0, 1e-3, probes=["precision"], budget=4)
    finding = d.finding("LB230")
    assert finding is not None, d.codes
    trial = finding.data["fix_trial"]
    assert trial["status"] == "measured" and trial["expression"].startswith('jax.config.update("jax_enable_x64"')
    assert trial["difference"] == pytest.approx(finding.data["relative"])
    assert trial["agreement"] is None  # x64 changes the outputs by design: the difference is reported instead
    assert trial["speedup_low"] is not None and trial["speedup_high"] is not None
    # user state: the flag is off again and the user's jitted function got no entry from the trial
    assert not jax.config.jax_enable_x64
    assert f._cache_size() == size_without
    assert d0.finding("LB230").data["fix_trial"]["status"] == "skipped"
    assert np.isfinite(float(f(x, 1e-3)))


def test_a_loop_rewrite_is_labelled_projected_not_measured():
    def unrolled(x):
        for _ in range(30):
            x = jnp.tanh(x) + 1.0
        return x

    d = explain(jax.jit(unrolled), jnp.ones(4), probes=["unrolled"], budget=4)
    f = d.finding("LB202")
    assert f is not None, d.codes
    assert f.data["fix_trial"]["status"] == "projected" and f.data["cost_kind"] == "projected"
    assert f.cost.startswith("projected:")
    assert [t["status"] for t in d.measured["fixes"]] == ["projected"]


def test_cli_no_fixes(tmp_path):
    (tmp_path / "model.py").write_text(textwrap.dedent("""
        import jax, jax.numpy as jnp
        def loss(x):
            for _ in range(12):
                x = jnp.sin(x)
            return jnp.sum(x)
        grad_loss = jax.grad(loss)
        grad_loss_args = (jnp.ones(8),)
    """))
    out = levelbench_cli("explain", "model.py::grad_loss", "--probe", "dispatch", "--no-fixes", "--json",
                         "--budget", "3", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    statuses = {t["finding"]: t["status"] for t in d["measured"]["fixes"]}
    assert statuses == {"LB240": "skipped"}
