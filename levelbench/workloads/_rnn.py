"""What the recurrent workloads (`gru`, `lstm`) share: FLOP accounting, the inputs, the training steps
of each framework and their candidates, and levelbench.nn's candidate loaded with the torch model's weights.

Each torch model is a recurrent layer, a dense layer and a per-step L2 normalisation; every JAX
candidate takes the torch model's weights, so all compute the same function (checked before timing).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .._measuring.candidate import Candidate
from ._base import Param, Skipped


def recurrent_params(cell: str, seq_help: str) -> list[Param]:
    """The parameters both recurrent workloads take, in this order: the model's sizes and the mode;
    ``cell`` ("GRU", "LSTM") names the layer in their help."""
    return [
        Param("hidden", 200, int, f"{cell} hidden size", min=1, max=100_000),
        Param("seq", 50, int, seq_help, min=1, max=10_000_000),
        Param("features", 6, int, "input features", min=1, max=100_000),
        Param("out", 4, int, "dense output size", min=1, max=100_000),
        Param("batch", 8, int, "batch size", min=1, max=10_000_000),
        Param("layers", 2, int, f"{cell} layers", min=1, max=1000),
        Param("mode", "forward", str, "forward (inference) or train (forward + backward)",
              choices=("forward", "train")),
    ]


def recurrent_flops(hidden: int, seq: int, features: int, out: int, batch: int, layers: int, gates: int) -> float:
    """Matmul FLOPs of one forward pass: per layer and step, the input and recurrent projections to
    ``gates`` gates (GRU 3, LSTM 4); then the dense layer. Element-wise gate arithmetic (a few %
    more) is left out."""
    per_step = sum(2 * batch * (features if layer == 0 else hidden) * gates * hidden
                   + 2 * batch * hidden * gates * hidden for layer in range(layers))
    return float(seq * (per_step + 2 * batch * hidden * out))


def with_flops(cands: dict[str, Candidate | Skipped], flops: float) -> dict[str, Candidate | Skipped]:
    """Every candidate computes the same model: declare its FLOPs (XLA cannot count through a scan)."""
    return {n: dataclasses.replace(c, flops=flops) if isinstance(c, Candidate) and c.flops is None else c
            for n, c in cands.items()}


def first_two(out: Any) -> Any:
    """What a training step's agreement check compares: the loss and the input's gradient."""
    return out[:2]


def torch_train_step(model: Any) -> Any:
    """``(x, target) -> (loss, d loss / d x)``, all parameter gradients computed (into ``.grad``)."""
    import torch

    model.train()  # no dropout in these models: train() only matters for autograd bookkeeping

    def step(x: torch.Tensor, target: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        xg = x.detach().requires_grad_(True)
        model.zero_grad(set_to_none=True)
        loss = ((model(xg) - target) ** 2).mean()
        loss.backward()
        return loss.detach(), xg.grad

    return step


def jax_train_step(forward: Any) -> Any:
    """``jit((params, x, target) -> (loss, d loss / d x, d loss / d params))`` for ``forward(params, x)``."""
    import jax
    import jax.numpy as jnp

    def loss_fn(params: Any, x: Any, target: Any) -> Any:
        return jnp.mean((forward(params, x) - target) ** 2)

    def step(params: Any, x: Any, target: Any) -> Any:
        loss, (d_params, d_x) = jax.value_and_grad(loss_fn, argnums=(0, 1))(params, x, target)
        return loss, d_x, d_params

    return jax.jit(step)


@dataclasses.dataclass(frozen=True)
class SeedData:
    """One workload's inputs and training targets, (seq, batch, ·) float32, as NumPy, torch and JAX arrays."""

    x: Any
    tx: Any
    ttarget: Any
    jx: Any
    jtarget: Any


def seed_data(seq: int, batch: int, features: int, out: int, seed: int) -> SeedData:
    import jax
    import numpy as np
    import torch

    rng = np.random.default_rng(seed)
    x = rng.standard_normal((seq, batch, features)).astype(np.float32)
    target = rng.standard_normal((seq, batch, out)).astype(np.float32)
    return SeedData(x, torch.from_numpy(x), torch.from_numpy(target), jax.device_put(x), jax.device_put(target))


def train_candidates(name: str, model: Any, layer: Any, flax_model: Any, params: Any,
                     data: SeedData) -> dict[str, Candidate | Skipped]:
    """Forward + backward for torch.nn.``name`` (``model``, its recurrent ``layer``), the Flax model in a
    ``lax.scan`` and in ``nn.RNN`` (``flax_model`` with ``params``), and levelbench.nn.``name``."""
    jx, jtarget = data.jx, data.jtarget
    cands: dict[str, Candidate | Skipped] = {
        f"torch nn.{name}": Candidate(torch_train_step(model), (data.tx, data.ttarget), note="forward + backward"),
        "flax lax.scan": Candidate(jax_train_step(flax_model.scan), (params, jx, jtarget), inputs=(jx, jtarget),
                                   checked_output=first_two, note="value_and_grad"),
        "flax linen.RNN": Candidate(jax_train_step(flax_model.linen_rnn), (params, jx, jtarget),
                                    inputs=(jx, jtarget), checked_output=first_two, note="value_and_grad"),
    }
    cands.update(levelbench_candidate(name, layer, model.dense, jx, train=True, target=jtarget))
    return cands


def torch_forward(model: Any) -> Any:
    """``x -> model(x)`` in inference mode (no autograd bookkeeping), as a user times eval()."""
    import torch

    def forward(x: torch.Tensor) -> torch.Tensor:
        with torch.inference_mode():
            return model(x)

    return forward


def levelbench_candidate(name: str, layer: Any, dense: Any, jx: Any, train: bool,
                         target: Any = None) -> dict[str, Candidate]:
    """levelbench.nn's GRU or LSTM (``name``), loaded from the torch ``layer`` and ``dense``."""
    import jax
    import jax.numpy as jnp

    # lazy: levelbench.nn imports jax, which the other workloads' workers must not load
    from ..nn import from_torch

    layer_params, model = from_torch(layer)
    params = {
        "rnn": layer_params,
        "dense_w": jnp.asarray(dense.weight.detach().numpy().T),
        "dense_b": jnp.asarray(dense.bias.detach().numpy()),
    }

    def forward(p: Any, x: Any) -> Any:
        out, _ = model.apply(p["rnn"], x)
        y = out @ p["dense_w"] + p["dense_b"]
        return y / jnp.linalg.norm(y, axis=-1, keepdims=True)

    label = f"levelbench {name}"
    if not train:
        return {label: Candidate(jax.jit(forward), (params, jx), inputs=(jx,),
                                 note=f"levelbench.nn.{name}: {recurrence()}")}
    return {label: Candidate(jax_train_step(forward), (params, jx, target), inputs=(jx, target),
                             checked_output=first_two, note=f"levelbench.nn.{name}, custom VJP: {recurrence()}")}


def recurrence() -> str:
    """How levelbench.nn's float32 recurrences run in this process, for the candidate's note."""
    import jax

    # lazy: jax loads here, not when this module is imported
    from ..nn import _rnn_native

    if jax.default_backend() != "cpu":
        return "XLA loops (the native kernel is CPU-only)"
    return _rnn_native.describe()
