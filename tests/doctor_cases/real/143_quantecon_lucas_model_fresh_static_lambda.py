# source: https://github.com/QuantEcon/lecture-jax/issues/163
# title: Not timing properly (the Lucas Asset Pricing lecture, lectures/lucas_model.md)
# established-by: maintainer jstac (the issue: 'we do not use block_until_ready'; the review it asked for found the same fault in all JAX lectures but one)
# cause: The JAX timing does not wait for `solve_model`'s result (`price = f * grid**γ` is returned as soon as it is queued), the issue's 'we do not use block_until_ready'. The call 'solve once to compile' does not warm it up either: `solve_model` builds a fresh `lambda f: T(params, arrays, f)` on every call and passes it as the static argument of the jitted `successive_approx_jax`, and static arguments are cached by equality, which a new lambda never has, so the timed call traces and compiles the while loop again (checked on jax 0.10.2: two calls leave two compiled versions), and the 'Speedup factor' printed against Numba compares a compile with a run. Code: the JAX cells of the stored lecture (commit 01e332d) with its imports, markdown dropped; the Numba section before them, which defines `numba_elapsed`, is left out.
# static: LB102, LB111, LB105, LB104
# dynamic: LB210
# inferred: LB111 and LB210 (the fresh lambda as a static argument recompiles on every call; the issue did not discuss it), LB105 (time.time() as the interval clock), LB104 (the figure is one time.time() sample of one call)
# lines: LB102:108, LB111:93, LB105:107, LB104:108
# first-sight: cfe09ac 2026-12-03 py: found LB105:107 LB104:108 LB102:108; missed LB111:93; false none | notebook: found LB105:107 LB104:108 LB102:108; missed LB111:93; false none

import jax.numpy as jnp
import jax
import time
import numpy as np
import numba
from scipy.stats import lognorm
import matplotlib.pyplot as plt
# %%
def create_lucas_tree_model(γ=2,            # CRRA utility parameter
                            β=0.95,         # Discount factor
                            α=0.90,         # Correlation coefficient
                            σ=0.1,          # Volatility coefficient
                            grid_size=500,
                            draw_size=1_000,
                            seed=11):
        # Set the grid interval to contain most of the mass of the
        # stationary distribution of the consumption endowment
        ssd = σ / jnp.sqrt(1 - α**2)
        grid_min, grid_max = jnp.exp(-4 * ssd), jnp.exp(4 * ssd)
        grid = jnp.linspace(grid_min, grid_max, grid_size)

        # Set up distribution for shocks
        key = jax.random.key(seed)
        draws = jax.random.lognormal(key, σ, shape=(draw_size,))
        grid_reshaped = grid.reshape((grid_size, 1))
        draws_reshaped = draws.reshape((-1, draw_size))
        h = β * jnp.mean((grid_reshaped**α * draws_reshaped) ** (1-γ), axis=1)
        params = γ, β, α, σ
        arrays = grid, draws, h
        return params, arrays
# %%
@jax.jit 
def compute_expectation(y, α, draws, grid, f):
    return jnp.mean(jnp.interp(y**α * draws, grid, f))

# Vectorize over y
compute_expectation = jax.vmap(compute_expectation,
                               in_axes=(0, None, None, None, None))
# %%
@jax.jit
def T(params, arrays, f):
    """
    The Lucas operator

    """
    grid, draws, h = arrays
    γ, β, α, σ = params
    mci = compute_expectation(grid, α, draws, grid, f)
    return h + β * mci
# %%
def successive_approx_jax(T,                     # Operator (callable)
                          x_0,                   # Initial condition                
                          tol=1e-6      ,        # Error tolerance
                          max_iter=10_000):      # Max iteration bound
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
# %%
def solve_model(params, arrays, tol=1e-6, max_iter=500):
    """
    Compute the equilibrium price function.

    """
    # Simplify notation
    grid, draws, h = arrays
    γ, β, α, σ = params
    _T = lambda f: T(params, arrays, f)
    f = jnp.ones_like(grid)  # Initial guess of f

    f = successive_approx_jax(_T, f, tol=tol, max_iter=max_iter)

    price = f * grid**γ  # Back out price vector

    return price
# %%
params, arrays = create_lucas_tree_model()
grid, draws, h = arrays
γ, β, α, σ = params

# Solve once to compile
price_vals = solve_model(params, arrays)

# Now time execution without compile time
in_time = time.time()
price_vals = solve_model(params, arrays)
jax_elapsed = time.time() - in_time
print("JAX execution time = ", jax_elapsed)
print("Speedup factor = ", numba_elapsed / jax_elapsed)
# %%
fig, ax = plt.subplots(figsize=(10, 6))
ax.plot(grid, price_vals, label='$p*(y)$')
ax.set_xlabel('$y$')
ax.set_ylabel('price')
ax.legend()
plt.show()
# %%
fig, ax = plt.subplots(figsize=(10, 6))

for β in (.95, 0.98):
    params, arrays = create_lucas_tree_model(β=β)
    grid, draws, h = arrays
    γ, beta, α, σ = params
    price_vals = solve_model(params, arrays)
    label = rf'$\beta = {beta}$'
    ax.plot(grid, price_vals, lw=2, alpha=0.7, label=label)

ax.legend(loc='upper left')
ax.set(xlabel='$y$', ylabel='price', xlim=(min(grid), max(grid)))
plt.show()
