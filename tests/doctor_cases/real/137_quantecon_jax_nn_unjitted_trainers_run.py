# source: https://github.com/QuantEcon/lecture-jax/blob/main/lectures/jax_nn.md
# explain: train_baseline_with_l2
# dynamic: LB210
# first-sight: c3b020c 2026-12-02 explain: found LB210; missed none; false none
# Runnable copy of 137_quantecon_jax_nn_unjitted_trainers.py for levelbench.explain: strategy 4's
# trainer as posted, on the lecture's network (layer sizes 1, 10, 10, 10, 1) with 40 data points and
# 20 epochs instead of 400 and 4000; the posted calls are the warm-up and the timed run, both on the
# same parameters and data.

from typing import NamedTuple

import jax
import jax.numpy as jnp
import optax


class Config(NamedTuple):
    epochs: int = 20
    output_dim: int = 10
    learning_rate: float = 0.001
    layer_sizes: tuple = (1, 10, 10, 10, 1)
    seed: int = 14


class LayerParams(NamedTuple):
    W: jax.Array
    b: jax.Array


def initialize_network(key, config):
    layer_sizes = config.layer_sizes
    params = []
    for i in range(len(layer_sizes) - 1):
        key, subkey = jax.random.split(key)
        in_dim, out_dim = layer_sizes[i], layer_sizes[i + 1]
        W = jax.random.normal(subkey, shape=(in_dim, out_dim)) * jnp.sqrt(2 / in_dim)
        params.append(LayerParams(W, jnp.ones((1, out_dim))))
    return params


def f(θ, x, σ=jnp.tanh):
    *hidden, last = θ
    for layer in hidden:
        x = σ(x @ layer.W + layer.b)
    return x @ last.W + last.b


def train_baseline_with_l2(θ, x, y, config, lambda_l2=0.001):
    epochs = config.epochs
    learning_rate = config.learning_rate

    @jax.jit
    def loss_fn_l2(θ, x, y):
        mse = jnp.mean((f(θ, x) - y)**2)
        l2_penalty = 0.0
        for W, b in θ:
            l2_penalty += jnp.sum(W**2)
        return mse + lambda_l2 * l2_penalty

    loss_gradient_l2 = jax.jit(jax.grad(loss_fn_l2))

    solver = optax.adam(learning_rate)
    opt_state = solver.init(θ)

    def update(_, loop_state):
        θ, opt_state = loop_state
        grad = loss_gradient_l2(θ, x, y)
        updates, new_opt_state = solver.update(grad, opt_state, θ)
        θ_new = optax.apply_updates(θ, updates)
        return (θ_new, new_opt_state)

    initial_loop_state = θ, opt_state
    θ_final, _ = jax.lax.fori_loop(0, epochs, update, initial_loop_state)
    return θ_final


def train_baseline_with_l2_args():
    config = Config()
    x = jnp.linspace(0.0, 5.0, 40).reshape(40, 1)
    y = x**0.5 + jnp.sin(x)
    θ = initialize_network(jax.random.key(1234), config)
    return (θ, x, y, config)


def train_baseline_with_l2_calls():
    return [train_baseline_with_l2_args(), train_baseline_with_l2_args()]
