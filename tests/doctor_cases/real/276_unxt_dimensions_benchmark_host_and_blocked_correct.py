# source: https://github.com/GalacticDynamics/unxt/blob/ba6368edcc448a2b2ad63523ef9255bf47384c01/tests/benchmark/test_dimensions.py
# title: unxt `tests/benchmark/test_dimensions.py`: benchmark-marked tests of `unxt.dimension` and `dimension_of`, host-only calls, waited calls after a warm-up, and an ahead-of-time compile timed on purpose
# established-by: maintainer GalacticDynamics (unxt's benchmark suite, run with the `benchmark` marker)
# cause: Correct benchmark code: `dimension` and `dimension_of` parse and compare unit dimensions on the host, so the plain tests time host work with nothing to wait for; the `_execute` tests are marked `warmup=True` and wrap the result in `jax.block_until_ready`; `test_dimension_of_jit_compile` times `jax.jit(...).lower(...).compile()` on purpose (its docstring: 'the speed of jitting'), with `warmup=False`. Code: the file as stored at commit ba6368e, unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 9c65424 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

"""Benchmark tests for quaxified jax."""

import jax
import pytest

import unxt as u

LENGTH = u.dimension("length")


@pytest.fixture
def func_dimension_is_length():
    return lambda x: u.dimension(x) == LENGTH


@pytest.fixture
def func_dimension_of_length():
    return lambda x: u.dimension_of(x) == LENGTH


#####################################################################
# `dimension`


@pytest.mark.parametrize(
    "args",
    [
        (u.dimension("length"),),  # -> Dimension('length')
        ("length",),  # -> Dimension('length')
    ],
)
@pytest.mark.benchmark(group="dimensions", warmup=False)
def test_dimension(args):
    """Test calling `unxt.dimension`."""
    _ = u.dimension(*args)


@pytest.mark.parametrize(
    "args",
    [
        (u.dimension("length"),),  # -> Dimension('length')
        ("length",),  # -> Dimension('length')
    ],
)
@pytest.mark.benchmark(group="dimensions", warmup=True)
def test_dimension_execute(func_dimension_is_length, args):
    """Test the speed of calling the function."""
    _ = jax.block_until_ready(func_dimension_is_length(*args))


#####################################################################
# `dimension_of`


@pytest.mark.parametrize(
    "args",
    [
        (u.dimension("length"),),  # -> Dimension('length')
        (u.unit("m"),),  # -> Dimension('length')
        (u.Quantity(1, "m"),),  # -> Dimension('length')
        (2,),  # -> None
    ],
)
@pytest.mark.benchmark(group="dimensions", warmup=False)
def test_dimension_of(args):
    """Test calling `unxt.dimension_of`."""
    _ = u.dimension_of(*args)


@pytest.mark.parametrize(
    "args",
    [
        (u.Quantity(1, "m"),),  # -> Dimension('length')
    ],
)
@pytest.mark.benchmark(group="dimensions", warmup=False)
def test_dimension_of_jit_compile(func_dimension_of_length, args):
    """Test the speed of jitting."""
    _ = jax.jit(func_dimension_of_length).lower(*args).compile()


@pytest.mark.parametrize(
    "args",
    [
        (u.dimension("length"),),  # -> Dimension('length')
        (u.unit("m"),),  # -> Dimension('length')
        (u.Quantity(1, "m"),),  # -> Dimension('length')
        (2,),  # -> None
    ],
)
@pytest.mark.benchmark(group="dimensions", warmup=True)
def test_dimension_of_execute(func_dimension_of_length, args):
    """Test the speed of calling the function."""
    _ = jax.block_until_ready(func_dimension_of_length(*args))
