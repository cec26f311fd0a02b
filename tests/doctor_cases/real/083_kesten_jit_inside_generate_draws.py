# source: https://github.com/QuantEcon/lecture-jax/issues/34
# title: timing in Kesten process lecture
# established-by: maintainer jstac
# cause: The lecture times one call of generate_draws with %time, so the figure includes tracing and compiling update_s; the maintainer asked for the call to be run twice so that the time with and without compilation shows (fixed in PR #62, squashed as 0bfefc5: 'remove jit for fast compile ... run time twice'). update_s is decorated with jax.jit inside generate_draws, so every call of generate_draws builds a new jitted function and compiles it again: a second run as posted would not show the compiled speed either; the fixed lecture calls update_s(s, s_bar, a_random, b_random, e_random) with its parameters as arguments. Code: the lecture's cells before the fix (kesten_processes.md, markdown dropped), up to the rank-size plot; the lax.scan section after it is left out.
# static: LB103, LB111
# dynamic: LB210
# inferred: LB111 and LB210 (jax.jit applied to update_s inside generate_draws makes a new jitted function, compiled again, on every call; the issue asked only for a second timed run)
# lines: LB103:65, LB111:42
# first-sight: 7299de2 2026-12-02 py: found LB103:65; missed LB111:42; false none | notebook: found LB103:65; missed LB111:42; false none

!pip install quantecon
# %%
%matplotlib inline
import matplotlib.pyplot as plt
plt.rcParams["figure.figsize"] = (11, 5)  #set default figure size
import quantecon as qe
import jax
import jax.numpy as jnp
from jax import random

# Check if JAX is using GPU
print(f"jax backend: {jax.devices()[0].platform}")
# %%
def generate_draws(M = 1_000_000,     # number of firms
                   μ_a = -0.5,        # location parameter for a
                   σ_a = 0.1,         # scale parameter for a
                   μ_b = 0.0,         # location parameter for b
                   σ_b = 0.5,         # scale parameter for b
                   μ_e = 0.0,         # location parameter for e
                   σ_e = 0.5,         # scale parameter for e
                   s_bar = 1.0,       # threshold
                   T = 500,           # sampling date
                   s_init = 1.0,      # initial condition for each firm
                   seed=123):

    key = random.PRNGKey(seed)
    keys = random.split(key, 3)

    # Initialize the array of s values with the initial value
    s = jnp.full((M, ), s_init)
    
    @jax.jit
    def update_s(s, keys):
        a_random = μ_a + σ_a * random.normal(keys[0], (M, ))
        b_random = μ_b + σ_b * random.normal(keys[1], (M, ))
        e_random = μ_e + σ_e * random.normal(keys[2], (M, ))

        exp_a = jnp.exp(a_random)
        exp_b = jnp.exp(b_random)
        exp_e = jnp.exp(e_random)

        s = jnp.where(s < s_bar,
                          exp_e,
                          exp_a * s + exp_b)

        return s, keys[-1]

    # Perform updates on s for time t
    for t in range(T):
        s, key = update_s(s, keys)
        keys = random.split(key, 3)

    return s

%time data = generate_draws().block_until_ready()
# %%
fig, ax = plt.subplots()

rank_data, size_data = qe.rank_size(data, c=0.01)
ax.loglog(rank_data, size_data, 'o', markersize=3.0, alpha=0.5)
ax.set_xlabel("log rank")
ax.set_ylabel("log size")

plt.show()
