# source: https://github.com/jax-ml/jax/issues/19654
# explain: train
# dynamic: LB290
# Runnable copy of 045_disable_jit_optax_loop.py for levelbench.explain: the loop of the issue as a function (5 steps), the print dropped.

import jax
jax.config.update('jax_disable_jit', True)
import jax.numpy as jnp
import optax


def loss(x_):
    return jnp.sum(x_**2)


optimizer = optax.adam(1e-2)
loss_vg = jax.grad(loss)


def train(x, opt_state):
    for i in range(5):
        grads = loss_vg(x)
        updates, opt_state = optimizer.update(grads, opt_state)
        x = optax.apply_updates(x, updates)
    return x, opt_state


def train_args():
    x = jnp.ones(3)
    return (x, optimizer.init(x))
