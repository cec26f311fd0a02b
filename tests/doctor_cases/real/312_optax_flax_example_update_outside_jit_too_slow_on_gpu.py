# source: https://github.com/google-deepmind/optax/issues/319
# title: Too slow on GPU: optax's `examples/flax_example.py`, which jits only the MSE loss and runs `tx.update` and `optax.apply_updates` op by op in its 100-step training loop, ran in under 2 s on CPU and over 28 s on GPU
# established-by: maintainer mkunesch (the `jit` is placed only around the loss function, not the optax calls, so the optax code runs slowly and not on device; the example should put the update and apply inside the `jit`)
# cause: The training loop calls the jitted loss through an unjitted `jax.value_and_grad`, then `tx.update(grads, opt_state)` (Adam's moment updates and the scaling, a handful of element-wise operations per parameter leaf) and `optax.apply_updates` outside any `jit`: every operation of the optimiser is dispatched on its own, 100 times, which on a GPU costs a kernel launch and a dispatch each and makes the example 14x slower than on CPU, as mkunesch explained. The catalogue's LB114 covers a JAX library's function called in a loop where the library leaves the jit to its user; the finding belongs at the optimiser calls in the loop. The example reads no clock (the reporter timed the whole run from outside), so no timing code is labelled; the per-step `print` of `loss_val` reads each loss back to the host, which the reporter's run includes but the thread does not discuss. Code: the example as stored at commit 0b04811 (a version with the jit on the loss only, as the thread describes it; a later stored version, ab15dbf, is the same code), with the Apache license comment block left out.
# static: LB114
# dynamic: n/a
# inferred: none
# lines: LB114:87/89
# first-sight: 0228b9c 2026-12-06 py: found none; missed LB114:87/89; false LB114:83 | notebook: found none; missed LB114:87/89; false LB114:83

"""A simple example of using Optax to train the parameters of a Flax module."""

from absl import app

from flax import linen as nn
from flax.core import freeze
import optax
import jax
import jax.numpy as jnp

def main(argv):
  del argv

  learning_rate = 1e-2
  n_training_steps = 100

  # Random number generator sequence.
  rng = jax.random.PRNGKey(0)
  rng1, rng2 = jax.random.split(rng)

  # Create a one linear layer instance.
  model = nn.Dense(features=5)

  # Initialise the parameters.
  params = model.init(rng2, jax.random.normal(rng1, (10,)))

  # Set problem dimensions.
  nsamples = 20
  xdim = 10
  ydim = 5

  # Generate random ground truth W and b.
  W = jax.random.normal(rng1, (xdim, ydim))
  b = jax.random.normal(rng2, (ydim,))
  true_params = freeze({'params': {'bias': b, 'kernel': W}})

  # Generate samples with additional noise.
  ksample, knoise = jax.random.split(rng1)
  x_samples = jax.random.normal(ksample, (nsamples, xdim))
  y_samples = jnp.dot(x_samples, W) + b
  y_samples += 0.1 * jax.random.normal(knoise, (nsamples, ydim))

  # Define an MSE loss function.
  def make_mse_func(x_batched, y_batched):
    def mse(params):
      # Define the squared loss for a single (x, y) pair.
      def squared_error(x, y):
        pred = model.apply(params, x)
        return jnp.inner(y-pred, y-pred) / 2.0
      # Vectorise the squared error and compute the average of the loss.
      return jnp.mean(jax.vmap(squared_error)(x_batched,y_batched), axis=0)
    return jax.jit(mse) # `jit` the result.

  # Instantiate the sampled loss.
  loss = make_mse_func(x_samples, y_samples)

  # Construct a simple Adam optimiser using the transforms in optax.
  # You could also just use the `optax.adam` alias, but we show here how
  # to do so manually so that you may construct your own `custom` optimiser.
  tx = optax.chain(
      # Set the parameters of Adam. Note the learning_rate is not here.
      optax.scale_by_adam(b1=0.9, b2=0.999, eps=1e-8),
      # Put a minus sign to *minimise* the loss.
      optax.scale(-learning_rate)
  )

  # Create optimiser state.
  opt_state = tx.init(params)
  # Compute the gradient of the loss function.
  loss_grad_fn = jax.value_and_grad(loss)

  # Minimise the loss.
  for step in range(n_training_steps):
    # Compute gradient of the loss.
    loss_val, grads = loss_grad_fn(params)
    # Update the optimiser state, create an update to the params.
    updates, opt_state = tx.update(grads, opt_state)
    # Update the parameters.
    params = optax.apply_updates(params, updates)
    print(f'Loss[{step}] = {loss_val}')


if __name__ == '__main__':
  app.run(main)
