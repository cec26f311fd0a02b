"""levelbench.nn.LSTM against torch.nn.LSTM: outputs, final states and gradients over the options grid.

As for the GRU (test_nn_gru.py): small sizes in float64 check the equations tightly (1e-9), the
seed's sizes in float32 check the issue's 1e-5 (outputs, h_n, c_n) / 1e-4 (gradients) targets.
"""

from __future__ import annotations


import numpy as np
import pytest

jax = pytest.importorskip("jax")
torch = pytest.importorskip("torch")
import jax.numpy as jnp  # noqa: E402

from levelbench.nn import LSTM, from_torch, to_torch  # noqa: E402
from levelbench.nn import _rnn_kernel, _lstm  # noqa: E402

from rnn_support import GRID, assert_same_params  # noqa: E402
from test_nn_gru import _relative_error  # noqa: E402

SEQ, BATCH, FEATURES, HIDDEN = 5, 3, 4, 6
_GRID_KEYS = ("num_layers", "bidirectional", "batch_first", "with_hx", "bias")
KERNELS = [_rnn_kernel.Kernel(), _rnn_kernel.Kernel(unroll=2), _rnn_kernel.Kernel(custom_vjp=False)]


def _torch_run(module, x, hx, d_out, d_hn, d_cn):
    """torch's outputs and the gradients of ``sum(out * d_out) + sum(h_n * d_hn) + sum(c_n * d_cn)``."""
    module.zero_grad(set_to_none=True)
    xt = torch.tensor(x, requires_grad=True)
    hxt = None if hx is None else tuple(torch.tensor(a, requires_grad=True) for a in hx)
    out, (h_n, c_n) = module(xt, hxt)
    loss = (out * torch.tensor(d_out)).sum() + (h_n * torch.tensor(d_hn)).sum()
    (loss + (c_n * torch.tensor(d_cn)).sum()).backward()
    grads = {name: p.grad.numpy() for name, p in module.named_parameters()}
    grads["x"] = xt.grad.numpy()
    if hx is not None:
        grads["h0"], grads["c0"] = hxt[0].grad.numpy(), hxt[1].grad.numpy()
    return out.detach().numpy(), h_n.detach().numpy(), c_n.detach().numpy(), grads


def _jax_run(lstm, params, x, hx, d_out, d_hn, d_cn, kernel=None):
    def loss(params, x, hx):
        out, (h_n, c_n) = _lstm._apply(lstm, params, x, hx, kernel)
        return jnp.sum(out * d_out) + jnp.sum(h_n * d_hn) + jnp.sum(c_n * d_cn), (out, h_n, c_n)

    argnums = (0, 1) if hx is None else (0, 1, 2)
    (_, (out, h_n, c_n)), g = jax.jit(jax.value_and_grad(loss, argnums, has_aux=True))(params, x, hx)
    grads = dict(g[0], x=g[1])
    if hx is not None:
        grads["h0"], grads["c0"] = g[2]
    return np.asarray(out), np.asarray(h_n), np.asarray(c_n), {k: np.asarray(v) for k, v in grads.items()}


def _case(num_layers, bidirectional, batch_first, with_hx, bias, proj_size=0, dtype=np.float64, seed=0,
          seq=SEQ, batch=BATCH, features=FEATURES, hidden=HIDDEN):
    torch.manual_seed(seed)
    module = torch.nn.LSTM(features, hidden, num_layers=num_layers, bias=bias, batch_first=batch_first,
                           bidirectional=bidirectional, proj_size=proj_size,
                           dtype=getattr(torch, np.dtype(dtype).name))
    rng = np.random.default_rng(seed)
    dirs, out = 2 if bidirectional else 1, proj_size or hidden
    x = rng.standard_normal((batch, seq, features) if batch_first else (seq, batch, features)).astype(dtype)
    hx = None
    if with_hx:
        hx = (rng.standard_normal((num_layers * dirs, batch, out)).astype(dtype),
              rng.standard_normal((num_layers * dirs, batch, hidden)).astype(dtype))
    d_out = rng.standard_normal(x.shape[:2] + (dirs * out,)).astype(dtype)
    d_hn = rng.standard_normal((num_layers * dirs, batch, out)).astype(dtype)
    d_cn = rng.standard_normal((num_layers * dirs, batch, hidden)).astype(dtype)
    return module, x, hx, d_out, d_hn, d_cn


def _errors(ours, theirs) -> dict[str, float]:
    """The relative error of every output and gradient."""
    out, h_n, c_n, grads = ours
    t_out, t_hn, t_cn, t_grads = theirs
    assert out.shape == t_out.shape and h_n.shape == t_hn.shape and c_n.shape == t_cn.shape
    assert sorted(grads) == sorted(t_grads)
    errors = {"output": _relative_error(out, t_out), "h_n": _relative_error(h_n, t_hn),
              "c_n": _relative_error(c_n, t_cn)}
    errors.update({f"grad {name}": _relative_error(grads[name], t_grads[name]) for name in t_grads})
    return errors


def _assert_close(ours, theirs, rtol, grad_rtol=None):
    errors = _errors(ours, theirs)
    for name, error in errors.items():
        assert error < (rtol if not name.startswith("grad") else grad_rtol or 10 * rtol), (name, error)


def _assert_matches_torch(module, x, hx, d_out, d_hn, d_cn, rtol, kernel=None):
    params, lstm = from_torch(module)
    _assert_close(_jax_run(lstm, params, x, hx, d_out, d_hn, d_cn, kernel),
                  _torch_run(module, x, hx, d_out, d_hn, d_cn), rtol)


@pytest.mark.parametrize(_GRID_KEYS, GRID)
def test_matches_torch_float64(num_layers, bidirectional, batch_first, with_hx, bias):
    with jax.enable_x64(True):
        _assert_matches_torch(*_case(num_layers, bidirectional, batch_first, with_hx, bias), rtol=1e-9)


@pytest.mark.parametrize(_GRID_KEYS, [
    (1, False, False, True, True), (2, True, True, True, False), (2, False, False, False, True)])
def test_proj_size_matches_torch_float64(num_layers, bidirectional, batch_first, with_hx, bias):
    """``h_t = W_hr (o_t * tanh(c_t))``: h0, h_n and the outputs have proj_size features, c has hidden_size."""
    with jax.enable_x64(True):
        case = _case(num_layers, bidirectional, batch_first, with_hx, bias, proj_size=4)
        assert from_torch(case[0])[1].proj_size == 4
        _assert_matches_torch(*case, rtol=1e-9)


@pytest.mark.parametrize("kernel", KERNELS, ids=str)
def test_every_kernel_matches_torch(kernel):
    """The kernel choice is a speed decision only: every XLA variant computes torch's numbers."""
    with jax.enable_x64(True):
        _assert_matches_torch(*_case(2, True, False, True, True, seed=1), rtol=1e-9, kernel=kernel)


def test_wide_input_matches_torch():
    """More than 16 input features: the input projection runs as a GEMM instead of multiply-adds."""
    with jax.enable_x64(True):
        _assert_matches_torch(*_case(2, True, True, True, True, seed=2, features=20), rtol=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("batch", [8, 64])
def test_seed_sizes_float32_meet_the_tolerances(batch):
    """The issue's targets: outputs, h_n and c_n within 1e-5 and gradients within 1e-4 of torch's."""
    module, x, hx, d_out, d_hn, d_cn = _case(2, False, False, False, True, dtype=np.float32,
                                             seq=1000, batch=batch, features=6, hidden=200)
    params, lstm = from_torch(module)
    scaled = (d_out / d_out.size, d_hn / d_hn.size, d_cn / d_cn.size)
    errors = _errors(_jax_run(lstm, params, x, hx, *scaled), _torch_run(module, x, hx, *scaled))
    print(f"batch {batch}: " + ", ".join(f"{k} {v:.1e}" for k, v in errors.items()))
    for name, error in errors.items():
        assert error < (1e-4 if name.startswith("grad") else 1e-5), (name, error)


def test_bfloat16_is_as_accurate_as_torch():
    """Against a float32 run of the same (rounded) weights, our error is at most 2x torch's own."""
    module, x, hx, _, _, _ = _case(2, True, False, True, True, dtype=np.float32, seq=20)
    module_low = module.to(torch.bfloat16)
    module_ref = torch.nn.LSTM(FEATURES, HIDDEN, 2, bidirectional=True)
    module_ref.load_state_dict({k: v.float() for k, v in module_low.state_dict().items()})
    x_low = torch.tensor(x).to(torch.bfloat16)
    hx_low = tuple(torch.tensor(a).to(torch.bfloat16) for a in hx)
    with torch.no_grad():
        ref, _ = module_ref(x_low.float(), tuple(a.float() for a in hx_low))
        theirs, _ = module_low(x_low, hx_low)
    params, lstm = from_torch(module_low)
    assert lstm.dtype == "bfloat16"
    ours, (h_n, c_n) = jax.jit(lstm.apply)(params, jnp.asarray(x, jnp.bfloat16),
                                           tuple(jnp.asarray(a, jnp.bfloat16) for a in hx))
    assert ours.dtype == h_n.dtype == c_n.dtype == jnp.bfloat16
    torch_error = _relative_error(theirs.float().numpy(), ref.numpy())
    our_error = _relative_error(np.asarray(ours, np.float32), ref.numpy())
    assert our_error <= 2 * torch_error + 1e-3, (our_error, torch_error)


def test_unbatched_input_matches_torch():
    module, x, hx, _, _, _ = _case(2, True, False, True, True, dtype=np.float32)
    params, lstm = from_torch(module)
    out, (h_n, c_n) = lstm.apply(params, x[:, 0], (hx[0][:, 0], hx[1][:, 0]))
    t_out, (t_hn, t_cn) = module(torch.tensor(x[:, 0]), (torch.tensor(hx[0][:, 0]), torch.tensor(hx[1][:, 0])))
    np.testing.assert_allclose(out, t_out.detach().numpy(), atol=1e-6)
    np.testing.assert_allclose(h_n, t_hn.detach().numpy(), atol=1e-6)
    np.testing.assert_allclose(c_n, t_cn.detach().numpy(), atol=1e-6)


def test_apply_is_jittable_with_the_config_static():
    module, x, _, _, _, _ = _case(2, False, False, False, True, dtype=np.float32)
    params, lstm = from_torch(module)
    out, _ = jax.jit(LSTM.apply, static_argnums=0)(lstm, params, x)
    np.testing.assert_allclose(out, module(torch.tensor(x))[0].detach().numpy(), atol=1e-6)


@pytest.mark.parametrize(("dtype", "proj_size"), [("float32", 0), ("bfloat16", 0), ("float64", 3)])
def test_to_torch_round_trips_exactly(dtype, proj_size):
    with jax.enable_x64(True):
        lstm = LSTM(FEATURES, HIDDEN, num_layers=2, bidirectional=True, proj_size=proj_size, dtype=dtype)
        params = lstm.init(jax.random.key(0))
        module = to_torch(params, lstm)
        assert isinstance(module, torch.nn.LSTM) and module.proj_size == proj_size
        assert module.weight_hh_l1_reverse.dtype == getattr(torch, dtype)
        back, lstm_back = from_torch(module)
    assert lstm_back == lstm
    assert_same_params(back, params)


@pytest.mark.parametrize("proj_size", [0, 2])
def test_init_matches_torch_shapes_names_and_range(proj_size):
    lstm = LSTM(FEATURES, HIDDEN, num_layers=2, bidirectional=True, proj_size=proj_size)
    params = lstm.init(jax.random.key(0))
    module = torch.nn.LSTM(FEATURES, HIDDEN, num_layers=2, bidirectional=True, proj_size=proj_size)
    shapes = {k: tuple(v.shape) for k, v in module.state_dict().items()}
    assert {k: tuple(v.shape) for k, v in params.items()} == shapes
    assert list(lstm.param_shapes()) == list(module.state_dict())  # and torch's order
    bound = 1 / np.sqrt(HIDDEN)
    values = np.concatenate([np.ravel(v) for v in params.values()])
    assert values.min() >= -bound and values.max() <= bound and values.std() > bound / 3


def test_flax_module_is_the_same_lstm():
    pytest.importorskip("flax")
    from levelbench.nn import LSTMModule

    module, x, hx, _, _, _ = _case(2, True, True, True, True, dtype=np.float32)
    params, _ = from_torch(module)
    model = LSTMModule(hidden_size=HIDDEN, num_layers=2, bidirectional=True, batch_first=True)
    variables = jax.jit(model.init)(jax.random.key(0), x, hx)
    assert {k: v.shape for k, v in variables["params"].items()} == {k: v.shape for k, v in params.items()}
    out, (h_n, c_n) = jax.jit(model.apply)({"params": params}, x, hx)
    t_out, (t_hn, t_cn) = module(torch.tensor(x), tuple(torch.tensor(a) for a in hx))
    np.testing.assert_allclose(out, t_out.detach().numpy(), atol=1e-6)
    np.testing.assert_allclose(h_n, t_hn.detach().numpy(), atol=1e-6)
    np.testing.assert_allclose(c_n, t_cn.detach().numpy(), atol=1e-6)


def test_errors_say_expected_and_got():
    lstm = LSTM(FEATURES, HIDDEN, num_layers=2)
    params = lstm.init(jax.random.key(0))
    x = jnp.zeros((SEQ, BATCH, FEATURES))
    h0, c0 = jnp.zeros((2, BATCH, HIDDEN)), jnp.zeros((2, BATCH, HIDDEN))
    with pytest.raises(ValueError, match=r"input_size=4, got \(5, 3, 7\)"):
        lstm.apply(params, jnp.zeros((SEQ, BATCH, 7)))
    with pytest.raises(TypeError, match=r"expected hx as a tuple \(h0, c0\).* got ArrayImpl"):
        lstm.apply(params, x, h0)
    with pytest.raises(TypeError, match=r"expected hx as a tuple \(h0, c0\).* got a tuple of 3"):
        lstm.apply(params, x, (h0, c0, c0))
    with pytest.raises(ValueError, match=r"expected c0 of shape \(2, 3, 6\).*got \(2, 3, 5\)"):
        lstm.apply(params, x, (h0, jnp.zeros((2, BATCH, 5))))
    with pytest.raises(ValueError, match=r"weight_hh_l0: expected \(24, 6\), got \(18, 6\)"):
        lstm.apply(dict(params, weight_hh_l0=jnp.zeros((18, 6))), x)
    with pytest.raises(ValueError, match=r"missing \['weight_hr_l0', 'weight_hr_l1'\].*LSTM's init"):
        LSTM(FEATURES, HIDDEN, num_layers=2, proj_size=2).apply(params, x)
    with pytest.raises(ValueError, match=r"proj_size must be smaller than hidden_size \(6\).* got 6"):
        LSTM(FEATURES, HIDDEN, proj_size=HIDDEN)
    with pytest.raises(ValueError, match="proj_size must be an int >= 0 .* got -1"):
        LSTM(FEATURES, HIDDEN, proj_size=-1)
    with pytest.raises(ValueError, match="LSTM hidden_size must be a positive int, got 0"):
        LSTM(FEATURES, 0)
    projected = LSTM(FEATURES, HIDDEN, proj_size=2)
    with pytest.raises(ValueError, match=r"expected h0 of shape \(1, 3, 2\) .*proj_size\), got \(1, 3, 6\)"):
        projected.apply(projected.init(jax.random.key(0)), x, (h0[:1], c0[:1]))


def test_to_torch_refuses_other_layers():
    with pytest.raises(TypeError, match="expected a levelbench.nn GRU or LSTM, got dict"):
        to_torch({}, {})


@pytest.mark.parametrize("kernel", [None, _rnn_kernel.Kernel(), _rnn_kernel.Kernel(custom_vjp=False)],
                         ids=["default", "XLA loops", "XLA scan"])
@pytest.mark.parametrize("train", [False, True], ids=["forward", "train"])
def test_the_program_does_not_grow_with_the_sequence(kernel, train):
    """Compile time flat in the sequence length: the lowered program is the same size at 10 and
    1000 steps (a loop or one kernel call per layer-direction, never unrolled steps)."""
    lstm = LSTM(FEATURES, HIDDEN, num_layers=2, bidirectional=True)
    params = lstm.init(jax.random.key(0))

    def forward(p, x):
        return jnp.sum(_lstm._apply(lstm, p, x, None, kernel)[0])

    function = jax.jit(jax.grad(forward) if train else forward)
    sizes = [len(function.lower(params, jnp.zeros((seq, BATCH, FEATURES))).as_text().splitlines())
             for seq in (10, 1000)]
    assert sizes[0] == sizes[1], sizes
