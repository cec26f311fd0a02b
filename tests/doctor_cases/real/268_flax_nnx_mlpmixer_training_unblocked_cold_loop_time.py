# source: https://github.com/google/flax/blob/7aea7d9503e8b5b656ad6360a7eaca6da31f3cd8/benchmarks/nnx_mlpmixer_training.py
# title: Flax `benchmarks/nnx_mlpmixer_training.py`: 10,000 `nnx.jit` training steps of an MLP-Mixer, NNX-style and split/merge-style, each loop timed as a whole with `time()` and divided into a time per step
# established-by: maintainer Flax authors (the repository's NNX training-overhead benchmark)
# cause: Each mode builds its jitted `train_step` and enters the timed loop straight away: the first of the 10,000 calls traces and compiles the MLP-Mixer step (its `print('JITTING ...')` shows it) inside the timing, and no call runs before `t0` (the catalogue's LB103: an average over a loop inflated by the compile). The clock is read right after the loop with nothing waited for: the losses are only read after `total_time` is taken, and `nnx.update` of the state waits for nothing, so the steps still queued when the loop ends fall outside the figure (LB102). Every step is also handed `X`, a NumPy array, which is copied to the device on every call inside the timing (LB115). The interval is read with `time()` from `time`, the wall clock (LB105). No issue discusses the file; the readings are the catalogue's. Code: the file as stored at commit 7aea7d9, with the license header and the model classes (`MlpBlock`, `MixerBlock`, `MlpMixer`, 100 lines of `nnx.Module` definitions that time nothing) trimmed; `main` as stored.
# static: LB103, LB102, LB115, LB105
# dynamic: n/a
# inferred: LB103 (the first call of each jitted step is inside the timed loop; not discussed), LB102 (the clock is read before any step is waited for; not discussed), LB115 (the NumPy batch `X` goes to the device on every timed call; not discussed), LB105 (`time()` as the interval clock; not discussed, as for case 265)
# lines: LB103:84/131, LB102:84/131, LB115:84/131, LB105:82/129
# first-sight: 9c65424 2026-12-06 py: found LB105:82 LB102:84 LB103:84 LB115:84 LB105:129 LB103:131 LB115:131; missed none; false none | notebook: found LB105:82 LB102:84 LB103:84 LB115:84 LB105:129 LB103:131 LB115:131; missed none; false none

# %%
from functools import partial
import jax
import jax.numpy as jnp
from flax import nnx
import optax
import numpy as np
from einop import einop
from time import time
from tqdm import tqdm

from flax import nnx

from absl import flags
from absl import app

FLAGS = flags.FLAGS
flags.DEFINE_enum(
  'mode', 'all', ['all', 'nnx', 'jax'], 'Mode to run the script in'
)
flags.DEFINE_integer('total_steps', 10_000, 'Total number of training steps')
flags.DEFINE_integer('batch_size', 32, 'Batch size')
flags.DEFINE_integer('width', 32, 'Hidden layer size')
flags.DEFINE_integer('depth', 4, 'Depth of the model')


def main(argv):
  print(argv)
  mode: str = FLAGS.mode
  total_steps: int = FLAGS.total_steps
  batch_size: int = FLAGS.batch_size
  width: int = FLAGS.width
  depth: int = FLAGS.depth

  print(f'{mode=}, {total_steps=}, {batch_size=}, {width=}')

  X = np.random.uniform(size=(batch_size, 28, 28, 1))

  if mode == 'nnx' or mode == 'all':
    rngs = nnx.Rngs(0)
    flow = MlpMixer(
      din=1,
      kernel_size=(2, 2),
      strides=(2, 2),
      num_blocks=4,
      hidden_dim=512,
      tokens_mlp_dim=196,
      channels_mlp_dim=512,
      rngs=rngs,
    )
    optimizer = nnx.Optimizer(flow, tx=optax.adamw(1e-4))
    t0 = time()

    mse = lambda a, b: jnp.mean((a - b) ** 2)

    @nnx.jit(donate_argnums=(0, 1, 2))
    def train_step_nnx(flow, optimizer, rngs, x_1):
      print('JITTING NNX')
      x_0 = jax.random.normal(rngs(), x_1.shape)
      t = jax.random.uniform(rngs(), (len(x_1),))

      x_t = jax.vmap(lambda x_0, x_1, t: (1 - t) * x_0 + t * x_1)(x_0, x_1, t)
      dx_t = x_1 - x_0

      loss, grads = nnx.value_and_grad(
        lambda flow: mse(flow(x=x_t, t=t), dx_t)
      )(flow)
      optimizer.update(grads)
      return loss

    losses = []
    t0 = time()
    for step in tqdm(range(total_steps), desc='NNX'):
      loss = train_step_nnx(flow, optimizer, rngs, X)
      losses.append(loss)

    total_time = time() - t0
    print('### NNX ###')
    print(f'final loss: {losses[-1]}')
    print('total time:', total_time)
    print(f'time per step: {total_time / total_steps * 1e6:.2f} µs')

  if mode == 'jax' or mode == 'all':
    rngs = nnx.Rngs(0)
    flow = MlpMixer(
      din=1,
      kernel_size=(2, 2),
      strides=(2, 2),
      num_blocks=depth,
      hidden_dim=width,
      tokens_mlp_dim=196,
      channels_mlp_dim=width,
      rngs=rngs,
    )
    optimizer = nnx.Optimizer(flow, tx=optax.adamw(1e-4))
    graphdef, state = nnx.split((flow, optimizer, rngs))
    t0 = time()

    mse = lambda a, b: jnp.mean((a - b) ** 2)

    @partial(nnx.jit, donate_argnums=0)
    def train_step_jax(state, x_1):
      print('JITTING JAX')
      flow, optimizer, rngs = nnx.merge(graphdef, state)
      x_0 = jax.random.normal(rngs(), x_1.shape)
      t = jax.random.uniform(rngs(), (len(x_1),))

      x_t = jax.vmap(lambda x_0, x_1, t: (1 - t) * x_0 + t * x_1)(x_0, x_1, t)
      dx_t = x_1 - x_0

      loss, grads = nnx.value_and_grad(
        lambda flow: mse(flow(x=x_t, t=t), dx_t)
      )(flow)
      optimizer.update(grads)
      state = nnx.state((flow, optimizer, rngs))
      return loss, state

    losses = []
    t0 = time()
    for step in tqdm(range(total_steps), desc='JAX'):
      loss, state = train_step_jax(state, X)
      losses.append(loss)

    nnx.update((flow, optimizer, rngs), state)
    total_time = time() - t0
    print('### JAX ###')
    print(f'final loss: {losses[-1]}')
    print('total time:', total_time)
    print(f'time per step: {total_time / total_steps * 1e6:.2f} µs')


if __name__ == '__main__':
  app.run(main)
