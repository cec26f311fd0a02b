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

from levelbench._measuring import lanes as _lanes  # noqa: E402
from levelbench._probing import compile_cache as _compile_cache  # noqa: E402
from levelbench._probing import explain  # noqa: E402
from levelbench._probing import fixes as _fixes  # noqa: E402
from levelbench._probing.donation import overwritten_inputs  # noqa: E402


@pytest.fixture
def steps(monkeypatch):
    """Every first call and every block of samples compare's local lanes make, in order."""
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


def test_the_cache_is_measured_in_two_fresh_processes_and_nothing_of_the_users_changes():
    before = (jax.config.jax_compilation_cache_dir, jax.config.jax_persistent_cache_min_compile_time_secs,
              os.environ.get("XLA_FLAGS"), os.environ.get("JAX_COMPILATION_CACHE_DIR"), _cache_dirs())
    d = explain(unrolled, jnp.ones((8, 8)), probes=["compile"], budget=20)
    f = d.finding("LB270")
    assert f is not None, d.codes
    trial = f.data["fix_trial"]
    assert trial["status"] == "measured" and trial["kind"] == "processes", trial
    assert trial["expression"] == _fixes.CACHE_FIX
    assert trial["original"] > 0 and trial["fixed"] > 0 and trial["speedup"] == pytest.approx(
        trial["original"] / trial["fixed"])
    assert "in a fresh process" in f.evidence and "no CI" in f.evidence
    after = (jax.config.jax_compilation_cache_dir, jax.config.jax_persistent_cache_min_compile_time_secs,
             os.environ.get("XLA_FLAGS"), os.environ.get("JAX_COMPILATION_CACHE_DIR"), _cache_dirs())
    assert after == before


def test_the_cache_trial_is_skipped_for_time_or_with_fixes_off(monkeypatch):
    import subprocess

    def no_process(*a, **k):
        raise AssertionError("no process may be started")

    monkeypatch.setattr(subprocess, "run", no_process)
    monkeypatch.setattr(_fixes, "CACHE_MIN_COMPILE", 0.0)
    d = explain(unrolled, jnp.ones((8, 8)), probes=["compile"], budget=4, fixes=False)
    assert d.finding("LB270").data["fix_trial"]["status"] == "skipped"
    monkeypatch.setattr(_compile_cache, "IMPORT_SECONDS", 1e6)
    d = explain(unrolled, jnp.ones((8, 8)), probes=["compile"], budget=4)
    trial = d.finding("LB270").data["fix_trial"]
    assert trial["status"] == "skipped" and "raise budget=" in trial["reason"]
    assert "fix not measured (skipped)" in d.finding("LB270").evidence
