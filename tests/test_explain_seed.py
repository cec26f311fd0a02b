"""The seed GRU question (a jitted Python loop over Flax GRUCell applies that returns nothing)
and its lax.scan rewrite, through the whole of `explain`."""

import json

import pytest

jax = pytest.importorskip("jax")
nn = pytest.importorskip("flax.linen")
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from levelbench import Severity  # noqa: E402
from levelbench._probing import Diagnosis, explain  # noqa: E402

HIDDEN, BATCH, FEATURES = 200, 8, 6


class RNN_jax(nn.Module):  # the question's model, as posted
    @nn.compact
    def __call__(self, x, carry_gru1, carry_gru2):
        carry_gru1, x = nn.GRUCell(HIDDEN)(carry_gru1, x)
        carry_gru2, x = nn.GRUCell(HIDDEN)(carry_gru2, x)
        x = nn.Dense(4)(x)
        x = x / jnp.linalg.norm(x)
        return x, carry_gru1, carry_gru2


@pytest.fixture(scope="module")
def seed():
    # Weights from NumPy in the shapes Flax's init gives (eval_shape: no op-by-op init to compile).
    rng = np.random.default_rng(0)
    rnn = RNN_jax()
    c1 = jnp.asarray(np.zeros((BATCH, HIDDEN), np.float32))
    c2 = jnp.asarray(np.zeros((BATCH, HIDDEN), np.float32))
    xs = jnp.asarray(rng.standard_normal((1000, BATCH, FEATURES), dtype=np.float32))
    shapes = jax.eval_shape(rnn.init, jax.random.PRNGKey(1), xs[0], c1, c2)
    params = jax.tree_util.tree_map(
        lambda s: jnp.asarray(0.1 * rng.standard_normal(s.shape, dtype=np.float32)), shapes)

    def forward(params, X):  # the question's forward: loops in Python, returns nothing
        carry_gru1, carry_gru2 = c1, c2
        Yhat = []
        for x in X:
            yhat, carry_gru1, carry_gru2 = rnn.apply(params, x, carry_gru1, carry_gru2)
            Yhat.append(yhat)

    def scan_forward(params, X):
        def step(carry, x):
            y, a, b = rnn.apply(params, x, *carry)
            return (a, b), y

        return jax.lax.scan(step, (c1, c2), X)[1]

    return forward, scan_forward, params, xs


@pytest.fixture(scope="module")
def seed_diagnosis(seed):
    forward, _, params, xs = seed
    return explain(jax.jit(forward), params, xs)


def test_seed_gru_reports_the_unrolled_loop_and_the_dead_output(seed_diagnosis):
    d = seed_diagnosis

    unrolled = d.finding("LB201")
    assert unrolled is not None, d.codes
    assert unrolled.data["equations_per_step"] == pytest.approx(60, abs=5)
    assert unrolled.data["length"] == 1000 and max(unrolled.data["lengths"]) == 16
    assert unrolled.data["projected_equations"] == pytest.approx(60_000, rel=0.1)
    assert unrolled.data["cost_seconds"] > max(unrolled.data["seconds"])  # projected past what was measured
    assert "1000" in unrolled.cost and "lax.scan" in unrolled.fix

    dead = d.finding("LB220")
    assert dead is not None and dead.severity == Severity.ERROR
    assert "XLA removed all of its work" in dead.title
    assert "dispatch" in dead.evidence and "matmuls" in dead.evidence

    # 1000 steps were never traced or compiled: the probes after ran on 8 steps
    assert d.measured["shortened"]["to"] == 8
    assert d.measured["equations"] < 1000
    assert d.findings[0].code == "LB201"  # the most costly first
    assert not d.skipped.get("retrace", "").startswith("failed")

    text = str(d)
    assert text.index("LB201") < text.index("LB220")


def test_scan_version_reports_neither(seed):
    _, scan_forward, params, xs = seed
    d = explain(jax.jit(scan_forward), params, xs[:64], probes=["unrolled", "dead", "retrace", "precision"])
    assert not set(d.codes) & {"LB201", "LB202", "LB220", "LB221", "LB222", "LB210", "LB211"}
    assert d.measured["scale"]["linear"] is False


def test_diagnosis_of_the_seed_survives_json(seed_diagnosis):
    d = seed_diagnosis
    again = Diagnosis.from_dict(json.loads(d.to_json()))
    assert again.codes == d.codes and again.findings[0].data == d.findings[0].data
    assert again.measured["scale"]["lengths"] == [4, 8, 16]
    assert str(again) == str(d)
