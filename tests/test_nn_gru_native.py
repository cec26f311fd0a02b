"""levelbench.nn.GRU's native CPU kernel: the same numbers as torch and as the XLA loops, for
every option and for ragged shapes (hidden sizes that are not a multiple of 8, batches that are
not a multiple of 4); the same bits whatever the thread count; and a GRU that still works, with
the reason said, when the kernel cannot be built.
"""

from __future__ import annotations

import os
import stat
import warnings

import numpy as np
import pytest

jax = pytest.importorskip("jax")
torch = pytest.importorskip("torch")
import jax.numpy as jnp  # noqa: E402

from levelbench.nn import GRU, from_torch  # noqa: E402
from levelbench.nn import _gru_native, _rnn_kernel, _rnn_native  # noqa: E402

from rnn_support import NATIVE, PAIRWISE, XLA, native, reload_afterwards  # noqa: E402, F401 (fixtures)
from rnn_support import assert_the_xla_loops_run_instead  # noqa: E402
from test_nn_gru import _GRID_KEYS, _case, _jax_run, _relative_error, _torch_run  # noqa: E402

def _float32_case(**kwargs):
    return _case(dtype=np.float32, **kwargs)


def _assert_close(ours, theirs, rtol):
    out, h_n, grads = ours
    t_out, t_hn, t_grads = theirs
    assert out.shape == t_out.shape and h_n.shape == t_hn.shape
    assert _relative_error(out, t_out) < rtol
    assert _relative_error(h_n, t_hn) < rtol
    assert sorted(grads) == sorted(t_grads)
    for name in t_grads:
        assert _relative_error(grads[name], t_grads[name]) < 10 * rtol, name


@pytest.mark.parametrize(_GRID_KEYS, PAIRWISE)
def test_native_matches_torch_over_the_options(native, num_layers, bidirectional, batch_first, with_h0, bias):
    module, x, h0, d_out, d_hn = _float32_case(num_layers=num_layers, bidirectional=bidirectional,
                                               batch_first=batch_first, with_h0=with_h0, bias=bias)
    params, gru = from_torch(module)
    _assert_close(_jax_run(gru, params, x, h0, d_out, d_hn, NATIVE), _torch_run(module, x, h0, d_out, d_hn), 1e-5)


@pytest.mark.parametrize(("seq", "batch", "features", "hidden"), [
    (1, 1, 1, 1),      # one step, one row, one unit
    (7, 5, 3, 13),     # rows 4 + 1, units 8 + 5
    (6, 7, 20, 37),    # rows 4 + 3, units 4 x 8 + 5, a wide input
    (9, 6, 2, 24),     # rows 4 + 2, units exactly 3 x 8
    (4, 9, 6, 8),      # rows 4 + 4 + 1, a single unit block
])
def test_native_matches_torch_on_ragged_shapes(native, seq, batch, features, hidden):
    module, x, h0, d_out, d_hn = _float32_case(num_layers=2, bidirectional=True, batch_first=False,
                                               with_h0=True, bias=True, seq=seq, batch=batch,
                                               features=features, hidden=hidden)
    params, gru = from_torch(module)
    ours = _jax_run(gru, params, x, h0, d_out, d_hn, NATIVE)
    _assert_close(ours, _torch_run(module, x, h0, d_out, d_hn), 1e-5)
    _assert_close(ours, _jax_run(gru, params, x, h0, d_out, d_hn, XLA), 1e-5)


def test_thread_count_changes_no_bit(native):
    """Each hidden unit is computed the same way whichever thread owns it."""
    module, x, h0, d_out, d_hn = _float32_case(num_layers=2, bidirectional=True, batch_first=False,
                                               with_h0=True, bias=True, seq=12, batch=6, hidden=45)
    params, gru = from_torch(module)
    runs = [_jax_run(gru, params, x, h0, d_out, d_hn, _rnn_kernel.Kernel(native=True, threads=n))
            for n in (1, 2, 3)]
    for other in runs[1:]:
        np.testing.assert_array_equal(other[0], runs[0][0])
        np.testing.assert_array_equal(other[1], runs[0][1])
        for name in runs[0][2]:
            np.testing.assert_array_equal(other[2][name], runs[0][2][name])


@pytest.mark.parametrize(("split_at", "batch", "seq"), [
    (0, 5, 10), (4, 5, 10),  # one block of 10 steps: thread 0 sums the whole block
    (4, 64, 10), (5, 64, 10),  # blocks of 2 steps: a split mid-block and at a block's end
    (11, 64, 40),  # a split mid-block after ten blocks' sums
])
def test_going_on_alone_changes_no_bit(native, monkeypatch, split_at, batch, seq):
    """Under contention thread 0 takes over the other threads' units mid-call: same results,
    weight gradients (summed a block of steps at a time) included."""
    module, x, h0, d_out, d_hn = _float32_case(num_layers=2, bidirectional=True, batch_first=False,
                                               with_h0=True, bias=True, seq=seq, batch=batch, hidden=45)
    params, gru = from_torch(module)
    together = _jax_run(gru, params, x, h0, d_out, d_hn, _rnn_kernel.Kernel(native=True, threads=3))
    monkeypatch.setattr(_rnn_native, "_SPLIT_AT", split_at)
    split = _jax_run(gru, params, x, h0, d_out, d_hn, _rnn_kernel.Kernel(native=True, threads=3))
    np.testing.assert_array_equal(split[0], together[0])
    np.testing.assert_array_equal(split[1], together[1])
    for name in together[2]:
        np.testing.assert_array_equal(split[2][name], together[2][name])


def test_float32_on_cpu_uses_the_kernel_and_other_dtypes_do_not(native):
    assert _rnn_kernel.choose(batch=8, hidden=200, dtype=jnp.float32) == NATIVE
    for dtype in (jnp.bfloat16, jnp.float16, jnp.float64):
        assert _rnn_kernel.choose(batch=8, hidden=200, dtype=dtype) == XLA
    gru = GRU(6, 16)
    params = gru.init(jax.random.key(0))
    program = jax.jit(gru.apply).lower(params, jnp.zeros((5, 2, 6))).as_text()
    assert "levelbench_gru_forward" in program
    assert _rnn_native.describe().startswith("native CPU kernel, ")


def test_thread_count_default_and_override(monkeypatch):
    monkeypatch.delenv("LEVELBENCH_NATIVE_THREADS", raising=False)
    assert _rnn_native.default_threads() == min(2, len(os.sched_getaffinity(0)))
    monkeypatch.setenv("LEVELBENCH_NATIVE_THREADS", "3")
    assert _rnn_native.default_threads() == 3
    monkeypatch.setenv("LEVELBENCH_NATIVE_THREADS", "many")
    with pytest.warns(UserWarning, match="LEVELBENCH_NATIVE_THREADS must be a positive integer, got 'many'"):
        assert _rnn_native.default_threads() == min(2, len(os.sched_getaffinity(0)))


def test_vmap_over_inputs(native):
    module, x, h0, _, _ = _float32_case(num_layers=2, bidirectional=False, batch_first=False,
                                        with_h0=True, bias=True, seq=6, batch=3, hidden=10)
    params, gru = from_torch(module)
    xs = np.stack([x, 2 * x, -x])
    outs, h_ns = jax.jit(jax.vmap(gru.apply, in_axes=(None, 0, None)))(params, xs, h0)
    for i in range(3):
        t_out, t_hn = module(torch.tensor(xs[i]), torch.tensor(h0))
        np.testing.assert_allclose(outs[i], t_out.detach().numpy(), atol=1e-6)
        np.testing.assert_allclose(h_ns[i], t_hn.detach().numpy(), atol=1e-6)


def test_kernel_rejects_inconsistent_operands(native):
    x, h0 = jnp.zeros((3, 2, 4)), jnp.zeros((2, 5))
    w_ih, w_hh, b_x = jnp.zeros((15, 4)), jnp.zeros((15, 5)), jnp.zeros(15)
    with pytest.raises(Exception, match=r"expected b_hn of shape \(H,\), got \(4,\)"):
        jax.block_until_ready(_gru_native.forward(x, w_ih, b_x, w_hh, jnp.zeros(4), h0, False, 1))


def test_kernel_options_are_checked():
    with pytest.raises(ValueError, match="native=True needs custom_vjp=True"):
        _rnn_kernel.Kernel(native=True, custom_vjp=False)
    with pytest.raises(ValueError, match=r"threads must be an int >= 0 .* got -1"):
        _rnn_kernel.Kernel(native=True, threads=-1)


def test_turned_off_by_the_environment(monkeypatch, reload_afterwards):
    monkeypatch.setenv("LEVELBENCH_NATIVE", "0")
    current = _rnn_native.status()
    assert not current.available and "LEVELBENCH_NATIVE=0" in current.detail
    assert _rnn_kernel.choose(batch=8, hidden=200, dtype=jnp.float32) == XLA
    module, x, h0, _, _ = _float32_case(num_layers=1, bidirectional=False, batch_first=False,
                                        with_h0=False, bias=True)
    params, gru = from_torch(module)
    np.testing.assert_allclose(jax.jit(gru.apply)(params, x)[0], module(torch.tensor(x))[0].detach().numpy(),
                               atol=1e-6)


def test_the_kernel_is_built_when_a_float32_gru_is_created_not_while_tracing(monkeypatch, reload_afterwards):
    calls = []
    monkeypatch.setattr(_rnn_native, "_load", _counting(_rnn_native._load, calls))
    gru = GRU(input_size=3, hidden_size=8)
    assert len(calls) == 1
    monkeypatch.setattr(_rnn_native.subprocess, "run", _refuse_to_compile)
    params = gru.init(jax.random.key(0))
    jax.jit(gru.apply).lower(params, jnp.ones((5, 2, 3), jnp.float32)).compile()  # no build, no compiler run


def _counting(load, calls):
    def counted():
        calls.append(1)
        return load()

    counted.cache_clear = load.cache_clear
    return counted


def _failing_compiler(folder) -> str:
    script = folder / "broken-c++"
    script.write_text("#!/bin/sh\necho 'broken-c++ 1.0'\ncase \"$1\" in --version) exit 0;; esac\n"
                      "echo 'gru_cpu.cc:1: error: this compiler is broken' >&2\nexit 3\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


@pytest.mark.skipif(os.name != "posix", reason="uses a shell script as the compiler")
def test_a_failed_build_warns_says_why_and_the_gru_still_works(tmp_path, monkeypatch, reload_afterwards):
    monkeypatch.setenv("CXX", _failing_compiler(tmp_path))
    monkeypatch.setenv("LEVELBENCH_KERNEL_DIR", str(tmp_path / "kernels"))
    assert_the_xla_loops_run_instead("this compiler is broken", "exit 3", "LEVELBENCH_NATIVE=0")
    assert not list((tmp_path / "kernels").glob("*.so*")), "no partial library is left behind"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # said once per process, not on every use
        assert _rnn_kernel.choose(batch=8, hidden=200, dtype=jnp.float32) == XLA


def test_no_compiler_is_said_with_the_fix(monkeypatch, reload_afterwards):
    monkeypatch.setattr(_rnn_native, "_compiler", lambda: None)
    with pytest.warns(RuntimeWarning, match="no C..? compiler found"):
        current = _rnn_native.status()
    assert not current.available and "apt install g++" in current.detail


def test_built_once_then_taken_from_the_cache(native, tmp_path, monkeypatch):
    monkeypatch.setenv("LEVELBENCH_KERNEL_DIR", str(tmp_path / "kernels"))
    first = _rnn_native._build()
    assert first.parent == tmp_path / "kernels" and first.suffix == ".so"
    built = first.stat().st_mtime_ns
    monkeypatch.setattr(_rnn_native.subprocess, "run", _refuse_to_compile)
    again = _rnn_native._build()
    assert again == first and again.stat().st_mtime_ns == built


def _refuse_to_compile(command, **kwargs):
    raise AssertionError(f"ran the compiler again: {command}")


def test_the_backward_hands_back_weight_gradients_not_gate_gradients(native):
    """The kernel sums the weight gradients itself, a block of steps at a time: its results are
    dx, dW_ih, dW_hh and dh0 (every backward's, first), then the two bias gradients, and no (T, B, 3H)
    gate gradient reaches XLA (where it would be a fresh, page-faulted temporary on every call)."""
    gru = GRU(6, 16)
    params = gru.init(jax.random.key(0))
    train = jax.jit(jax.grad(lambda p, x: jnp.sum(gru.apply(p, x)[0]))).lower(params, jnp.zeros((5, 2, 6)))
    backward = next(line for line in train.as_text().splitlines() if "@levelbench_gru_backward" in line)
    results = backward.rsplit("->", 1)[1]
    assert results.strip() == ("(tensor<5x2x6xf32>, tensor<48x6xf32>, tensor<48x16xf32>, tensor<2x16xf32>, "
                               "tensor<48xf32>, tensor<48xf32>)")
