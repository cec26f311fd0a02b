# source: https://github.com/JaxGaussianProcesses/GPJax/blob/50a4b9682172aedab0b358e07c481c2eb452b580/benchmarks/kernels.py
# title: GPJax asv suite `benchmarks/kernels.py`: nine kernel classes whose `time_covfunc_call` method computes the Gram matrix of the kernel on the points made in `setup`, and discards it without waiting
# established-by: maintainer JaxGaussianProcesses (the project's own asv benchmark suite)
# cause: The same suite and commit as case 354, whose `objectives.py` waits for every timed value; here every `time_covfunc_call` method evaluates `self.kernel.gram(self.X)` and returns nothing, so each timed call measures the dispatch of the kernel's JAX operations, not the Gram matrix (LB102 at each of the nine calls; case 300's reading of asv `time_*` methods that discard unwaited JAX results). asv repeats each method itself after its warm-up time, the repeated call being the subject timed (no LB114 or LB103, cases 300 and 354); the points are made in `setup`, outside the timing, and x64 is enabled first. No issue discusses the suite; the label is the catalogue's. Code: the file as stored at commit 50a4b96, unchanged.
# static: LB102
# dynamic: n/a
# inferred: LB102 (the Gram matrices are never waited for; not discussed)
# lines: LB102:37/46/55/64/73/82/91/100/109
# first-sight: f5b8aeb 2026-12-06 py: found LB102:37 LB102:46 LB102:55 LB102:64 LB102:73 LB102:82 LB102:91 LB102:100 LB102:109; missed none; false none | notebook: found LB102:37 LB102:46 LB102:55 LB102:64 LB102:73 LB102:82 LB102:91 LB102:100 LB102:109; missed none; false none

from jax import config

config.update("jax_enable_x64", True)

import jax.random as jr

from gpjax import kernels


class Kernels:
    param_names = ["n_data", "dimensionality"]
    params = [[10, 100, 500, 1000, 2000], [1, 2, 5]]

    def setup(self, n_datapoints: int, n_dims: int):
        key = jr.key(123)
        self.X = jr.uniform(
            key=key, minval=-3.0, maxval=3.0, shape=(n_datapoints, n_dims)
        )


class RBF(Kernels):
    def setup(self, n_datapoints: int, n_dims: int):
        super().setup(n_datapoints, n_dims)
        self.kernel = kernels.RBF(active_dims=list(range(n_dims)))

    def time_covfunc_call(self, n_datapoints: int, n_dims: int):
        self.kernel.gram(self.X)


class Matern12(Kernels):
    def setup(self, n_datapoints: int, n_dims: int):
        super().setup(n_datapoints, n_dims)
        self.kernel = kernels.Matern12(active_dims=list(range(n_dims)))

    def time_covfunc_call(self, n_datapoints: int, n_dims: int):
        self.kernel.gram(self.X)


class Matern32(Kernels):
    def setup(self, n_datapoints: int, n_dims: int):
        super().setup(n_datapoints, n_dims)
        self.kernel = kernels.Matern32(active_dims=list(range(n_dims)))

    def time_covfunc_call(self, n_datapoints: int, n_dims: int):
        self.kernel.gram(self.X)


class Matern52(Kernels):
    def setup(self, n_datapoints: int, n_dims: int):
        super().setup(n_datapoints, n_dims)
        self.kernel = kernels.Matern52(active_dims=list(range(n_dims)))

    def time_covfunc_call(self, n_datapoints: int, n_dims: int):
        self.kernel.gram(self.X)


class PoweredExponential(Kernels):
    def setup(self, n_datapoints: int, n_dims: int):
        super().setup(n_datapoints, n_dims)
        self.kernel = kernels.PoweredExponential(active_dims=list(range(n_dims)))

    def time_covfunc_call(self, n_datapoints: int, n_dims: int):
        self.kernel.gram(self.X)


class RationalQuadratic(Kernels):
    def setup(self, n_datapoints: int, n_dims: int):
        super().setup(n_datapoints, n_dims)
        self.kernel = kernels.RationalQuadratic(active_dims=list(range(n_dims)))

    def time_covfunc_call(self, n_datapoints: int, n_dims: int):
        self.kernel.gram(self.X)


class Polynomial(Kernels):
    def setup(self, n_datapoints: int, n_dims: int):
        super().setup(n_datapoints, n_dims)
        self.kernel = kernels.Polynomial(active_dims=list(range(n_dims)))

    def time_covfunc_call(self, n_datapoints: int, n_dims: int):
        self.kernel.gram(self.X)


class Linear(Kernels):
    def setup(self, n_datapoints: int, n_dims: int):
        super().setup(n_datapoints, n_dims)
        self.kernel = kernels.Linear(active_dims=list(range(n_dims)))

    def time_covfunc_call(self, n_datapoints: int, n_dims: int):
        self.kernel.gram(self.X)


class ArcCosine(Kernels):
    def setup(self, n_datapoints: int, n_dims: int):
        super().setup(n_datapoints, n_dims)
        self.kernel = kernels.ArcCosine(active_dims=list(range(n_dims)))

    def time_covfunc_call(self, n_datapoints: int, n_dims: int):
        self.kernel.gram(self.X)
