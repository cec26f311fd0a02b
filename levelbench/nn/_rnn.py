"""What levelbench.nn's recurrent layers (`GRU`, `LSTM`) share: parameter names and shapes, checks
and torch's initialisation, the handling of inputs and initial states, and the stacking of
layer-directions (each model brings its cell's layer, `._gru_layer` / `._lstm_layer`).

Each layer is a frozen dataclass deriving from `RNNConfig` (the options torch's recurrent layers
share) and adding ``dtype``; these functions need no more than that and ``param_shapes()``.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable
from typing import Any, ClassVar, NamedTuple

import jax
import jax.numpy as jnp
from . import _rnn_kernel, _rnn_native

DTYPES = ("float32", "bfloat16", "float64", "float16")


@dataclasses.dataclass(frozen=True)
class RNNConfig:
    """The options `GRU` and `LSTM` share, as torch names them; each adds its own after these
    (``dtype``, and the LSTM's ``proj_size`` before it), so the positional order is torch's."""

    _gates: ClassVar[int]  # gates per cell: 3 (GRU), 4 (LSTM)

    input_size: int
    """Features of each input step."""
    hidden_size: int
    """Features of the state ``h`` (LSTM: of the cell state ``c``, and of ``h`` without ``proj_size``)."""
    num_layers: int = 1
    """Stacked layers; layer ``l + 1`` reads layer ``l``'s outputs."""
    bias: bool = True
    """Whether the ``bias_ih_*`` / ``bias_hh_*`` parameters exist."""
    batch_first: bool = False
    """Inputs and outputs are ``(batch, seq, feature)`` instead of ``(seq, batch, feature)``. As in
    torch, the initial and final states stay ``(layers * dirs, batch, ...)`` either way."""
    bidirectional: bool = False
    """Run each layer forwards and backwards over time and concatenate the two."""

    def __post_init__(self) -> None:
        check_config(self)

    @property
    def num_directions(self) -> int:
        return 2 if self.bidirectional else 1

    def param_shapes(self) -> dict[str, tuple[int, ...]]:
        """Every parameter's torch name and shape, in torch's order."""
        return param_shapes(self, self._gates)

    def init(self, key: jax.Array) -> dict[str, jax.Array]:
        """Parameters drawn as torch draws them: every entry uniform in ``±1/sqrt(hidden_size)``."""
        return init(self, key)


def check_config(config: Any) -> None:
    """Positive sizes and a supported dtype; normalises ``config.dtype`` to its name."""
    kind = type(config).__name__
    for name in ("input_size", "hidden_size", "num_layers"):
        value = getattr(config, name)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"{kind} {name} must be a positive int, got {value!r}")
    try:
        name = jnp.dtype(config.dtype).name
    except TypeError:
        name = repr(config.dtype)
    if name not in DTYPES:
        raise ValueError(f"{kind} dtype must be one of {', '.join(DTYPES)}, got {name}")
    object.__setattr__(config, "dtype", name)  # normalise jnp.float32 / np.dtype to its name
    if name == "float32" and jax.default_backend() == "cpu":
        _rnn_native.build()  # now, not inside the user's jit: a first build is never timed as tracing


def suffixes(layer: int, num_directions: int) -> tuple[str, ...]:
    """torch's parameter-name suffixes of one layer: ``_l{layer}`` and ``_l{layer}_reverse``."""
    return (f"_l{layer}", f"_l{layer}_reverse")[:num_directions]


def param_shapes(config: Any, gates: int, proj_size: int = 0) -> dict[str, tuple[int, ...]]:
    """Every parameter's torch name and shape, in torch's order, for a cell of ``gates`` gates;
    with ``proj_size`` (the LSTM's), ``h`` has that many features and ``weight_hr_*`` projects it."""
    hidden, shapes = config.hidden_size, {}
    out = proj_size or hidden
    for depth in range(config.num_layers):
        fan_in = config.input_size if depth == 0 else out * config.num_directions
        for suffix in suffixes(depth, config.num_directions):
            shapes[f"weight_ih{suffix}"] = (gates * hidden, fan_in)
            shapes[f"weight_hh{suffix}"] = (gates * hidden, out)
            if config.bias:
                shapes[f"bias_ih{suffix}"] = (gates * hidden,)
                shapes[f"bias_hh{suffix}"] = (gates * hidden,)
            if proj_size:
                shapes[f"weight_hr{suffix}"] = (proj_size, hidden)
    return shapes


def weights(params: dict[str, jax.Array], suffix: str) -> tuple[jax.Array, jax.Array, Any, Any]:
    """One layer-direction's ``(W_ih, W_hh, b_ih, b_hh)``; the biases are None without ``bias``."""
    return (params[f"weight_ih{suffix}"], params[f"weight_hh{suffix}"],
            params.get(f"bias_ih{suffix}"), params.get(f"bias_hh{suffix}"))


def stack(config: Any, x: jax.Array,
          run: Callable[[jax.Array, str, int, bool], tuple[jax.Array, Any]]) -> tuple[jax.Array, jax.Array, list]:
    """Every layer-direction in torch's order, layer ``l + 1`` reading layer ``l``'s outputs (both
    directions concatenated).

    ``run(layer_input, suffix, state, reverse)`` runs one layer-direction over the time-major
    ``layer_input`` (``suffix`` names its parameters, ``state`` indexes its initial states) and
    returns every step's ``h`` ``(T, B, H)`` and whatever else the cell ends with (the LSTM's
    ``c_n``). Returns the last layer's outputs, every layer-direction's final ``h`` stacked
    ``(layers * directions, B, H)`` and the list of the cell's extras.
    """
    seq = x.shape[0]
    layer_input, h_finals, extras = x, [], []
    for index in range(config.num_layers):
        outputs = []
        for direction, suffix in enumerate(suffixes(index, config.num_directions)):
            hs, extra = run(layer_input, suffix, index * config.num_directions + direction, direction == 1)
            outputs.append(hs)
            h_finals.append(hs[0] if direction == 1 else hs[seq - 1])
            extras.append(extra)
        layer_input = outputs[0] if len(outputs) == 1 else jnp.concatenate(outputs, axis=-1)
    # (layers * directions, batch, ...) whatever batch_first says, as in torch
    return layer_input, jnp.stack(h_finals), extras


@functools.partial(jax.jit, static_argnums=0)
def init(config: Any, key: jax.Array) -> dict[str, jax.Array]:
    """Parameters drawn as torch draws them: every entry uniform in ``±1/sqrt(hidden_size)``."""
    # One draw for all parameters, then slices: XLA:CPU took ~10 s to compile one threefry
    # per parameter (16 of them for 2 bidirectional layers), well under 1 s for one.
    bound = 1.0 / math.sqrt(config.hidden_size)
    shapes = config.param_shapes()
    sizes = [math.prod(shape) for shape in shapes.values()]
    flat = jax.random.uniform(key, (sum(sizes),), jnp.dtype(config.dtype), -bound, bound)
    params, start = {}, 0
    for (name, shape), size in zip(shapes.items(), sizes):
        params[name] = flat[start:start + size].reshape(shape)
        start += size
    return params


class Run(NamedTuple):
    """What a layer's ``apply`` runs on, once its parameters and input are checked (`prepare`)."""

    x: jax.Array                 # time-major (seq, batch, feature), a batch of one if unbatched
    dtype: jax.numpy.dtype       # the parameters'
    unbatched: bool
    batch: int
    states: int                  # initial / final states: num_layers * num_directions
    kernel: _rnn_kernel.Kernel


def prepare(config: Any, params: Any, x: Any, kernel: _rnn_kernel.Kernel | None) -> Run:
    """Checks ``params`` and ``x``, puts ``x`` time-major and chooses the kernel if none is given."""
    dtype = check_params(config, params)
    x, unbatched = time_major(config, x, dtype)
    batch = x.shape[1]
    if kernel is None:
        kernel = _rnn_kernel.choose(batch=batch, hidden=config.hidden_size, dtype=dtype)
    return Run(x, dtype, unbatched, batch, config.num_layers * config.num_directions, kernel)


def check_params(config: Any, params: Any) -> jax.numpy.dtype:
    """That ``params`` hold exactly ``config``'s names and shapes, in one dtype; returns it."""
    if not isinstance(params, dict):
        raise TypeError(f"expected params as a dict of torch-named arrays, got {type(params).__name__}")
    expected = config.param_shapes()
    missing = [k for k in expected if k not in params]
    extra = [k for k in params if k not in expected]
    if missing or extra:
        raise ValueError(
            f"params do not match {config}: missing {missing}, unexpected {extra}. "
            f"Fix: build them with the same {type(config).__name__}'s init(), or from_torch() of the "
            f"module they came from"
        )
    wrong = {k: tuple(params[k].shape) for k, s in expected.items() if tuple(params[k].shape) != s}
    if wrong:
        detail = ", ".join(f"{k}: expected {expected[k]}, got {s}" for k, s in wrong.items())
        raise ValueError(f"params shapes do not match {config}: {detail}")
    dtypes = {jnp.dtype(params[k].dtype) for k in expected}
    if len(dtypes) != 1:
        raise TypeError(f"expected all params in one dtype, got {sorted(d.name for d in dtypes)}")
    return dtypes.pop()


def time_major(config: Any, x: Any, dtype: jax.numpy.dtype) -> tuple[jax.Array, bool]:
    """``x`` checked and as ``(seq, batch, input_size)``; and whether it came unbatched."""
    x = jnp.asarray(x)
    if x.dtype != dtype:
        raise TypeError(f"expected x of dtype {dtype.name} (the params'), got {x.dtype.name}: "
                        f"pass x.astype(jnp.{dtype.name})")
    if x.ndim not in (2, 3) or x.shape[-1] != config.input_size:
        layout = "(batch, seq, input_size)" if config.batch_first else "(seq, batch, input_size)"
        raise ValueError(f"expected x of shape {layout} or (seq, input_size) with input_size="
                         f"{config.input_size}, got {tuple(x.shape)}")
    if x.ndim == 2:
        return x[:, None], True
    return (jnp.swapaxes(x, 0, 1) if config.batch_first else x), False


def initial_state(name: str, given: Any, states: int, batch: int, size: int,
                  dtype: jax.numpy.dtype, unbatched: bool, size_name: str = "hidden_size") -> jax.Array:
    """``given`` checked as ``(states, batch, size)`` (unbatched: ``(states, size)``), or zeros."""
    if given is None:
        return jnp.zeros((states, batch, size), dtype)
    given = jnp.asarray(given)
    expected = (states, size) if unbatched else (states, batch, size)
    if tuple(given.shape) != expected:
        raise ValueError(f"expected {name} of shape {expected} (num_layers * num_directions"
                         f"{'' if unbatched else ', batch'}, {size_name}), got {tuple(given.shape)}")
    if given.dtype != dtype:
        raise TypeError(f"expected {name} of dtype {dtype.name} (the params'), got {given.dtype.name}")
    return given[:, None] if unbatched else given


def batch_layout(config: Any, output: jax.Array, unbatched: bool) -> jax.Array:
    """A time-major ``(seq, batch, ...)`` output back in the caller's layout."""
    if unbatched:
        return output[:, 0]
    return jnp.swapaxes(output, 0, 1) if config.batch_first else output
