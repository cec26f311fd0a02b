# source: https://sta663-sp26.github.io/slides/Lec20.html
# title: Sta 663 (Duke, Spring 2026, Dr. Colin Rundel), Lecture 20 'MCMC - Performance & Stan': a PyMC Gaussian-process model sampled with `pm.sample(nuts_sampler=...)` for the pymc, blackjax, numpyro and nutpie backends and with a precompiled nutpie model, each run once between two `time.time()` reads, then CmdStan and nutpie-on-Stan fits timed with `timeit.repeat(..., repeat=3, number=1)`
# established-by: maintainer Colin Rundel (the course's own lecture source, sta663-sp26/sta663-sp26.github.io, Lec20.qmd; no issue discusses its timing)
# cause: The 'Performance' slide compares four NUTS backends, two of them JAX (BlackJAX and NumPyro, which the slide before says 'JIT-compile the model ... have higher compilation overhead on first run'), from one wall-clock reading each. What a correct doctor reports, by the catalogue and the corpus's readings: each of the five figures is one end-to-end run between two clock reads (LB104 at the first statement inside each clock pair, the `with model:` line or the sampling call under it, 406's reading of one PyMC-with-BlackJAX fit timed once, and 364's), and the clock is `time.time()` (LB105 at the five start reads). `pm.sample` returns an ArviZ `InferenceData` of host arrays, so each run is waited for before the clock is read again (no LB102), and the JAX backends' compile is part of the end-to-end figure the slide means (no LB103, 406's and 297's reading; the nutpie pair shows the lecture separating compile on purpose). The Stan timings are sound for what they report: `timeit.repeat` with three repeats of one fit each, after an untimed first fit, with the prose note 'we are not including the compilation time' (no LB104, no LB105; CmdStan and nutpie's Stan backend run no JAX work). Code: the lecture's Python chunks for the setup imports, the simulated data, the 'Performance' model and its five timed cells, then the Stan fit, the nutpie-Stan compile and the two `timeit.repeat` cells with their printing chunks, in order, one `# %%` cell per chunk with its Quarto `#|` options kept (the `{r}` setup chunk, the printing options, the plots, the MAP and posterior-predictive slides, the `az.summary` cells, the Stan diagnostics and the tennis-model slides left out).
# static: LB104, LB105
# dynamic: n/a
# inferred: LB104 (each backend's figure is one run; not discussed), LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB104:62/63/70/71/78/79/86/87/98, LB105:61/69/77/85/97
# first-sight: 858cce0 2026-12-06 py: found none; missed LB104:62/63/70/71/78/79/86/87/98, LB105:61/69/77/85/97; false none | notebook: found none; missed LB104:62/63/70/71/78/79/86/87/98, LB105:61/69/77/85/97; false none

# %%
#| include: false

import numpy as np
import matplotlib as mpl
import matplotlib.pyplot as plt
import pandas as pd
import seaborn as sns
import scipy

from pprint import pprint

import timeit
import time

import patsy

import pymc as pm
import arviz as az

# %%
#| include: false

rng = np.random.default_rng(seed=20260221)

n = 250
x = np.sort(rng.uniform(0, 2, n))
y = np.sin(3*np.pi*x) / (3*x+1) + rng.normal(0, 0.1, n)

d = pd.DataFrame({"x":x, "y": y})

# %%
#| include: false

X = d.x.to_numpy().reshape(-1,1)
y = d.y.to_numpy()

with pm.Model() as model:
  l = pm.Gamma("l", alpha=2, beta=1)
  s = pm.HalfCauchy("s", beta=5)
  nug = pm.HalfCauchy("nug", beta=5)

  cov = s**2 * pm.gp.cov.ExpQuad(input_dim=1, ls=l)
  gp = pm.gp.Marginal(cov_func=cov)

  y_ = gp.marginal_likelihood(
    "y", X=X, y=y, sigma=nug
  )

# %%
start = time.time()
with model:
    post_nuts = pm.sample(
      nuts_sampler="pymc", chains=4, progressbar=False
    )
print(f"pymc: {time.time() - start:.1f}s")

# %%
start = time.time()
with model:
    post_blackjax = pm.sample(
      nuts_sampler="blackjax", chains=4, progressbar=False
    )
print(f"blackjax: {time.time() - start:.1f}s")

# %%
start = time.time()
with model:
    post_pyro = pm.sample(
      nuts_sampler="numpyro", chains=4, progressbar=False
    )
print(f"numpyro: {time.time() - start:.1f}s")

# %%
start = time.time()
with model:
    post_nutpie = pm.sample(
      nuts_sampler="nutpie", chains=4, progressbar=False
    )
print(f"nutpie: {time.time() - start:.1f}s")

# %%
import nutpie
compiled = nutpie.compile_pymc_model(model)

# %%
start = time.time()
post_nutpie2 = nutpie.sample(compiled, chains=4, progress_bar=False)
print(f"nutpie (compiled): {time.time() - start:.1f}s")

# %%
from cmdstanpy import CmdStanModel
d_stan = d.to_dict('list')
d_stan["N"] = len(d["x"])

# %%
#| warning: true
gp = CmdStanModel(stan_file='Lec20/gp.stan')
gp_fit = gp.sample(data=d_stan, show_progress=False)

# %%
import nutpie
m = nutpie.compile_stan_model(filename="Lec20/gp.stan")
m = m.with_data(x=d["x"],y=d["y"],N=len(d["x"]))
gp_fit_nutpie = nutpie.sample(m, chains=4)

# %%
t_stan_gp = timeit.repeat(
    lambda: gp.sample(data=d_stan, show_progress=False),
    repeat=3, number=1
)

# %%
#| echo: false
print(f"{sum(t_stan_gp)/len(t_stan_gp):.2f}s ± {(max(t_stan_gp)-min(t_stan_gp))/2:.2f}s (3 runs, 1 loop each)")

# %%
t_stan_nutpie_gp = timeit.repeat(
    lambda: nutpie.sample(m, chains=4, progress_bar=False),
    repeat=3, number=1
)

# %%
#| echo: false
print(f"{sum(t_stan_nutpie_gp)/len(t_stan_nutpie_gp):.2f}s ± {(max(t_stan_nutpie_gp)-min(t_stan_nutpie_gp))/2:.2f}s (3 runs, 1 loop each)")
