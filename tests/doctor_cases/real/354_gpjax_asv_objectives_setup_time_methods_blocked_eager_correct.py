# source: https://github.com/JaxGaussianProcesses/GPJax/blob/50a4b9682172aedab0b358e07c481c2eb452b580/benchmarks/objectives.py
# title: GPJax asv suite `benchmarks/objectives.py`: three classes with `setup` and `time_eval`/`time_grad` methods over a grid of data sizes and dimensions, each timing one GP objective evaluation or its gradient and waiting for the result
# established-by: maintainer JaxGaussianProcesses (the project's own asv benchmark suite)
# cause: Correct code. Each class builds its data, prior, likelihood and objective in asv's `setup`, outside the timing, and each `time_*` method makes one call and waits for it: `.block_until_ready()` on the objective's value, `jax.block_until_ready` on the gradient pytree, so no LB102. Nothing is jitted in the file: the suite times GPJax's objectives as called, and asv repeats each `time_*` method itself after its warm-up time, a timer's repetition of one call that the corpus leaves unlabelled (cases 041, 242 and 300: the repeated eager call is the subject timed, not LB114). `jax.grad(...)` built inside the timed method is a transform, not a `jax.jit` (no LB111). `from jax import config` is the current import (the suite's earlier version, `from jax.config import config`, would be LB113), and x64 is enabled before any array is made, so the float64 GP computations are what they say. The `params` grid is asv's parametrisation, one `setup` per combination, not a loop over a jitted function (no LB117). Code: the file as stored at commit 50a4b96, unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: f5b8aeb 2026-12-06 py: found none; missed none; false LB114:44 LB114:70 LB114:97 | notebook: found none; missed none; false LB114:44 LB114:70 LB114:97

from jax import config

config.update("jax_enable_x64", True)
import jax
import jax.numpy as jnp
import jax.random as jr

import gpjax as gpx


class Gaussian:
    param_names = [
        "n_data",
        "n_dims",
    ]
    params = [[10, 100, 200, 500, 1000], [1, 2, 5]]

    def setup(self, n_datapoints: int, n_dims: int):
        key = jr.key(123)
        self.X = jr.normal(key=key, shape=(n_datapoints, n_dims))
        self.y = jnp.sin(self.X[:, :1])
        self.data = gpx.Dataset(X=self.X, y=self.y)
        kernel = gpx.kernels.RBF(active_dims=list(range(n_dims)))
        meanf = gpx.mean_functions.Constant()
        self.prior = gpx.gps.Prior(kernel=kernel, mean_function=meanf)
        self.likelihood = gpx.likelihoods.Gaussian(num_datapoints=self.data.n)
        self.objective = gpx.objectives.ConjugateMLL()
        self.posterior = self.prior * self.likelihood

    def time_eval(self, n_datapoints: int, n_dims: int):
        self.objective.step(self.posterior, self.data).block_until_ready()

    def time_grad(self, n_datapoints: int, n_dims: int):
        jax.block_until_ready(jax.grad(self.objective.step)(self.posterior, self.data))


class Bernoulli:
    param_names = [
        "n_data",
        "n_dims",
    ]
    params = [[10, 100, 200, 500, 1000], [1, 2, 5]]

    def setup(self, n_datapoints: int, n_dims: int):
        key = jr.key(123)
        self.X = jr.normal(key=key, shape=(n_datapoints, n_dims))
        self.y = jnp.where(jnp.sin(self.X[:, :1]) > 0, 1, 0)
        self.data = gpx.Dataset(X=self.X, y=self.y)
        kernel = gpx.kernels.RBF(active_dims=list(range(n_dims)))
        meanf = gpx.mean_functions.Constant()
        self.prior = gpx.gps.Prior(kernel=kernel, mean_function=meanf)
        self.likelihood = gpx.likelihoods.Bernoulli(num_datapoints=self.data.n)
        self.objective = gpx.objectives.LogPosteriorDensity()
        self.posterior = self.prior * self.likelihood

    def time_eval(self, n_datapoints: int, n_dims: int):
        self.objective.step(self.posterior, self.data).block_until_ready()

    def time_grad(self, n_datapoints: int, n_dims: int):
        jax.block_until_ready(jax.grad(self.objective.step)(self.posterior, self.data))


class Poisson:
    param_names = [
        "n_data",
        "n_dims",
    ]
    params = [[10, 100, 200, 500, 1000], [1, 2, 5]]

    def setup(self, n_datapoints: int, n_dims: int):
        key = jr.key(123)
        self.X = jr.normal(key=key, shape=(n_datapoints, n_dims))
        f = lambda x: 2.0 * jnp.sin(3 * x) + 0.5 * x  # latent function
        self.y = jr.poisson(key, jnp.exp(f(self.X)))
        self.data = gpx.Dataset(X=self.X, y=self.y)
        kernel = gpx.kernels.RBF(active_dims=list(range(n_dims)))
        meanf = gpx.mean_functions.Constant()
        self.prior = gpx.gps.Prior(kernel=kernel, mean_function=meanf)
        self.likelihood = gpx.likelihoods.Poisson(num_datapoints=self.data.n)
        self.objective = gpx.objectives.LogPosteriorDensity()
        self.posterior = self.prior * self.likelihood

    def time_eval(self, n_datapoints: int, n_dims: int):
        self.objective.step(self.posterior, self.data).block_until_ready()

    def time_grad(self, n_datapoints: int, n_dims: int):
        jax.block_until_ready(jax.grad(self.objective.step)(self.posterior, self.data))
