# source: https://github.com/liblaf/jarp/blob/main/benches/jit.py
# title: jarp benches/jit.py (call overhead of jax.jit, jarp.filter_jit and equinox.filter_jit, timeit after warm-up)
# established-by: maintainer (the library's own benchmark script; its figures are published on the project's 'Filtered Call Wrappers' page)
# cause: Correct benchmark code: each wrapper is built once, outside the timing; `bench` runs the callable 2,000 times as warm-up (compilation included) before `timeit.Timer(fun).timeit(2000)` and reports the mean per call; every timed call waits for its result with `jax.block_until_ready`, so the figure is the steady-state call overhead the page reports. Code: the file as stored (commit 350b08f).
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: d3e47a7 2026-12-03 py: found none; missed none; false none | notebook: found none; missed none; false none

import timeit
from collections.abc import Callable
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp

import jarp

# jax.config.update("jax_platforms", "cpu")


def fun(inputs: Any = None) -> Any:
    return inputs


def bench(fun: Callable[..., Any]) -> float:
    for _ in range(2000):  # warmup
        fun()
    timer = timeit.Timer(fun)
    number: int = 2000
    time_taken: float = timer.timeit(number)
    return time_taken / number


def print_elapsed(name: str, time_taken: float) -> None:
    print(f"{name}: {time_taken * 1e6:.2f} µs")


def main() -> None:
    fun_jax: Callable[..., Any] = jax.jit(fun)
    fun_jarp: Callable[..., Any] = jarp.filter_jit(fun)
    fun_eqx: Callable[..., Any] = eqx.filter_jit(fun)
    print_elapsed("JAX JIT", bench(lambda: jax.block_until_ready(fun_jax())))
    print_elapsed("JARP JIT", bench(lambda: jax.block_until_ready(fun_jarp())))
    print_elapsed("Equinox JIT", bench(lambda: jax.block_until_ready(fun_eqx())))

    inputs: list = [[jnp.zeros(())] * 10] * 10
    print_elapsed(
        "JAX JIT (with inputs)", bench(lambda: jax.block_until_ready(fun_jax(inputs)))
    )
    print_elapsed(
        "JARP JIT (with inputs)", bench(lambda: jax.block_until_ready(fun_jarp(inputs)))
    )
    print_elapsed(
        "Equinox JIT (with inputs)",
        bench(lambda: jax.block_until_ready(fun_eqx(inputs))),
    )


if __name__ == "__main__":
    main()
