"""levelbench.nn.LSTM's native CPU kernel: the same numbers as torch and as the XLA loops, for every
option and for ragged shapes (hidden sizes that are not a multiple of 8, batches that are not a
multiple of the tile's rows); the same bits whatever the thread count or a mid-call split of the
thread team; the XLA loops when the kernel is off. Building and caching are the GRU's and are
tested in test_nn_gru_native.py.
"""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
torch = pytest.importorskip("torch")
import jax.numpy as jnp  # noqa: E402

from levelbench.nn import LSTM, from_torch  # noqa: E402
from levelbench.nn import _lstm_native, _rnn_kernel, _rnn_native  # noqa: E402

from rnn_support import NATIVE, PAIRWISE, XLA, native, reload_afterwards  # noqa: E402, F401 (fixtures)
from test_nn_lstm import _GRID_KEYS, _assert_close, _case, _jax_run, _torch_run  # noqa: E402

def _float32_case(**kwargs):
    return _case(dtype=np.float32, **kwargs)


def _runs_identical(a, b):
    for ours, theirs in zip(a[:3], b[:3]):
        np.testing.assert_array_equal(ours, theirs)
    for name in a[3]:
        np.testing.assert_array_equal(a[3][name], b[3][name])


@pytest.mark.parametrize(_GRID_KEYS, PAIRWISE)
def test_native_matches_torch_over_the_options(native, num_layers, bidirectional, batch_first, with_hx, bias):
    case = _float32_case(num_layers=num_layers, bidirectional=bidirectional, batch_first=batch_first,
                         with_hx=with_hx, bias=bias)
    module, x, hx, d_out, d_hn, d_cn = case
    params, lstm = from_torch(module)
    _assert_close(_jax_run(lstm, params, x, hx, d_out, d_hn, d_cn, NATIVE),
                  _torch_run(module, x, hx, d_out, d_hn, d_cn), 1e-5)


@pytest.mark.parametrize(("seq", "batch", "features", "hidden"), [
    (1, 1, 1, 1),      # one step, one row, one unit
    (7, 5, 3, 13),     # rows 4 + 1 (2 + 2 + 1), units 8 + 5
    (6, 7, 20, 37),    # rows 4 + 3, units 4 x 8 + 5, a wide input
    (9, 6, 2, 24),     # rows 4 + 2, units exactly 3 x 8
    (4, 9, 6, 8),      # rows 4 + 4 + 1, a single unit block
])
def test_native_matches_torch_on_ragged_shapes(native, seq, batch, features, hidden):
    module, x, hx, d_out, d_hn, d_cn = _float32_case(
        num_layers=2, bidirectional=True, batch_first=False, with_hx=True, bias=True, seq=seq, batch=batch,
        features=features, hidden=hidden)
    params, lstm = from_torch(module)
    ours = _jax_run(lstm, params, x, hx, d_out, d_hn, d_cn, NATIVE)
    _assert_close(ours, _torch_run(module, x, hx, d_out, d_hn, d_cn), 1e-5)
    _assert_close(ours, _jax_run(lstm, params, x, hx, d_out, d_hn, d_cn, XLA), 1e-5)


def _threads_case(seq=12, batch=6):
    module, x, hx, d_out, d_hn, d_cn = _float32_case(num_layers=2, bidirectional=True, batch_first=False,
                                                     with_hx=True, bias=True, seq=seq, batch=batch, hidden=45)
    params, lstm = from_torch(module)
    return lambda kernel: _jax_run(lstm, params, x, hx, d_out, d_hn, d_cn, kernel)


def test_thread_count_changes_no_bit(native):
    """Each hidden unit is computed the same way whichever thread owns it."""
    run = _threads_case()
    runs = [run(_rnn_kernel.Kernel(native=True, threads=n)) for n in (1, 2, 3)]
    for other in runs[1:]:
        _runs_identical(other, runs[0])


@pytest.mark.parametrize(("split_at", "seq", "batch"), [
    (0, 12, 6), (4, 12, 6),  # one block of 12 steps: thread 0 sums the whole block
    (11, 40, 64),  # blocks of 2 steps: a split mid-block after ten blocks' sums
])
def test_going_on_alone_changes_no_bit(native, monkeypatch, split_at, seq, batch):
    """Under contention thread 0 takes over the other threads' units (and their cell states) mid-call;
    the weight gradients, summed a block of steps at a time, too."""
    run = _threads_case(seq, batch)
    together = run(_rnn_kernel.Kernel(native=True, threads=3))
    monkeypatch.setattr(_rnn_native, "_SPLIT_AT", split_at)
    _runs_identical(run(_rnn_kernel.Kernel(native=True, threads=3)), together)


def test_float32_on_cpu_uses_the_kernel_and_projections_do_not(native):
    lstm = LSTM(6, 16)
    params = lstm.init(jax.random.key(0))
    program = jax.jit(lstm.apply).lower(params, jnp.zeros((5, 2, 6))).as_text()
    assert "levelbench_lstm_forward" in program
    train = jax.jit(jax.grad(lambda p, x: jnp.sum(lstm.apply(p, x)[0]))).lower(params, jnp.zeros((5, 2, 6)))
    assert "levelbench_lstm_forward_train" in train.as_text() and "levelbench_lstm_backward" in train.as_text()
    # the kernel sums the weight gradients itself: dx, dW_ih, dW_hh, dh0, d_b, dc0 and no (T, B, 4H) array
    backward = next(line for line in train.as_text().splitlines() if "@levelbench_lstm_backward" in line)
    assert backward.rsplit("->", 1)[1].strip() == ("(tensor<5x2x6xf32>, tensor<64x6xf32>, tensor<64x16xf32>, "
                                                   "tensor<2x16xf32>, tensor<64xf32>, tensor<2x16xf32>)")
    projected = LSTM(6, 16, proj_size=4)
    program = jax.jit(projected.apply).lower(projected.init(jax.random.key(0)), jnp.zeros((5, 2, 6))).as_text()
    assert "levelbench_lstm" not in program
    with jax.enable_x64(True):
        wide = LSTM(6, 16, dtype="float64")
        program = jax.jit(wide.apply).lower(wide.init(jax.random.key(0)), jnp.zeros((5, 2, 6), jnp.float64))
        assert "levelbench_lstm" not in program.as_text()


def test_training_keeps_the_gates_and_not_tanh_of_c(native):
    """The training forward hands back h, c and the gates (T, B, 4H): the backward computes tanh(c_t)
    again from c_t, so no (T, B, H) array of it is written, kept and read back."""
    lstm = LSTM(6, 16)
    params = lstm.init(jax.random.key(0))
    train = jax.jit(jax.grad(lambda p, x: jnp.sum(lstm.apply(p, x)[0]))).lower(params, jnp.zeros((5, 2, 6)))
    forward = next(line for line in train.as_text().splitlines() if "@levelbench_lstm_forward_train" in line)
    assert forward.rsplit("->", 1)[1].strip() == "(tensor<5x2x16xf32>, tensor<5x2x16xf32>, tensor<5x2x64xf32>)"


def test_vmap_over_inputs(native):
    module, x, hx, _, _, _ = _float32_case(num_layers=2, bidirectional=False, batch_first=False,
                                           with_hx=True, bias=True, seq=6, batch=3, hidden=10)
    params, lstm = from_torch(module)
    xs = np.stack([x, 2 * x, -x])
    outs, (h_ns, c_ns) = jax.jit(jax.vmap(lstm.apply, in_axes=(None, 0, None)))(params, xs, hx)
    for i in range(3):
        t_out, (t_hn, t_cn) = module(torch.tensor(xs[i]), tuple(torch.tensor(a) for a in hx))
        np.testing.assert_allclose(outs[i], t_out.detach().numpy(), atol=1e-6)
        np.testing.assert_allclose(h_ns[i], t_hn.detach().numpy(), atol=1e-6)
        np.testing.assert_allclose(c_ns[i], t_cn.detach().numpy(), atol=1e-6)


def test_kernel_rejects_inconsistent_operands(native):
    x, h0 = jnp.zeros((3, 2, 4)), jnp.zeros((2, 5))
    w_ih, w_hh = jnp.zeros((20, 4)), jnp.zeros((20, 5))
    with pytest.raises(Exception, match=r"expected c0 of shape \(B, H\), got \(2, 4\)"):
        jax.block_until_ready(_lstm_native.forward(x, w_ih, jnp.zeros(20), w_hh, h0, jnp.zeros((2, 4)),
                                                   False, 1))
    with pytest.raises(Exception, match=r"expected b of shape \(4H,\), got \(15,\)"):
        jax.block_until_ready(_lstm_native.forward(x, w_ih, jnp.zeros(15), w_hh, h0, h0, False, 1))


def test_turned_off_by_the_environment(monkeypatch, reload_afterwards):
    monkeypatch.setenv("LEVELBENCH_NATIVE", "0")
    assert not _rnn_native.status().available
    module, x, hx, _, _, _ = _float32_case(num_layers=1, bidirectional=False, batch_first=False,
                                           with_hx=True, bias=True)
    params, lstm = from_torch(module)
    hx_j = tuple(jnp.asarray(a) for a in hx)
    assert "levelbench_lstm" not in jax.jit(lstm.apply).lower(params, x, hx_j).as_text()
    out, (h_n, c_n) = jax.jit(lstm.apply)(params, x, hx_j)
    t_out, (t_hn, t_cn) = module(torch.tensor(x), tuple(torch.tensor(a) for a in hx))
    np.testing.assert_allclose(out, t_out.detach().numpy(), atol=1e-6)
    np.testing.assert_allclose(c_n, t_cn.detach().numpy(), atol=1e-6)


def test_every_kernel_source_ships_in_the_package():
    """The library is built from source on the user's machine: each file it is built from must be
    in the wheel (pyproject's package-data), the shared header included."""
    import fnmatch
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    setuptools = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    globs = setuptools["package-data"]["levelbench"]
    for path in _rnn_native.SOURCES + _rnn_native.HEADERS:
        relative = path.relative_to(root / "levelbench").as_posix()
        assert any(fnmatch.fnmatch(relative, glob) for glob in globs), f"{relative} is not in package-data"
