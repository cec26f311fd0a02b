# source: https://github.com/blackjax-devs/blackjax/blob/11ac8ef7197cb177ca1db523d142fdec56578407/tests/test_benchmarks.py
# title: BlackJAX `tests/test_benchmarks.py`: pytest-benchmark rounds of a whole NUTS or HMC regression run (window adaptation, then 10,000 samples through `run_inference_algorithm`), the sampled states returned to the fixture with nothing waited for
# established-by: maintainer blackjax-devs (the library's performance-regression benchmarks, marked `benchmark`)
# cause: Each pytest-benchmark round calls `run_regression`, which dispatches the adaptation and the 10,000-step sampling loop (both `lax.scan`s inside BlackJAX) and returns the `states` pytree without waiting for it; the fixture reads its clock as soon as the function returns, so a round can end before the sampling it is meant to track has run (LB102, at each benchmarked call). The function builds its data, its `functools.partial` and a fresh `lambda` log-density on every round, so each round also traces and compiles BlackJAX's loops again; the compile is inside the library's own calls (case 292's reading of NumPyro's `run_inference`: no LB103), and the docstring calls the file 'a first draft' of an end-to-end regression benchmark, so that is left unlabelled here. No issue discusses the file (the corpus's notes on cases 107-114 left it out for that); the reading is the catalogue's. Code: the file as stored at commit 11ac8ef, unchanged.
# static: LB102
# dynamic: n/a
# inferred: LB102 (the benchmarked function returns the sampled states unwaited; not discussed)
# lines: LB102:73/82
# first-sight: 0228b9c 2026-12-06 py: found LB102:73 LB102:82; missed none; false none | notebook: found LB102:73 LB102:82; missed none; false none

"""Simple benchmarks to track potential performance regressions.

(TODO) This is only a first draft. We should add the ESS per gradient evaluation, ESS /
second and other metrics to make sure that the results are "correct", and
obviously more models. It should also be run in CI.

"""
import functools

import jax
import jax.numpy as jnp
import jax.scipy.stats as stats
import pytest

import blackjax
from blackjax.util import run_inference_algorithm


def regression_logprob(log_scale, coefs, preds, x):
    """Linear regression"""
    scale = jnp.exp(log_scale)
    scale_prior = stats.expon.logpdf(scale, 0, 1) + log_scale
    coefs_prior = stats.norm.logpdf(coefs, 0, 5)
    y = jnp.dot(x, coefs)
    logpdf = stats.norm.logpdf(preds, y, scale)
    return sum(x.sum() for x in [scale_prior, coefs_prior, logpdf])


def run_regression(algorithm, **parameters):
    key = jax.random.key(0)
    rng_key, init_key0, init_key1 = jax.random.split(key, 3)
    x_data = jax.random.normal(init_key0, shape=(100_000, 1))
    y_data = 3 * x_data + jax.random.normal(init_key1, shape=x_data.shape)

    logdensity_fn_ = functools.partial(regression_logprob, x=x_data, preds=y_data)
    logdensity_fn = lambda x: logdensity_fn_(**x)

    warmup_key, inference_key = jax.random.split(rng_key, 2)

    warmup = blackjax.window_adaptation(
        algorithm,
        logdensity_fn,
        is_mass_matrix_diagonal=False,
        **parameters,
    )
    (state, parameters), _ = warmup.run(
        warmup_key, {"log_scale": 0.0, "coefs": 2.0}, 1000
    )
    inference_algorithm = algorithm(logdensity_fn, **parameters)

    _, states, _ = run_inference_algorithm(
        inference_key, state, inference_algorithm, 10_000
    )

    return states


@pytest.mark.benchmark
def test_regression_nuts(benchmark):
    benchmark.extra_info["algorithm"] = "NUTS"
    benchmark.extra_info["num_warmup_steps"] = "1000"
    benchmark.extra_info["num_samples"] = "10_000"
    benchmark(run_regression, blackjax.nuts)


@pytest.mark.benchmark
def test_regression_hmc(benchmark):
    benchmark.extra_info["algorithm"] = "HMC"
    benchmark.extra_info["num_integration_steps"] = "10"
    benchmark.extra_info["num_warmup_steps"] = "1000"
    benchmark.extra_info["num_samples"] = "10_000"
    benchmark(run_regression, blackjax.hmc, num_integration_steps=10)
