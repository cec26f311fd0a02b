"""The GRU question (seed 000): a 2-layer Flax GRU that looked 1,700x slower than torch.nn.GRU.

Every JAX variant loads the torch model's weights, so all candidates compute the same function
(checked before timing). ``mode="train"`` times forward + backward (loss, d loss / d input, and
all parameter gradients).
"""

from __future__ import annotations

from .._measuring.candidate import Candidate
from ._base import Param, Skipped, Workload
from ._gru_models import FlaxSeedModel, flax_params, numpy_forward, torch_gru_weights, torch_model
from ._rnn import (levelbench_candidate, recurrent_flops, recurrent_params, seed_data, torch_forward,
                   train_candidates, with_flops)


def gru_flops(hidden: int, seq: int, features: int, out: int, batch: int, layers: int) -> float:
    """Matmul FLOPs of one forward pass (three gates; see `recurrent_flops`)."""
    return recurrent_flops(hidden, seq, features, out, batch, layers, gates=3)


def build(hidden: int, seq: int, features: int, out: int, batch: int, layers: int, mode: str,
          unrolled_max_seq: int, eager_max_seq: int, seed: int) -> dict[str, Candidate | Skipped]:
    import jax

    model = torch_model(hidden, features, out, layers, seed)
    data = seed_data(seq, batch, features, out, seed)
    x, jx = data.x, data.jx
    params = flax_params(model)
    flax_model = FlaxSeedModel(hidden, out, layers)
    if mode == "train":
        # backward costs about twice the forward's matmuls (gradients for inputs and for weights)
        return with_flops(train_candidates("GRU", model, model.gru, flax_model, params, data),
                          3 * gru_flops(hidden, seq, features, out, batch, layers))
    weights = torch_gru_weights(model)
    dense = (model.dense.weight.detach().numpy(), model.dense.bias.detach().numpy())
    cands: dict[str, Candidate | Skipped] = {
        "torch nn.GRU": Candidate(torch_forward(model), (data.tx,), note="eval(), inference_mode()"),
    }
    if seq <= eager_max_seq:
        cands["flax python loop"] = Candidate(flax_model.python_loop, (params, jx), inputs=(jx,),
                                              note="the question's version, not jitted: op-by-op dispatch")
    else:
        cands["flax python loop"] = Skipped(
            f"seq {seq} > --eager-max-seq {eager_max_seq}: op-by-op dispatch takes minutes at this length")
    if seq <= unrolled_max_seq:
        cands["flax jit(python loop)"] = Candidate(jax.jit(flax_model.python_loop), (params, jx), inputs=(jx,),
                                                   note="jit unrolls the loop: compile time grows with seq")
    else:
        cands["flax jit(python loop)"] = Skipped(
            f"seq {seq} > --unrolled-max-seq {unrolled_max_seq}: compiling {seq} unrolled steps takes minutes")
    cands["flax lax.scan"] = Candidate(jax.jit(flax_model.scan), (params, jx), inputs=(jx,), note="GRUCell in a scan")
    cands["flax linen.RNN"] = Candidate(jax.jit(flax_model.linen_rnn), (params, jx), inputs=(jx,),
                                        note="layer by layer")
    cands.update(levelbench_candidate("GRU", model.gru, model.dense, jx, train=False))
    cands["numpy reference"] = Candidate(lambda x: numpy_forward(weights, dense, x), (x,),
                                         note="torch's equations in NumPy")
    return with_flops(cands, gru_flops(hidden, seq, features, out, batch, layers))



GRU = Workload(
    name="gru",
    description="the GRU question: 2-layer GRU + dense + per-step L2 normalisation, torch vs Flax variants",
    build=build,
    params=[
        *recurrent_params("GRU", "sequence length (the question: 1000)"),
        Param("unrolled_max_seq", 100, int, "longest seq for which jit(python loop) is compiled", min=0),
        Param("eager_max_seq", 50, int, "longest seq for which the un-jitted python loop runs", min=0),
    ],
    full={"seq": 1000},
    baseline="torch nn.GRU",
    compare_options={"rtol": 1e-4},
    footprint=lambda hidden, seq, features, out, batch, layers, **_: 8 * 4 * (
        seq * batch * (features + out + 8 * hidden * layers) + 6 * hidden * (hidden + features) * layers),
)
