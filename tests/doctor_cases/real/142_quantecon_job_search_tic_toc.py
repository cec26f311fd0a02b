# source: https://github.com/QuantEcon/lecture-jax/issues/163
# title: Not timing properly (the Job Search lecture, lectures/job_search.md)
# established-by: maintainer jstac (the issue; the review it asked for found the same fault in all JAX lectures but one)
# cause: Both value-function-iteration runs are timed once with qe.tic()/qe.toc() and not waited for: the 'we do not use block_until_ready and we don't run twice to eliminate compile time'. Each timing is the first call of its jitted Bellman operator (T, then T_rs) and greedy policy, so it includes their compilation, and `vfi` returns the policy from a final `get_greedy` call (get_greedy_rs in the exercise) that nobody waits for (its loop condition reads back only the value function's error). Code: the code cells of the stored lecture (commit 42241ca), markdown dropped; `create_js_model` refers to a `θ` the lecture never defines.
# static: LB103, LB102, LB104
# dynamic: n/a
# inferred: LB104 (each figure is one qe.tic()/qe.toc() sample of one call; the issue discussed running twice, not repeating)
# lines: LB103:81/160, LB102:81/160, LB104:81/160
# first-sight: cfe09ac 2026-12-03 py: found none; missed LB102:81/160, LB103:81/160, LB104:81/160; false none | notebook: found none; missed LB102:81/160, LB103:81/160, LB104:81/160; false none

!pip install quantecon
# %%
import matplotlib.pyplot as plt
import quantecon as qe
import jax
import jax.numpy as jnp
from collections import namedtuple

jax.config.update("jax_enable_x64", True)
# %%
Model = namedtuple('Model', ('n', 'w_vals', 'P', 'β', 'c', 'θ'))
# %%
def create_js_model(
        n=500,       # wage grid size
        ρ=0.9,       # wage persistence
        ν=0.2,       # wage volatility
        β=0.99,      # discount factor
        c=1.0        # unemployment compensation
    ):
    "Creates an instance of the job search model with Markov wages."
    mc = qe.tauchen(n, ρ, ν)
    w_vals, P = jnp.exp(mc.state_values), mc.P
    P = jnp.array(P)
    return Model(n, w_vals, P, β, c, θ)
# %%
@jax.jit
def T(v, model):
    """
    The Bellman operator Tv = max{e, c + β E v} with 

        e(w) = w / (1-β) and (Ev)(w) = E_w[ v(W')]

    """
    n, w_vals, P, β, c, θ = model
    h = c + β * P @ v
    e = w_vals / (1 - β)

    return jnp.maximum(e, h)
# %%
@jax.jit
def get_greedy(v, model):
    """Get a v-greedy policy."""
    n, w_vals, P, β, c, θ = model
    e = w_vals / (1 - β)
    h = c + β * P @ v
    σ = jnp.where(e >= h, 1, 0)
    return σ
# %%
def vfi(model, max_iter=10_000, tol=1e-4):
    """Solve the infinite-horizon Markov job search model by VFI."""

    print("Starting VFI iteration.")
    v = jnp.zeros_like(model.w_vals)    # Initial guess
    i = 0
    error = tol + 1

    while error > tol and i < max_iter:
        new_v = T(v, model)
        error = jnp.max(jnp.abs(new_v - v))
        i += 1
        v = new_v

    v_star = v
    σ_star = get_greedy(v_star, model)
    return v_star, σ_star
# %%
model = create_js_model()
n, w_vals, P, β, c, θ = model

qe.tic()
v_star, σ_star = vfi(model)
vfi_time = qe.toc()
# %%
res_wage = w_vals[jnp.searchsorted(σ_star, 1.0)]
# %%
fig, ax = plt.subplots()
ax.plot(w_vals, v_star, alpha=0.8, label="value function")
ax.vlines((res_wage,), 150, 400, 'k', ls='--', label="reservation wage")
ax.legend(frameon=False, fontsize=12, loc="lower right")
ax.set_xlabel("$w$", fontsize=12)
plt.show()
# %%
def create_risk_sensitive_js_model(
        n=500,       # wage grid size
        ρ=0.9,       # wage persistence
        ν=0.2,       # wage volatility
        β=0.99,      # discount factor
        c=1.0,       # unemployment compensation
        θ=-0.1       # risk parameter
    ):
    "Creates an instance of the job search model with Markov wages."
    mc = qe.tauchen(n, ρ, ν)
    w_vals, P = jnp.exp(mc.state_values), mc.P
    P = jnp.array(P)
    return Model(n, w_vals, P, β, c, θ)


@jax.jit
def T_rs(v, model):
    """
    The Bellman operator Tv = max{e, c + β R v} with 

        e(w) = w / (1-β) and

        (Rv)(w) = (1/θ) ln{E_w[ exp(θ v(W'))]}

    """
    n, w_vals, P, β, c, θ = model
    h = c + (β / θ) * jnp.log(P @ (jnp.exp(θ * v)))
    e = w_vals / (1 - β)

    return jnp.maximum(e, h)


@jax.jit
def get_greedy_rs(v, model):
    " Get a v-greedy policy."
    n, w_vals, P, β, c, θ = model
    e = w_vals / (1 - β)
    h = c + (β / θ) * jnp.log(P @ (jnp.exp(θ * v)))
    σ = jnp.where(e >= h, 1, 0)
    return σ



def vfi(model, max_iter=10_000, tol=1e-4):
    "Solve the infinite-horizon Markov job search model by VFI."
    print("Starting VFI iteration.")
    v = jnp.zeros_like(model.w_vals)    # Initial guess
    i = 0
    error = tol + 1

    while error > tol and i < max_iter:
        new_v = T_rs(v, model)
        error = jnp.max(jnp.abs(new_v - v))
        i += 1
        v = new_v

    v_star = v
    σ_star = get_greedy_rs(v_star, model)
    return v_star, σ_star



model_rs = create_risk_sensitive_js_model()

n, w_vals, P, β, c, θ = model_rs

qe.tic()
v_star_rs, σ_star_rs = vfi(model_rs)
vfi_time = qe.toc()
# %%
res_wage_rs = w_vals[jnp.searchsorted(σ_star_rs, 1.0)]
# %%
fig, ax = plt.subplots()
ax.plot(w_vals, v_star,  alpha=0.8, label="RN $v$")
ax.plot(w_vals, v_star_rs, alpha=0.8, label="RS $v$")
ax.vlines((res_wage,), 150, 400,  ls='--', color='darkblue', alpha=0.5, label=r"RV $\bar w$")
ax.vlines((res_wage_rs,), 150, 400, ls='--', color='orange', alpha=0.5, label=r"RS $\bar w$")
ax.legend(frameon=False, fontsize=12, loc="lower right")
ax.set_xlabel("$w$", fontsize=12)
plt.show()
