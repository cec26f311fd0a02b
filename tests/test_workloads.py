"""The seed workloads: candidates verified equal, FLOPs accounted, the seed's own mistakes refused."""

import numpy as np
import pytest

import levelbench
from levelbench import ComparisonError
from levelbench.workloads import Skipped, load

pytest.importorskip("jax")
pytest.importorskip("torch")
pytest.importorskip("flax")


def run(name, budget=0.5, **params):
    w = load(name)
    cands = w.candidates(**params)
    real = {k: v for k, v in cands.items() if not isinstance(v, Skipped)}
    return levelbench.compare(real, baseline=w.baseline, budget=budget, title=name, **w.compare_options), cands


def test_matmul_syrk_does_half_the_flops_and_jax_gets_a_ratio_with_ci():
    c, _ = run("matmul", n=256)
    syrk = c.measurements["numpy dot(x, x.T)"]
    gemm = c.measurements["numpy dot(x, y)"]
    assert syrk.flops == pytest.approx(gemm.flops / 2, rel=0.01)
    assert c.measurements["jax jit dot(x, y)"].flops == pytest.approx(2 * 256**3, rel=0.01)
    assert c.measurements["torch mm(x, y)"].flops == pytest.approx(2 * 256**3, rel=0.01)
    assert any(f.code == "LB304" for f in c.findings_for("numpy dot(x, x.T)"))
    r = c.ratio("jax jit dot(x, y)")
    assert r.lower <= r.estimate <= r.upper
    assert all(a.ok for a in c.agreements)


def test_gru_variants_agree_with_torch_and_compile_is_separate():
    c, cands = run("gru", seq=12, hidden=32, budget=0.3)
    names = set(c.measurements)
    assert {"torch nn.GRU", "flax python loop", "flax jit(python loop)", "flax lax.scan", "flax linen.RNN",
            "numpy reference"} <= names
    assert all(a.ok and a.reference == "torch nn.GRU" for a in c.agreements), c.agreements
    assert len(c.agreements) == len(names) - 1
    unrolled = c.measurements["flax jit(python loop)"]
    assert unrolled.compile is not None and unrolled.compile.total > 0


def test_gru_skips_slow_variants_above_their_length_with_a_reason():
    cands = load("gru").candidates(seq=120, hidden=16, unrolled_max_seq=100, eager_max_seq=50)
    assert isinstance(cands["flax jit(python loop)"], Skipped)
    assert "--unrolled-max-seq 100" in cands["flax jit(python loop)"].reason
    assert isinstance(cands["flax python loop"], Skipped)


def test_gru_train_mode_checks_loss_and_input_gradients():
    c, _ = run("gru", seq=10, hidden=16, mode="train", budget=0.3)
    assert {"torch nn.GRU", "flax lax.scan", "flax linen.RNN"} <= set(c.measurements)
    assert all(a.ok for a in c.agreements), c.agreements


def test_lstm_variants_agree_with_torch():
    c, _ = run("lstm", seq=12, hidden=32, budget=0.3)
    assert set(c.measurements) == {"torch nn.LSTM", "flax lax.scan", "flax linen.RNN", "levelbench LSTM"}
    assert all(a.ok and a.reference == "torch nn.LSTM" for a in c.agreements), c.agreements
    assert len(c.agreements) == 3
    # four gates: 2 * B * (in + H) * 4H per layer and step, plus the dense layer
    expected = 12 * (2 * 8 * (6 + 32) * 128 + 2 * 8 * (32 + 32) * 128 + 2 * 8 * 32 * 4)
    assert all(m.flops == pytest.approx(expected) for m in c.measurements.values())


def test_lstm_train_mode_checks_loss_and_input_gradients():
    c, _ = run("lstm", seq=10, hidden=16, mode="train", budget=0.3)
    assert set(c.measurements) == {"torch nn.LSTM", "flax lax.scan", "flax linen.RNN", "levelbench LSTM"}
    assert all(a.ok for a in c.agreements) and len(c.agreements) == 3, c.agreements


def test_lstm_flax_weights_are_torchs():
    """The converted OptimizedLSTMCell weights give torch's model: a wrong gate order or bias shows here."""
    import jax
    import torch

    from levelbench.workloads._lstm_models import FlaxLSTMModel, flax_params, torch_model

    model = torch_model(8, 6, 4, 2, 0)
    x = np.random.default_rng(0).standard_normal((7, 3, 6)).astype(np.float32)
    with torch.inference_mode():
        expected = model(torch.from_numpy(x)).numpy()
    flax_model, params = FlaxLSTMModel(8, 4, 2), flax_params(model)
    np.testing.assert_allclose(jax.jit(flax_model.scan)(params, x), expected, atol=1e-5)
    np.testing.assert_allclose(jax.jit(flax_model.linen_rnn)(params, x), expected, atol=1e-5)


def _seed_models(seq=6, batch=3, hidden=8):
    """The question's two models: torch normalises each row, the JAX one the whole tensor."""
    import jax
    import jax.numpy as jnp
    import torch

    from levelbench.workloads._gru_models import FlaxSeedModel, flax_params, torch_model

    model = torch_model(hidden, 6, 4, 2, 0)
    x = np.random.default_rng(0).standard_normal((seq, batch, 6)).astype(np.float32)
    params = flax_params(model)
    flax_model = FlaxSeedModel(hidden, 4, 2)

    def question_jax(params, xs):
        carries = flax_model.zeros(xs.shape[1], xs.dtype)
        ys = []
        for x in xs:
            for i, p in enumerate(params["cells"]):
                carries[i], x = flax_model.cell.apply({"params": p}, carries[i], x)
            y = flax_model.dense.apply({"params": params["dense"]}, x)
            ys.append(y / jnp.linalg.norm(y))  # whole-tensor norm, as the question's JAX model
        return jnp.stack(ys)

    def torch_forward(x):
        with torch.inference_mode():
            return model(x)

    jx = jax.device_put(x)
    return {
        "torch": levelbench.Candidate(torch_forward, (torch.from_numpy(x),)),
        "jax": levelbench.Candidate(jax.jit(question_jax), (params, jx), inputs=(jx,)),
    }


def test_the_seed_gru_models_that_normalise_differently_are_refused():
    with pytest.raises(ComparisonError, match="not the same computation: jax disagrees with torch"):
        levelbench.compare(_seed_models(), baseline="torch")


@pytest.mark.slow
def test_unrolled_program_grows_with_seq_while_scan_stays_flat():
    # What makes the unrolled loop's compile time grow with seq (measured in benchmarks/gru.py, not
    # here: one compile on a shared machine is noise): the program XLA compiles is seq steps long.
    def program_lines(seq: int, name: str) -> int:
        c = load("gru").candidates(seq=seq, hidden=32)[name]
        return len(c.fn.lower(*c.args).as_text().splitlines())

    unrolled = program_lines(32, "flax jit(python loop)") / program_lines(8, "flax jit(python loop)")
    scan = program_lines(32, "flax lax.scan") / program_lines(8, "flax lax.scan")
    assert unrolled > 3.0, unrolled  # 4x the steps
    assert scan == 1.0, scan  # one loop body whatever the length
