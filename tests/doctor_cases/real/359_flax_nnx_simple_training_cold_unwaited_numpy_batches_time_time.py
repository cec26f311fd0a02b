# source: https://github.com/google/flax/blob/19f78a6e38d1ecae2db25b6b889f9c49f3e51567/benchmarks/nnx_simple_training.py
# title: Flax `benchmarks/nnx_simple_training.py`: 10,000 steps of an NNX MLP trained with optax SGD, once through `nnx.jit` with `nnx.cached_partial` and once through `jax.jit` over `nnx.split` state, each loop timed whole with `time()` and divided into a 'time per step'
# established-by: maintainer cgarciae (Flax's own NNX overhead benchmark; Flax's 'Performance considerations' guide cites this script for its nnx.jit against jax.jit figures)
# cause: The script compares the per-step cost of an NNX training step under `nnx.jit` (with `nnx.cached_partial`) and under `jax.jit` with `nnx.split`/`nnx.merge`. No issue discusses its timing; what a correct doctor reports, by the catalogue and the corpus's readings (case 268, the same benchmark family's MLP-Mixer script, and case 319): in each mode the clock starts (`t0 = time()`) before the jitted train and test steps are even defined, and no step is called before it, so the first of the 10,000 train steps and the first test step trace and compile inside the timed loop, and the 'time per step' in microseconds is an average that holds two compiles (LB103, at the train-step and test-step calls in each loop). The clock stops after `print(f"final loss: {logs['loss']}")`, which waits only for the test step of step 9000: the 999 train steps dispatched after it are not waited for (`nnx.merge` and the in-place NNX updates wait for nothing), so the tail of the loop can fall outside the figure (LB102, at the train-step calls). Every step is handed `batch`, NumPy rows drawn by `dataset` from the NumPy arrays `X` and `Y`, and every test step the NumPy `(X, Y)`, so each timed call copies host data to the device (LB115, the reading of cases 268 and 289-291). The interval is read with `time()` imported from `time`, the wall clock (LB105, at each start read; cases 265, 268 and 319). Code: the file as stored at commit 19f78a6, with the license header and the model classes (`Linear`, `Block`, `Count`, `MLP`, 38 lines of `nnx.Module` definitions that time nothing and stand in case 319's `nnx_graph_overhead.py`) left out; `dataset` and `main` as stored.
# static: LB103, LB102, LB115, LB105
# dynamic: n/a
# inferred: LB103 (no warm-up step before either timed loop; not discussed), LB102 (the clock stops with the last 999 train steps unwaited; not discussed), LB115 (NumPy batches handed to the jitted steps inside the timing; not discussed), LB105 (`time()` as the interval clock; not discussed)
# lines: LB103:81/84/128/131, LB102:81/128, LB115:81/84/128/131, LB105:57/100
# first-sight: 93cdbc0 2026-12-06 py: found LB105:57 LB105:100 LB103:128; missed LB102:81/128, LB115:81/84/128/131; false LB107:60 LB115:90 LB115:139 | notebook: found LB105:57 LB105:100 LB103:128; missed LB102:81/128, LB115:81/84/128/131; false LB107:60 LB115:90 LB115:139

# %%
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
import optax
from time import time

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
flags.DEFINE_integer('depth', 5, 'Depth of the model')


def dataset(X, Y, batch_size):
  while True:
    idx = np.random.choice(len(X), size=batch_size)
    yield X[idx], Y[idx]


def main(argv):
  print(argv)
  mode: str = FLAGS.mode
  total_steps: int = FLAGS.total_steps
  batch_size: int = FLAGS.batch_size
  width: int = FLAGS.width
  depth: int = FLAGS.depth

  print(f'{mode=}, {total_steps=}, {batch_size=}, {width=}')

  X = np.linspace(0, 1, 100)[:, None]
  Y = 0.8 * X**2 + 0.1 + np.random.normal(0, 0.1, size=X.shape)

  if mode == 'nnx' or mode == 'all':
    model = MLP(din=1, dhidden=width, dout=1, depth=depth, rngs=nnx.Rngs(0))
    tx = optax.sgd(1e-3)
    optimizer = nnx.Optimizer(model, tx)
    t0 = time()

    @nnx.jit(donate_argnums=(0, 1))
    def train_step_nnx(model: MLP, optimizer: nnx.Optimizer, batch):
      x, y = batch

      def loss_fn(model: MLP):
        y_pred = model(x)
        return jnp.mean((y - y_pred) ** 2)

      grads: nnx.State = nnx.grad(loss_fn)(model)
      optimizer.update(grads)

    @nnx.jit(donate_argnums=0)
    def test_step_nnx(model: MLP, batch):
      x, y = batch
      y_pred = model(x)
      loss = jnp.mean((y - y_pred) ** 2)
      return {'loss': loss}

    cached_train_step_nnx = nnx.cached_partial(train_step_nnx, model, optimizer)
    cached_test_step_nnx = nnx.cached_partial(test_step_nnx, model)

    for step, batch in enumerate(dataset(X, Y, batch_size)):
      cached_train_step_nnx(batch)

      if step % 1000 == 0:
        logs = cached_test_step_nnx((X, Y))

      if step >= total_steps - 1:
        break

    print('### NNX ###')
    print(f"final loss: {logs['loss']}")
    total_time = time() - t0
    print('total time:', total_time)
    print(f'time per step: {total_time / total_steps * 1e6:.2f} µs')
    print('times called:', model.count.value)

  if mode == 'jax' or mode == 'all':
    model = MLP(din=1, dhidden=width, dout=1, depth=depth, rngs=nnx.Rngs(0))
    tx = optax.sgd(1e-3)
    optimizer = nnx.Optimizer(model, tx)
    t0 = time()

    @partial(jax.jit, donate_argnums=0)
    def train_step_jax(state, batch):
      model, optimizer = nnx.merge(graphdef, state)
      x, y = batch

      def loss_fn(model: MLP):
        y_pred = model(x)
        return jnp.mean((y - y_pred) ** 2)

      grads = nnx.grad(loss_fn)(model)
      optimizer.update(grads)

      return nnx.state((model, optimizer))

    @partial(jax.jit, donate_argnums=0)
    def test_step_jax(state, batch):
      model, optimizer = nnx.merge(graphdef, state)
      x, y = batch
      y_pred = model(x)
      loss = jnp.mean((y - y_pred) ** 2)
      state = nnx.state((model, optimizer))
      return state, {'loss': loss}

    graphdef, state = nnx.split((model, optimizer))

    for step, batch in enumerate(dataset(X, Y, batch_size)):
      state = train_step_jax(state, batch)

      if step % 1000 == 0:
        state, logs = test_step_jax(state, (X, Y))

      if step >= total_steps - 1:
        break

    model, optimizer = nnx.merge(graphdef, state)

    print('### JAX ###')
    print(f"final loss: {logs['loss']}")
    total_time = time() - t0
    print('total time:', total_time)
    print(f'time per step: {total_time / total_steps * 1e6:.2f} µs')
    print('times called:', model.count.value)


if __name__ == '__main__':
  app.run(main)
