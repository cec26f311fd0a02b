"""The LSTM beside the GRU question: a 2-layer LSTM + dense + per-step L2 normalisation, torch.nn.LSTM
against Flax's ``OptimizedLSTMCell`` (in a ``lax.scan`` and in ``nn.RNN``) and levelbench.nn.LSTM.

Every JAX candidate loads the torch model's weights, so all compute the same function (checked
before timing). ``mode="train"`` times forward + backward (loss, d loss / d input, and all
parameter gradients).
"""

from __future__ import annotations

from .._measuring.candidate import Candidate
from ._base import Skipped, Workload
from ._lstm_models import FlaxLSTMModel, flax_params, torch_model
from ._rnn import (levelbench_candidate, recurrent_flops, recurrent_params, seed_data, torch_forward,
                   train_candidates, with_flops)


def lstm_flops(hidden: int, seq: int, features: int, out: int, batch: int, layers: int) -> float:
    """Matmul FLOPs of one forward pass (four gates; see `recurrent_flops`)."""
    return recurrent_flops(hidden, seq, features, out, batch, layers, gates=4)


def build(hidden: int, seq: int, features: int, out: int, batch: int, layers: int, mode: str,
          seed: int) -> dict[str, Candidate | Skipped]:
    import jax

    model = torch_model(hidden, features, out, layers, seed)
    data = seed_data(seq, batch, features, out, seed)
    jx = data.jx
    params = flax_params(model)
    flax_model = FlaxLSTMModel(hidden, out, layers)
    flops = lstm_flops(hidden, seq, features, out, batch, layers)
    if mode == "train":
        # backward costs about twice the forward's matmuls (gradients for inputs and for weights)
        return with_flops(train_candidates("LSTM", model, model.lstm, flax_model, params, data), 3 * flops)

    cands: dict[str, Candidate | Skipped] = {
        "torch nn.LSTM": Candidate(torch_forward(model), (data.tx,), note="eval(), inference_mode()"),
        "flax lax.scan": Candidate(jax.jit(flax_model.scan), (params, jx), inputs=(jx,),
                                   note="OptimizedLSTMCell in a scan"),
        "flax linen.RNN": Candidate(jax.jit(flax_model.linen_rnn), (params, jx), inputs=(jx,),
                                    note="OptimizedLSTMCell, layer by layer"),
    }
    cands.update(levelbench_candidate("LSTM", model.lstm, model.dense, jx, train=False))
    return with_flops(cands, flops)



LSTM = Workload(
    name="lstm",
    description="2-layer LSTM + dense + per-step L2 normalisation: torch.nn.LSTM vs Flax OptimizedLSTMCell "
                "vs levelbench.nn.LSTM",
    build=build,
    params=[
        *recurrent_params("LSTM", "sequence length (the GRU question's: 1000)"),
    ],
    full={"seq": 1000},
    baseline="torch nn.LSTM",
    compare_options={"rtol": 1e-4},
    # inputs, targets, outputs and ~10 saved (T, B, H) arrays per layer for training; the weights
    footprint=lambda hidden, seq, features, out, batch, layers, **_: 8 * 4 * (
        seq * batch * (features + out + 10 * hidden * layers) + 8 * hidden * (hidden + features) * layers),
)
