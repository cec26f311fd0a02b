# source: https://github.com/jenkspt/gpt-jax/blob/21c04cfade70226d68fd4076e579438911d34522/bench.py
# title: gpt-jax `bench.py`: nanoGPT's benchmark loop ported to a pmapped Flax GPT, a 10-step burn-in then 20 timed training steps between two `time.time()` reads, the parameters waited for before and the last loss after
# established-by: maintainer jenkspt (the repository's benchmark script, after nanoGPT's `bench.py`)
# cause: The timing is sound in its structure: the first stage (10 steps) runs the same loop untimed in effect (its figure is not printed), so the step's compile falls there; each stage starts after `block_until_ready` on every parameter leaf, so no earlier work spills in; and the clock stops after `loss.block_until_ready()` on the last step's loss, which each step's parameter update feeds, and the figure is the average of 20 steps. Its one fault is the clock: the interval is read with `time.time()`, the wall clock (LB105, at the start read; cases 202, 207, 265). Each timed step also draws its batch from a NumPy memmap through `get_train_batch` (in `train.py`), host work and a host-to-device copy that the end-to-end 'time per iteration' is meant to include, as nanoGPT's own `bench.py` does (case 258's reading of data-loader batches: no LB115). No issue discusses the file; the reading is the catalogue's. Code: the file as stored at commit 21c04cf, unchanged.
# static: LB105
# dynamic: n/a
# inferred: LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB105:61
# first-sight: 0228b9c 2026-12-06 py: found LB105:61; missed none; false LB114:62 | notebook: found LB105:61; missed none; false LB114:62

import time
import numpy as np
import tyro

import jax
import jax.numpy as jnp
import flax
from flax.training.train_state import TrainState
from flax.jax_utils import replicate, unreplicate
import optax

from model import GPT, GPTConfig
from train import (
    train_step,
    init_train_state,
    get_train_batch,
    count_params,
    param_decay_mask,
)

# -----------------------------------------------------------------------------

def benchmark(
    batch_size: int = 8,
    seed: int = 1337,
    model: GPTConfig = GPTConfig()):

    block_size = model.block_size

    key = jax.random.PRNGKey(seed)
    key, key_params, key_dropout = jax.random.split(key, 3)
    keys_dropout = jax.random.split(key_dropout, jax.device_count())
    # make sure dropout keys are different for each device (local and global)
    keys_dropout = jnp.array_split(keys_dropout, jax.local_device_count())[jax.process_index()]

    optimizer = optax.adam(3e-4, 0.9, 0.95)

    train_state = init_train_state(key_params, model, optimizer)

    num_params = count_params(train_state.params)
    if jax.process_index() == 0:
        #logging.info(f'PARAMETER COUNT: {num_params:,}')
        print(f'PARAMETER COUNT: {num_params:,}')

    train_state = replicate(train_state)

    data = np.memmap(f'train_{jax.process_index()}.bin', dtype=np.uint16, mode='r')
    # simple benchmarking
    for stage, num_steps in enumerate([10, 20]): # burnin, then benchmark
        jax.tree_util.tree_map(lambda a: a.block_until_ready(), train_state.params)
        t0 = time.time()
        for k in range(num_steps):
            key, key_batch = jax.random.split(key)
            tokens = get_train_batch(data, batch_size, block_size, key_batch)
            loss, train_state = train_step(train_state, tokens, keys_dropout)

            #print(f"{k}/{num_steps} loss: {loss:.4f}")
        loss.block_until_ready()
        t1 = time.time()
        if stage == 1:
            print(f"time per iteration: {(t1-t0)/num_steps*1000:.4f}ms")

if __name__ == "__main__":
    tyro.cli(benchmark)
