# source: https://github.com/google-deepmind/optax/issues/319
# explain: train_step
# dynamic: LB240
# Runnable copy of 025_optax_update_outside_jit.py for levelbench.explain: smallest sizes that keep the pattern.

from flax import linen as nn
import optax
import jax
import jax.numpy as jnp

# The example's main() set-up at module level; train_step is the body of its
# training loop, as posted: only the loss is jitted.
learning_rate = 1e-2
rng = jax.random.PRNGKey(0)
rng1, rng2 = jax.random.split(rng)
model = nn.Dense(features=5)
params = model.init(rng2, jax.random.normal(rng1, (10,)))
nsamples, xdim, ydim = 20, 10, 5
W = jax.random.normal(rng1, (xdim, ydim))
b = jax.random.normal(rng2, (ydim,))
ksample, knoise = jax.random.split(rng1)
x_samples = jax.random.normal(ksample, (nsamples, xdim))
y_samples = jnp.dot(x_samples, W) + b
y_samples += 0.1 * jax.random.normal(knoise, (nsamples, ydim))


def make_mse_func(x_batched, y_batched):
  def mse(params):
    def squared_error(x, y):
      pred = model.apply(params, x)
      return jnp.inner(y-pred, y-pred) / 2.0
    return jnp.mean(jax.vmap(squared_error)(x_batched,y_batched), axis=0)
  return jax.jit(mse)


loss = make_mse_func(x_samples, y_samples)
tx = optax.chain(
    optax.scale_by_adam(b1=0.9, b2=0.999, eps=1e-8),
    optax.scale(-learning_rate)
)
opt_state = tx.init(params)
loss_grad_fn = jax.value_and_grad(loss)


def train_step(params, opt_state):
  loss_val, grads = loss_grad_fn(params)
  updates, opt_state = tx.update(grads, opt_state)
  params = optax.apply_updates(params, updates)
  return params, opt_state, loss_val


def train_step_args():
    return (params, opt_state)
