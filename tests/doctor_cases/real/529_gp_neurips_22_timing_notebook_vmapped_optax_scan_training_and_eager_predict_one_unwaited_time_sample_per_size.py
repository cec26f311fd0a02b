# source: https://github.com/patel-zeel/GP_Neurips_22/blob/7d8cb5444e3cf151432cfe578c0085a3057a5100/timing.ipynb
# title: GP_Neurips_22's `timing.ipynb` (the timing figure of a non-stationary Gaussian-process paper): for five training-set sizes and two methods, one `time()` pair around a `jax.vmap` of an optax training function (a `lax.scan` of 5,000 Adam steps over ten restarts) and one around the eager `predict_fn`, each printed and plotted as 'Training time (s)' and 'Prediction time (s)'
# established-by: maintainer patel-zeel (the paper repository's own timing notebook; no issue discusses its timing)
# cause: What a correct doctor reports, by the catalogue and the corpus's readings; no one discussed the timing. Both clocks are `time()` from `time` (LB105 at the two start reads). Each figure is one run per training-set size and method, the sweep's one sample per configuration (LB104 at the first statement inside each clock pair, the reading of 284, 332 and 518). Neither interval waits: `jax.vmap(partial_train_fn)(...)` returns the dictionary of JAX arrays from the scan (`utils.train_fn`) as soon as it is dispatched, and `time()` is read on the next line; `predict_fn` (`base.py`, eager `jax.numpy` and `jax.scipy` operations, nothing read back) likewise returns unwaited arrays before the end read (LB102 at the two calls). Not labelled: the 'Warmup' call runs the loss once, not the training function, and the notebook jits nothing itself, so the trace and compile of each new scan fall inside the train figure with no catalogue code for a function the file does not jit (no LB103); the vmap is built once per configuration, not jit (no LB111); float64 is asked for with `jax_enable_x64` (no LB108). Code: the notebook's code cells at commit 7d8cb54 in order, one `# %%` cell each, with the markdown headings and the outputs (a stored figure and printed figures) dropped.
# static: LB105, LB104, LB102
# dynamic: n/a
# inferred: LB105 (`time()` as the interval clock; not discussed), LB104 (one sample per training-set size and method; not discussed), LB102 (the vmapped training result and the prediction are not waited for before the end read; not discussed)
# lines: LB105:82/90, LB104:83/91, LB102:83/91
# first-sight: cd05d1a 2026-12-07 py: found LB105:82 LB104:83 LB102:83 LB105:90; missed none; false LB114:83 | notebook: found LB105:82 LB104:83 LB102:83 LB105:90; missed none; false LB114:83

# %%
from time import time
import sys
import os

os.environ["CUDA_VISIBLE_DEVICES"] = "3"

import jax
import jax.tree_util as jtu
import jax.numpy as jnp

import pandas as pd

from functools import partial

import matplotlib.pyplot as plt

import optax

from base import loss_fn, predict_fn, get_params
from utils import train_fn, latexify
from data import generate_heinonen_gp_data

jax.config.update("jax_enable_x64", True)

%reload_ext watermark

# %%
gen_flex_dict = {"ell": 1, "sigma": 1, "omega": 1}
model_flex_dict = {"ell": 1, "sigma": 1, "omega": 1}
latent_seed = 200
latent_key = jax.random.PRNGKey(latent_seed)
data_seed = 300
data_key = jax.random.PRNGKey(data_seed)
default_params = False
n_points_list = [200, 400, 600, 800, 1000]

# %%
train_results = {"heinonen": [], "delta_inducing": []}
pred_results = {"heinonen": [], "delta_inducing": []}
for n_points in n_points_list:
    X_key = jax.random.PRNGKey(0)
    X = jax.random.uniform(X_key, shape=(n_points, 1), minval=-3, maxval=3).sort(axis=0)
    y, y_clean, ell, sigma, omega = generate_heinonen_gp_data(
        X, latent_key, data_key, gen_flex_dict
    )

    # Normalize
    # x_scaler = MinMaxScaler()
    # X = x_scaler.fit_transform(X)
    # xscale = x_scaler.data_max_ - x_scaler.data_min_
    yscale = jnp.max(jnp.abs(y - jnp.mean(y)))
    ymean = jnp.mean(y)
    y = (y - ymean) / yscale

    X_test = jnp.linspace(-4, 4, n_points*2).reshape(-1, 1)

    for method in ["heinonen", "delta_inducing"]:
        # Setup
        value_and_grad_fn = partial(loss_fn, X=X, y=y, flex_dict=model_flex_dict, method=method)
        partial_get_params = partial(
            get_params, X=X, flex_dict=model_flex_dict, method=method, default=default_params
        )
        params = jax.vmap(partial_get_params)(jax.random.split(jax.random.PRNGKey(1000), 10))
        partial_train_fn = partial(
            train_fn, loss_fn=value_and_grad_fn, optimizer=optax.adam(0.001), n_iters=5000
        )

        value_and_grad_fn(jtu.tree_map(lambda x: x[0], params)) # Warmup
        
        # Train
        train_init = time()
        results = jax.vmap(partial_train_fn)(init_raw_params=params)
        train_results[method].append(time() - train_init)
        
        best_idx = jnp.nanargmin(results["loss_history"][:, -1])
        result = jtu.tree_map(lambda x: x[best_idx], results)

        # Predict
        pred_init = time()
        pred_mean, pred_var, pred_ell, pred_sigma, pred_omega = predict_fn(
            result["raw_params"],
            X,
            y,
            X_test,
            model_flex_dict,
            method,
        )
        pred_results[method].append(time() - pred_init)
        
        print(f"{n_points}_{method} train: {train_results[method][-1]:.2f}")
        print(f"{n_points}_{method} pred: {pred_results[method][-1]:.2f}")

pd.to_pickle(train_results, "results/train_results.pkl")
pd.to_pickle(pred_results, "results/pred_results.pkl")

# %%
train_results = pd.read_pickle("results/train_results.pkl")
pred_results = pd.read_pickle("results/pred_results.pkl")

latexify(fig_width=5, fig_height=1.5)

fig, ax = plt.subplots(1, 2)

ax[0].plot(n_points_list, train_results["heinonen"], "-o", label="Heinonen et al.", markersize=3)
ax[0].plot(n_points_list, train_results["delta_inducing"], "-o", label="Ours", markersize=3)
ax[0].legend()
ax[0].set_xlabel("Number of training points")
ax[0].set_title("Training time (s)")

ax[1].set_title("Prediction time (s)")
ax[1].set_xlabel("Number of training points")
ax[1].plot(n_points_list, pred_results["heinonen"], "-o", label="Heinonen et al.", markersize=3)
ax[1].plot(n_points_list, pred_results["delta_inducing"], "-o", label="Ours", markersize=3);
# ax[1].legend();

fig.tight_layout()
fig.savefig(f"figures/timing_{latent_seed}_{data_seed}.pdf")

# %%
%watermark --iversion
