# source: https://github.com/pymc-devs/pymc-examples/blob/d1236594e125d55a05b5037472ae4df28a1f65db/examples/samplers/fast_sampling_with_jax_and_numba.myst.md
# title: PyMC example gallery, 'Faster Sampling with JAX and Numba': one probabilistic PCA model sampled with PyMC's Python NUTS, the NumPyro and BlackJAX JAX samplers and Nutpie, each end-to-end `pm.sample` timed once in a `%%time` cell
# established-by: maintainer pymc-devs (PyMC's example gallery page, authored by twiecki)
# cause: Correct code for what it reports. Each `%%time` cell is one end-to-end `pm.sample` call, the compile of the model for its backend included: the wall time a user of each backend waits, which is the page's point. `pm.sample` returns an `InferenceData` of host arrays, so every timed cell waits for its sampler (no LB102); the JAX samplers are jitted inside PyMC, not by the file (no LB103, case 197's reading of a cold library call); `%%time` is IPython's one-run readout, not LB104 (the corpus's reading of `%time`). The data and the model are built in earlier, untimed cells. Code: the page's code cells at commit d123659, one `# %%` cell each, the markdown left out.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 81cc67c 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

import arviz as az
import matplotlib.pyplot as plt
import numpy as np
import pymc as pm

rng = np.random.default_rng(seed=42)
print(f"Running on PyMC v{pm.__version__}")
# %%
%config InlineBackend.figure_format = 'retina'
az.style.use("arviz-darkgrid")
# %%
def build_toy_dataset(N, D, K, sigma=1):
    x_train = np.zeros((D, N))
    w = rng.normal(
        0.0,
        2.0,
        size=(D, K),
    )
    z = rng.normal(0.0, 1.0, size=(K, N))
    mean = np.dot(w, z)
    for d in range(D):
        for n in range(N):
            x_train[d, n] = rng.normal(mean[d, n], sigma)

    print("True principal axes:")
    print(w)
    return x_train


N = 5000  # number of data points
D = 2  # data dimensionality
K = 1  # latent dimensionality

data = build_toy_dataset(N, D, K)
# %%
plt.scatter(data[0, :], data[1, :], color="blue", alpha=0.1)
plt.axis([-10, 10, -10, 10])
plt.title("Simulated data set")
# %%
with pm.Model() as PPCA:
    w = pm.Normal("w", mu=0, sigma=2, shape=[D, K], transform=pm.distributions.transforms.Ordered())
    z = pm.Normal("z", mu=0, sigma=1, shape=[N, K])
    x = pm.Normal("x", mu=w.dot(z.T), sigma=1, shape=[D, N], observed=data)
# %%
%%time
with PPCA:
    idata_pymc = pm.sample()
# %%
%%time
with PPCA:
    idata_numpyro = pm.sample(nuts_sampler="numpyro", progressbar=False)
# %%
%%time
with PPCA:
    idata_blackjax = pm.sample(nuts_sampler="blackjax")
# %%
%%time
with PPCA:
    idata_nutpie = pm.sample(nuts_sampler="nutpie")
# %%
%load_ext watermark
%watermark -n -u -v -iv -w -p pytensor,arviz,pymc,numpyro,blackjax,nutpie
