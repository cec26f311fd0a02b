# source: https://github.com/GalSim-developers/JAX-GalSim/blob/171fc8963d1930c870a98455f7b4bf17454a8e5e/tests/jax/test_benchmarks.py
# title: JAX-GalSim's first pytest-benchmark suite (`tests/jax/test_benchmarks.py`): an `InterpolatedImage` drawn by a function `f` with no `return`, benchmarked as 'jit_compile' through `benchmark(lambda: jax.jit(f)())` and as 'jit_run' through `benchmark(jitf)` after one warm-up call
# established-by: maintainer beckermr (the suite's author, who added benchmarks for interpolated images in GalSim-developers/JAX-GalSim#100; his later #103, 'ensure jax caches are always cleared for compile benchmarks', which 'fixes a bug in #102 where the jax jit caches were not cleared properly', and the suite's later form, whose `f` returns the drawn image and whose compile benchmark calls `jax.clear_caches()` before each round)
# cause: Both benchmarked functions are `def f(): igal.drawImage(nx=32, ny=32, scale=0.2)` with no `return`, so the jitted `f` has no outputs and XLA drops the whole drawing as dead code: `jitf` is an empty program and the 'jit_run' figure times its dispatch (checked on jax 0.10.2: `jax.jit(f).lower()` of such a function is a `main` that only returns), the catalogue's LB107 at each `def f():` line (case 257's reading of a jitted function with no `return`). The 'jit_compile' benchmark re-wraps the same `f` in `jax.jit` inside the statement pytest-benchmark repeats; `jax.jit(f)` of an unchanged function hits the trace and compile caches after the first round (checked on jax 0.10.2 with `jax.log_compiles`: the second `jax.jit(f)()` compiles nothing), so every later round times a wrapper, a cache lookup and the empty program's dispatch, not a compile: LB111 at that line, the catalogue's 'any `jax.jit(...)(...)` inside a repeated timed statement', where case 171's fresh `jax.jit(lambda ...)` per round does compile each round and is correct. The maintainer's later changes agree with this reading: in the suite's later form the compile benchmarks call `jax.clear_caches()` before each round (#103 fixed a version, #102, whose caches were 'not cleared properly'), and `f` returns the image, waited for with `.block_until_ready()`. The warm-up `jitf()` before the 'jit_run' benchmark keeps its compile out of the figure (no LB103); the Gaussian and the interpolated image are built before the timing. Code: the file as stored at commit 171fc89, the suite's first stored version, unchanged.
# static: LB107, LB111
# dynamic: n/a
# inferred: LB107 (the benchmarked `f` returns nothing; no thread names it, the later file adds the `return`), LB111 (the repeated `jax.jit(f)()` measures a cache hit after the first round; the maintainer's #103 names the uncleared caches of the follow-up version, not this one)
# lines: LB107:21/32, LB111:24
# first-sight: 9bb132d 2026-12-06 py: found LB107:21 LB111:24 LB107:32; missed none; false LB102:24 LB102:41 | notebook: found LB107:21 LB111:24 LB107:32; missed none; false LB102:24 LB102:41

import jax

import jax_galsim as jgs


def test_benchmarks_interpolated_image_jit_compile(benchmark):
    gal = jgs.Gaussian(fwhm=1.2)
    im_gal = gal.drawImage(nx=32, ny=32, scale=0.2)
    igal = jgs.InterpolatedImage(im_gal, gsparams=jgs.GSParams(minimum_fft_size=128, maximum_fft_size=128))

    def f():
        igal.drawImage(nx=32, ny=32, scale=0.2)

    benchmark(lambda: jax.jit(f)())


def test_benchmarks_interpolated_image_jit_run(benchmark):
    gal = jgs.Gaussian(fwhm=1.2)
    im_gal = gal.drawImage(nx=32, ny=32, scale=0.2)
    igal = jgs.InterpolatedImage(im_gal, gsparams=jgs.GSParams(minimum_fft_size=128, maximum_fft_size=128))

    def f():
        igal.drawImage(nx=32, ny=32, scale=0.2)

    jitf = jax.jit(f)

    # run once to compile
    jitf()

    # now benchmark
    benchmark(jitf)
