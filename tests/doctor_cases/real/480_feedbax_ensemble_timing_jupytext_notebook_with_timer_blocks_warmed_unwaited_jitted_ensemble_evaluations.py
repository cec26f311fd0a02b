# source: https://github.com/mlprt/feedbax/blob/9b28dc584e359ee070a50e17b902379ce855ae37/notebooks/scripts/15_ensemble_timing.py
# title: feedbax's notebook 15, 'ensemble timing' (jupytext percent script): training rate timed by batch callbacks over 100 batches, then evaluation rate of vmapped model ensembles over step counts and replicate counts, each configuration compiled first and then evaluated 50 times inside `with timer:` blocks of feedbax's `Timer`, the results never waited for
# established-by: maintainer mlprt (the repository's author; no issue discusses the notebook's timing)
# cause: What a correct doctor reports, by the catalogue. The evaluation cells compile each configuration first ('# make sure the model is compiled') and then time 50 calls one by one inside `with timer:`; the first cell's timed call is `evaluate(keys_eval)`, an `eqx.filter_jit` of a vmapped evaluation, and the second's `task.eval_ensemble_train_batch(...)`, compiled by the same warm-up call; neither result is read or waited for inside the block, so on an accelerator each sample can stop at dispatch (LB102, at each of the two timed calls; the catalogue's reading of an unwaited jitted call in a timed region). The warm-ups keep compilation out of the samples (no LB103), the figures are the mean and standard deviation of 50 samples (no LB104), and `evaluate` is jitted once per configuration, warmed before timing (no LB111, 295's reading). The clock is feedbax's `Timer`, not in this file (no LB105 labelled). The training-rate cell times 100 batches through `TaskTrainer`'s batch callbacks, `timer.start()` and `timer.stop()` inside the library's loop; whether that waits is the trainer's business, not this file's, so nothing is labelled there. Code: the jupytext script at commit 9b28dc5, its cells kept as `# %%` cells, trimmed: the plotting cells (four matplotlib figures of rates and times, and the `jnp.max(means)` cells after them) are left out; the rest unchanged.
# static: LB102
# dynamic: n/a
# inferred: LB102 (jitted ensemble evaluations timed in `with timer:` blocks without a wait; the catalogue's reading, not discussed)
# lines: LB102:242/285
# first-sight: d481e6f 2026-12-06 py: found LB102:242; missed none; false LB114:282 | notebook: found LB102:242; missed none; false LB114:282

# ---
# jupyter:
#   jupytext:
#     formats: ipynb,scripts//py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.15.0
#   kernelspec:
#     display_name: fx
#     language: python
#     name: python3
# ---

# %% [markdown]
# Simple feedback model with a single-layer RNN controlling a point mass to reach from a starting position to a target position. 
#
# Components:
#
# - Point mass module
# - RNN module
# - Feedback loop 
#     - RNN call plus a single step of diffrax integration
# - Loss function
#     - quadratic in position near final state
#     - quadratic in controls
# - Generate reach endpoints
#     - uniformly sampled in a rectangular workspace
#     - i.i.d. start and end (variable magnitude)

# %%
NB_PREFIX = "nb15"
N_DIM = 2  # TODO: not here

# %%
# %load_ext autoreload
# %autoreload 2

# %%
from functools import partial
import os

os.environ["TF_CUDNN_DETERMINISTIC"] = "1"

# %%
import equinox as eqx
import jax
import jax.numpy as jnp 
import jax.random as jr
import matplotlib.pyplot as plt
import numpy as np
import optax 
from tqdm.auto import tqdm

from feedbax.xabdeef.losses import simple_reach_loss
from feedbax.xabdeef.models import point_mass_NN

from feedbax.task import RandomReaches
from feedbax.trainer import TaskTrainer
from feedbax.utils import Timer, get_model_ensemble

# %%
plt.style.use('dark_background')

# %%
seed = 5566

mass = 1.0
# n_steps = 10
dt = 0.05
feedback_delay_steps = 0
workspace = ((-1., -1.),
             (1., 1.))
hidden_size  = 50
learning_rate = 0.01

n_batches = 201
batch_size = 500

trainer = TaskTrainer(
    optimizer=optax.inject_hyperparams(optax.adam)(
        learning_rate=learning_rate
    ),
    checkpointing=True,
)

get_task = lambda n_steps: RandomReaches(
    loss_func=simple_reach_loss(n_steps),
    workspace=workspace, 
    n_steps=n_steps,
    eval_grid_n=2,
    eval_n_directions=8,
    eval_reach_length=0.5,
)

get_models = lambda task, n_steps, n_replicates, key: get_model_ensemble(
    partial(
        point_mass_NN,
        task,
        dt=dt,
        mass=mass,
        hidden_size=hidden_size,
        n_steps=n_steps,
        feedback_delay_steps=feedback_delay_steps,
    ),
    n_replicates,
    key=key, 
)

trainable_leaves_func = lambda model: (
    model.step.net.hidden.weight_hh, 
    model.step.net.hidden.weight_ih, 
    model.step.net.hidden.bias
)

# %% [markdown]
# We'll use batch callbacks to time some training runs for each of several values of `n_replicates`, to see how training rate depends on it.

# %%
n_batches_timer = 100

batch_callbacks = lambda timer: {
    n_batches - n_batches_timer - 1: (lambda: timer.start(),),
    n_batches - 1: (lambda: timer.stop(),),
}

# %%
n_runs = 1
n_steps = [10, 25, 50, 75, 100]
n_replicates = [1, 2, 4, 8, 16, 32, 64]

times_means = np.zeros((len(n_steps), len(n_replicates)))
times_stds = np.zeros((len(n_steps), len(n_replicates)))

key = jr.PRNGKey(seed)

for idx0 in tqdm(range(len(n_steps)), desc="n_steps"):
    s = n_steps[idx0]
    
    for idx1 in tqdm(range(len(n_replicates)), desc="n_replicates"):
        n = n_replicates[idx1]
        
        timer = Timer()
        
        task = get_task(s)
        
        # get `n` models with `s` steps each
        models = get_models(task, s, n, key)
        
        for i in range(n_runs):
            trainer(
                task=task, 
                model=models,
                n_batches=n_batches, 
                batch_size=batch_size, 
                ensembled=True,
                key=jr.PRNGKey(seed + i),
                log_step=200,
                trainable_leaves_func=trainable_leaves_func,
                batch_callbacks=batch_callbacks(timer),
                disable_tqdm=True,
            )
        
        times_means[idx0, idx1] = np.mean(timer.times) / n_batches_timer 
        times_stds[idx0, idx1] = np.std(timer.times) / n_batches_timer

# %% [markdown]
# Save the results

# %%
os.makedirs("../data", exist_ok=True)
np.save(f"../data/{NB_PREFIX}_train_times_means_0delay.npy", times_means)
np.save(f"../data/{NB_PREFIX}_train_times_stds_0delay.npy", times_stds)

# %%
times_means = np.load(f"../data/{NB_PREFIX}_train_times_means.npy")
times_stds = np.load(f"../data/{NB_PREFIX}_train_times_stds.npy")

# %% [markdown]
# ### Evaluation rate

# %% [markdown]
# Let's do the same thing, but for model evaluation. 
#
# First, let's evaluate on untrained models.

# %%
n_eval = 50
n_steps = [10, 25, 50, 75, 100]
n_replicates = [1, 2, 4, 8, 16, 32, 64]

times_means = np.zeros((len(n_steps), len(n_replicates)))
times_stds = np.zeros((len(n_steps), len(n_replicates)))

key = jr.PRNGKey(seed)

for idx0 in tqdm(range(len(n_steps)), desc="n_steps"):
    s = n_steps[idx0]
    
    for idx1 in tqdm(range(len(n_replicates)), desc="n_replicates"):
        n = n_replicates[idx1]
        
        timer = Timer()
        
        task = get_task(s)
        
        # get `n` models with `s` steps each
        # don't need a new key since the splits are changing
        models = get_models(task, s, n, key)
        
        models_arrays, models_other = eqx.partition(models, eqx.is_array)
        
        def evaluate_single(model_arrays, model_other, batch_size, key):
            model = eqx.combine(model_arrays, model_other)
            return task.eval_train_batch(model, batch_size, key)         
        
        @eqx.filter_jit
        def evaluate(keys_eval):
            return eqx.filter_vmap(evaluate_single, in_axes=(0, None, None, 0))(
                models_arrays, models_other, batch_size, keys_eval
            )
        
        keys_eval = jr.split(key, n)
        
        # make sure the model is compiled
        evaluate(keys_eval)
        
        # same eval keys but different models
        for _ in range(n_eval):    
            with timer:            
                evaluate(keys_eval)
        
        times_means[idx0, idx1] = np.mean(timer.times) 
        times_stds[idx0, idx1] = np.std(timer.times)


# %%
n_eval = 50
n_steps = [10, 25, 50, 75, 100]
n_replicates = [1, 2, 4, 8, 16, 32, 64]
n_warmup = 0

times_means = np.zeros((len(n_steps), len(n_replicates)))
times_stds = np.zeros((len(n_steps), len(n_replicates)))

key = jr.PRNGKey(seed)

for idx0 in tqdm(range(len(n_steps)), desc="n_steps"):
    s = n_steps[idx0]
    
    for idx1 in tqdm(range(len(n_replicates)), desc="n_replicates"):
        n = n_replicates[idx1]
        
        timer = Timer()
                
        task = get_task(s)
        
        # get `n` models with `s` steps each
        # don't need a new key since the splits are changing
        models = get_models(task, s, n, key)
        
        # make sure the model is compiled
        task.eval_ensemble_train_batch(models, n, batch_size, key)
        
        # warmup before first run
        if s == n_steps[0] and n == n_replicates[0]:
            for _ in range(n_warmup):
                task.eval_ensemble_train_batch(models, n, batch_size, key)
        
        # same eval keys but different models
        for _ in range(n_eval):    
            key, _ = jr.split(key)
            with timer:            
                task.eval_ensemble_train_batch(models, n, batch_size, key)
        
        times_means[idx0, idx1] = np.mean(timer.times) 
        times_stds[idx0, idx1] = np.std(timer.times)


# %%
os.makedirs("../data", exist_ok=True)
np.save(f"../data/{NB_PREFIX}_eval_times_means_0delay.npy", times_means)
np.save(f"../data/{NB_PREFIX}_eval_times_stds_0delay.npy", times_stds)
