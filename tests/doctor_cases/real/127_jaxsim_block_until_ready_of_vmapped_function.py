# source: https://github.com/ami-iit/jaxsim/blob/main/tests/test_benchmark.py
# title: jaxsim tests/test_benchmark.py after "Use `jax.block_until_ready` in benchmarks" (gbionics/jaxsim#344)
# established-by: maintainer jax-ml (JAX's API documentation of jax.block_until_ready: it calls block_until_ready on the pytree's array leaves and returns the tree); the pull request that added the wrapper states the intent, 'to measure the time of the full computation and not only the asynchronous dispatch' (xela-95, merged by the jaxsim maintainers)
# cause: The pull request meant every pytest-benchmark round to wait for the vmapped computation, but it wraps the function, not its result: `jax.block_until_ready(jax.vmap(func, in_axes=(None, 0)))` is called once, on a function, finds no array leaf and returns the function unchanged, so `benchmark(...)` still times calls that return as soon as the batched work is queued, the asynchronous dispatch the pull request set out to avoid. The warm-up call before it compiles the batched function outside the timing. Code: tests/test_benchmark.py as stored (commit 0234c4f).
# static: LB102
# dynamic: n/a
# inferred: none
# lines: LB102:43
# first-sight: c3b020c 2026-12-02 py: found none; missed LB102:43; false LB114:43 | notebook: found none; missed LB102:43; false LB114:43

from collections.abc import Callable

import jax
import pytest

import jaxsim
import jaxsim.api as js


def vectorize_data(model: js.model.JaxSimModel, batch_size: int):
    key = jax.random.PRNGKey(seed=0)
    keys = jax.random.split(key, num=batch_size)

    return jax.vmap(
        lambda key: js.data.random_model_data(
            model=model,
            key=key,
        )
    )(keys)


def benchmark_test_function(
    func: Callable, model: js.model.JaxSimModel, benchmark, batch_size
):
    """Reusability wrapper for benchmark tests."""
    data = vectorize_data(model=model, batch_size=batch_size)

    # Warm-up call to avoid including compilation time
    jax.vmap(func, in_axes=(None, 0))(model, data)

    # Benchmark the function call
    # Note: jax.block_until_ready is used to ensure that the benchmark is not measuring only the asynchronous dispatch
    benchmark(jax.block_until_ready(jax.vmap(func, in_axes=(None, 0))), model, data)


@pytest.mark.benchmark
def test_forward_dynamics_aba(
    jaxsim_model_ergocub_reduced: js.model.JaxSimModel, benchmark, batch_size
):
    model = jaxsim_model_ergocub_reduced

    benchmark_test_function(js.model.forward_dynamics_aba, model, benchmark, batch_size)


@pytest.mark.benchmark
def test_free_floating_bias_forces(
    jaxsim_model_ergocub_reduced: js.model.JaxSimModel, benchmark, batch_size
):
    model = jaxsim_model_ergocub_reduced

    benchmark_test_function(
        js.model.free_floating_bias_forces, model, benchmark, batch_size
    )


@pytest.mark.benchmark
def test_free_floating_mass_matrix(
    jaxsim_model_ergocub_reduced: js.model.JaxSimModel, benchmark, batch_size
):
    model = jaxsim_model_ergocub_reduced

    benchmark_test_function(
        js.model.free_floating_mass_matrix, model, benchmark, batch_size
    )


@pytest.mark.benchmark
def test_free_floating_jacobian(
    jaxsim_model_ergocub_reduced: js.model.JaxSimModel, benchmark, batch_size
):
    model = jaxsim_model_ergocub_reduced

    benchmark_test_function(
        js.model.generalized_free_floating_jacobian, model, benchmark, batch_size
    )


@pytest.mark.benchmark
def test_free_floating_jacobian_derivative(
    jaxsim_model_ergocub_reduced: js.model.JaxSimModel, benchmark, batch_size
):
    model = jaxsim_model_ergocub_reduced

    benchmark_test_function(
        js.model.generalized_free_floating_jacobian_derivative,
        model,
        benchmark,
        batch_size,
    )


@pytest.mark.benchmark
def test_soft_contact_model(
    jaxsim_model_ergocub_reduced: js.model.JaxSimModel, benchmark, batch_size
):
    model = jaxsim_model_ergocub_reduced

    benchmark_test_function(js.ode.system_dynamics, model, benchmark, batch_size)


@pytest.mark.benchmark
def test_rigid_contact_model(
    jaxsim_model_ergocub_reduced: js.model.JaxSimModel, benchmark, batch_size
):
    model = jaxsim_model_ergocub_reduced

    with model.editable(validate=False) as model:
        model.contact_model = jaxsim.rbda.contacts.RigidContacts()

    benchmark_test_function(js.ode.system_dynamics, model, benchmark, batch_size)


@pytest.mark.benchmark
def test_relaxed_rigid_contact_model(
    jaxsim_model_ergocub_reduced: js.model.JaxSimModel, benchmark, batch_size
):
    model = jaxsim_model_ergocub_reduced

    with model.editable(validate=False) as model:
        model.contact_model = jaxsim.rbda.contacts.RelaxedRigidContacts()

    benchmark_test_function(js.ode.system_dynamics, model, benchmark, batch_size)
