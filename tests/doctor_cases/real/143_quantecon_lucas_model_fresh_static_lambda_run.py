# source: https://github.com/QuantEcon/lecture-jax/issues/163
# explain: solve_model
# dynamic: LB210
# first-sight: cfe09ac 2026-12-03 explain: found LB210; missed none; false none
# Runnable copy of 143_quantecon_lucas_model_fresh_static_lambda.py for levelbench.explain: the
# lecture's JAX solver as posted, on a 100-point grid with 200 draws instead of 500 and 1,000; the
# posted calls are two identical ones ('solve once to compile', then the timed call).

import jax
import jax.numpy as jnp


def create_lucas_tree_model(γ=2,            # CRRA utility parameter
                            β=0.95,         # Discount factor
                            α=0.90,         # Correlation coefficient
                            σ=0.1,          # Volatility coefficient
                            grid_size=100,
                            draw_size=200,
                            seed=11):
        ssd = σ / jnp.sqrt(1 - α**2)
        grid_min, grid_max = jnp.exp(-4 * ssd), jnp.exp(4 * ssd)
        grid = jnp.linspace(grid_min, grid_max, grid_size)
        key = jax.random.key(seed)
        draws = jax.random.lognormal(key, σ, shape=(draw_size,))
        grid_reshaped = grid.reshape((grid_size, 1))
        draws_reshaped = draws.reshape((-1, draw_size))
        h = β * jnp.mean((grid_reshaped**α * draws_reshaped) ** (1-γ), axis=1)
        params = γ, β, α, σ
        arrays = grid, draws, h
        return params, arrays


@jax.jit
def compute_expectation(y, α, draws, grid, f):
    return jnp.mean(jnp.interp(y**α * draws, grid, f))


compute_expectation = jax.vmap(compute_expectation,
                               in_axes=(0, None, None, None, None))


@jax.jit
def T(params, arrays, f):
    grid, draws, h = arrays
    γ, β, α, σ = params
    mci = compute_expectation(grid, α, draws, grid, f)
    return h + β * mci


def successive_approx_jax(T, x_0, tol=1e-6, max_iter=10_000):
    def body_fun(k_x_err):
        k, x, error = k_x_err
        x_new = T(x)
        error = jnp.max(jnp.abs(x_new - x))
        return k + 1, x_new, error

    def cond_fun(k_x_err):
        k, x, error = k_x_err
        return jnp.logical_and(error > tol, k < max_iter)

    k, x, error = jax.lax.while_loop(cond_fun, body_fun,
                                    (1, x_0, tol + 1))
    return x


successive_approx_jax = \
    jax.jit(successive_approx_jax, static_argnums=(0,))


def solve_model(params, arrays, tol=1e-6, max_iter=500):
    grid, draws, h = arrays
    γ, β, α, σ = params
    _T = lambda f: T(params, arrays, f)
    f = jnp.ones_like(grid)
    f = successive_approx_jax(_T, f, tol=tol, max_iter=max_iter)
    price = f * grid**γ
    return price


def solve_model_args():
    return create_lucas_tree_model()


def solve_model_calls():
    return [solve_model_args(), solve_model_args()]
