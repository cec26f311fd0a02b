# source: https://github.com/QuantEcon/lecture-jax/issues/35
# title: Inventory dynamics timings (the Inventory Dynamics lecture, lectures/inventory_dynamics.md)
# established-by: maintainer jstac
# cause: Every timing in the lecture runs its code once, so each figure includes JIT compilation: the 'Timed code should be run twice in inventory_dynamics' (and lecture-jax#163, which found the same in all JAX lectures but one). The cells wait for their results (block_until_ready) but time the first call of the jitted `update_X`, of the `lax.scan` `shift_firms_forward`, of the jitted `update_stock` inside the loop version of `compute_freq` and of the `lax.scan` `compute_freq`; the third timing calls the scan `shift_firms_forward` a second time, but with `x_init = 20.0` where the first call had the int 50, a new dtype for a traced argument, so it compiles again. The lecture keeps the outer Python loops unjitted on purpose (its note: compiling them is slow and gains little), which is not labelled. Code: the code cells of the stored lecture (commit 011d6c9), markdown dropped.
# static: LB103
# dynamic: n/a
# inferred: LB103 at the third timing (the float x_init changes the argument's dtype, so the jitted function compiles again; checked on jax 0.10.2: a jitted function called with 50 then 20.0 holds two compiled versions)
# lines: LB103:96/130/144/187/228
# first-sight: cfe09ac 2026-12-03 py: found LB103:130 LB103:144 LB103:228; missed none; false none | notebook: found LB103:130 LB103:144 LB103:228; missed none; false none

import matplotlib.pyplot as plt
import numpy as np
import jax
import jax.numpy as jnp
from jax import random, lax
from collections import namedtuple
# %%
# Check if JAX is using GPU
print(f"JAX backend: {jax.devices()[0].platform}")

# Check the devices available for JAX
print(jax.devices())
# %%
Firm = namedtuple('Firm', ['s', 'S', 'mu', 'sigma'])

firm = Firm(s=10, S=100, mu=1.0, sigma=0.5)
# %%
from sklearn.neighbors import KernelDensity

def plot_kde(sample, ax, label=''):
    xmin, xmax = 0.9 * min(sample), 1.1 * max(sample)
    xgrid = np.linspace(xmin, xmax, 200)
    kde = KernelDensity(kernel='gaussian').fit(sample[:, None])
    log_dens = kde.score_samples(xgrid[:, None])

    ax.plot(xgrid, np.exp(log_dens), label=label)

# Generate simulated data
np.random.seed(42)
sample_1 = np.random.normal(0, 2, size=10_000)
sample_2 = np.random.gamma(2, 2, size=10_000)

# Create a plot
fig, ax = plt.subplots()

# Plot the samples
ax.hist(sample_1, alpha=0.2, density=True, bins=50)
ax.hist(sample_2, alpha=0.2, density=True, bins=50)

# Plot the KDE for each sample
plot_kde(sample_1, ax, label=r'KDE over $X \sim N(0, 2)$')
plot_kde(sample_2, ax, label=r'KDE over $X \sim Gamma(0, 2)$')
ax.set_xlabel('value')
ax.set_ylabel('density')
ax.set_xlim([-5, 10])
ax.set_title('KDE of Simulated Normal and Gamma Data')
ax.legend()
plt.show()
# %%
# Define a jit-compiled function to update X and key
@jax.jit
def update_X(X, firm, D):
    # Restock if the inventory is below the threshold
    res = jnp.where(X <= firm.s,
            jnp.maximum(firm.S - D, 0),
            jnp.maximum(X - D, 0))
    return res


def shift_firms_forward(x_init, firm, sample_dates, 
                        key, num_firms=50_000, sim_length=750):
    
    X = res = jnp.full((num_firms, ), x_init)

    # Use for loop to update X and collect samples
    for i in range(sim_length):
        Z = random.normal(key, shape=(num_firms, ))
        D = jnp.exp(firm.mu + firm.sigma * Z)
        
        X = update_X(X, firm, D)
        _, key = random.split(key)
        
        # draw a sample at the sample dates
        if (i in sample_dates):
          res = jnp.vstack((res, X))

    return res[1:]
# %%
x_init = 50
num_firms = 50_000
sample_dates = 10, 50, 250, 500, 750
key = random.PRNGKey(10)

fig, ax = plt.subplots()

%time X = shift_firms_forward(x_init, firm, \
                              sample_dates, key).block_until_ready()

for i, date in enumerate(sample_dates):
   plot_kde(X[i, :], ax, label=f't = {date}')

ax.set_xlabel('inventory')
ax.set_ylabel('probability')
ax.legend()
plt.show()
# %%
@jax.jit
def shift_firms_forward(x_init, firm, key,
                        num_firms=50_000, sim_length=750):
    
    s, S, mu, sigma = firm.s, firm.S, firm.mu, firm.sigma
    X = jnp.full((num_firms, ), x_init)
    Z = random.normal(key, shape=(sim_length, num_firms))
    D = jnp.exp(mu + sigma * Z)
    
    # Define the function for each update
    def update_X(X, D):
        res = jnp.where(X <= s, 
                  jnp.maximum(S - D, 0), 
                  jnp.maximum(X - D, 0))
        return res, res

    # Use lax.scan to perform the calculations on all states
    _, X_final = lax.scan(update_X, X, D)

    return X_final
# %%
fig, ax = plt.subplots()

%time X = shift_firms_forward(x_init, firm, key).block_until_ready()

for date in sample_dates:
   plot_kde(X[date, :], ax, label=f't = {date}')

ax.set_xlabel('inventory')
ax.set_ylabel('probability')
ax.legend()
plt.show()
# %%
x_init = 20.0

fig, ax = plt.subplots()

%time X = shift_firms_forward(x_init, firm, key).block_until_ready()

for date in sample_dates:
   plot_kde(X[date, :], ax, label=f't = {date}')

ax.set_xlabel('inventory')
ax.set_ylabel('probability')
ax.legend()
plt.show()
# %%
# Define a jitted function for each update
@jax.jit
def update_stock(n_restock, X, firm, D):
  n_restock = jnp.where(X <= firm.s,
                        n_restock + 1,
                        n_restock)
  X = jnp.where(X <= firm.s,
                jnp.maximum(firm.S - D, 0),
                jnp.maximum(X - D, 0))
  return n_restock, X, key

def compute_freq(firm, key, 
                 x_init=70, 
                 sim_length=50, 
                 num_firms=1_000_000):
    
    # Prepare initial arrays
    X = jnp.full((num_firms, ), x_init)

    # Stack the restock counter on top of the inventory
    n_restock = jnp.zeros((num_firms, ))

    # Use a for loop to perform the calculations on all states
    for i in range(sim_length):
        Z = random.normal(key, shape=(num_firms, ))
        D = jnp.exp(firm.mu + firm.sigma * Z)
        n_restock, X, key = update_stock(
            n_restock, X, firm, D)
        key = random.fold_in(key, i)
        
    return jnp.mean(n_restock > 1, axis=0)
# %%
key = random.PRNGKey(27)
%time freq = compute_freq(firm, key).block_until_ready()
print(f"Frequency of at least two stock outs = {freq}")
# %%
@jax.jit
def compute_freq(firm, key, 
                 x_init=70, 
                 sim_length=50, 
                 num_firms=1_000_000):
    
    s, S, mu, sigma = firm.s, firm.S, firm.mu, firm.sigma
    # Prepare initial arrays
    X = jnp.full((num_firms, ), x_init)
    Z = random.normal(key, shape=(sim_length, num_firms))
    D = jnp.exp(mu + sigma * Z)

    # Stack the restock counter on top of the inventory
    restock_count = jnp.zeros((num_firms, ))
    Xs = jnp.vstack((X, restock_count))

    # Define the function for each update
    def update_X(Xs, D):

        # Separate the inventory and restock counter
        X = Xs[0]
        restock_count =  Xs[1]

        restock_count = jnp.where(X <= s,
                            restock_count + 1,
                            restock_count)
        X = jnp.where(X <= s, 
                      jnp.maximum(S - D, 0),
                      jnp.maximum(X - D, 0))
        
        Xs = jnp.vstack((X, restock_count))
        return Xs, None

    # Use lax.scan to perform the calculations on all states
    X_final, _ = lax.scan(update_X, Xs, D)

    return np.mean(X_final[1] > 1)
# %%
%time freq = compute_freq(firm, key).block_until_ready()
print(f"Frequency of at least two stock outs = {freq}")
