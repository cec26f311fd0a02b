# source: https://github.com/QuantEcon/lecture-jax/issues/163
# explain: value_function_iteration
# dynamic: LB210
# first-sight: 58b08e8 2026-12-03 explain: found LB210; missed none; false none
# Runnable copy of 161_quantecon_opt_savings_2_time_time_once.py (first entered as 149) for levelbench.explain: the lecture's
# VFI solver as posted, on a 30-point wealth grid and 5 income states instead of 150 and 100; quantecon's
# `tauchen` (not installed here) is replaced by a fixed 5-state Markov matrix with the same role. The
# posted calls are the lecture's two VFI timings (the 'Tests' cell, then run_algorithm).

import jax
import jax.numpy as jnp


def create_consumption_model(R=1.01,                    # Gross interest rate
                             β=0.98,                    # Discount factor
                             γ=2,                       # CRRA parameter
                             w_min=0.01,                # Min wealth
                             w_max=5.0,                 # Max wealth
                             w_size=30):                # Grid side
    w_grid = jnp.linspace(w_min, w_max, w_size)
    y_grid = jnp.exp(jnp.linspace(-0.5, 0.5, 5))
    Q = jnp.array([[0.6, 0.4, 0.0, 0.0, 0.0],
                   [0.2, 0.6, 0.2, 0.0, 0.0],
                   [0.0, 0.2, 0.6, 0.2, 0.0],
                   [0.0, 0.0, 0.2, 0.6, 0.2],
                   [0.0, 0.0, 0.0, 0.4, 0.6]])
    params = β, R, γ
    sizes = w_size, 5
    arrays = w_grid, y_grid, Q
    return params, sizes, arrays


def _B(v, params, arrays, i, j, ip):
    β, R, γ = params
    w_grid, y_grid, Q = arrays
    w, y, wp  = w_grid[i], y_grid[j], w_grid[ip]
    c = R * w + y - wp
    EV = jnp.sum(v[ip, :] * Q[j, :])
    return jnp.where(c > 0, c**(1-γ)/(1-γ) + β * EV, -jnp.inf)


B_1    = jax.vmap(_B,  in_axes=(None, None, None, None, None, 0))
B_2    = jax.vmap(B_1, in_axes=(None, None, None, None, 0,    None))
B_vmap = jax.vmap(B_2, in_axes=(None, None, None, 0,    None, None))


def B(v, params, sizes, arrays):
    w_size, y_size = sizes
    w_indices, y_indices = jnp.arange(w_size), jnp.arange(y_size)
    return B_vmap(v, params, arrays, w_indices, y_indices, w_indices)


B = jax.jit(B, static_argnums=(2,))


def T(v, params, sizes, arrays):
    "The Bellman operator."
    return jnp.max(B(v, params, sizes, arrays), axis=-1)


T = jax.jit(T, static_argnums=(2,))


def get_greedy(v, params, sizes, arrays):
    "Computes a v-greedy policy, returned as a set of indices."
    return jnp.argmax(B(v, params, sizes, arrays), axis=-1)


get_greedy = jax.jit(get_greedy, static_argnums=(2,))


def successive_approx_jax(T,                     # Operator (callable)
                          x_0,                   # Initial condition
                          tol=1e-6,              # Error tolerance
                          max_iter=10_000):      # Max iteration bound
    def update(inputs):
        k, x, error = inputs
        x_new = T(x)
        error = jnp.max(jnp.abs(x_new - x))
        return k + 1, x_new, error

    def condition_function(inputs):
        k, x, error = inputs
        return jnp.logical_and(error > tol, k < max_iter)

    k, x, error = jax.lax.while_loop(condition_function,
                                     update,
                                     (1, x_0, tol + 1))
    return x


successive_approx_jax = jax.jit(successive_approx_jax, static_argnums=(0,))


def value_function_iteration(model, tol=1e-5):
    """
    Implements value function iteration.
    """
    params, sizes, arrays = model
    vz = jnp.zeros(sizes)
    _T = lambda v: T(v, params, sizes, arrays)
    v_star = successive_approx_jax(_T, vz, tol=tol)
    return get_greedy(v_star, params, sizes, arrays)


def value_function_iteration_args():
    return (create_consumption_model(),)


def value_function_iteration_calls():
    return [value_function_iteration_args(), value_function_iteration_args()]
