# source: https://github.com/jax-ml/jax/pull/16423
# title: Made scatter-transpose more efficient: the pull request's MWE, a jitted `jax.grad` of an 800-step `lax.scan` of `.at[i].set` updates, timed as the minimum of `timeit.repeat(lambda: f(p0, 800), number=1, repeat=10)`, 0.052 s before the change and 0.014 s after
# established-by: maintainer jakevdp (reviewed and approved the pull request, whose author, patrick-kidger, measured the speed-up with this script; the change to scatter's transpose rule is the cause of the gain, and no one discussed the measurement)
# cause: The speed-up the pull request reports is the compiled gradient's: it changes the rule JAX uses to transpose a scatter, which the gradient of the `.at[i].set` updates calls at every step. The measurement takes the minimum of ten one-call repeats, so the first repeat, which traces and compiles `f` for `n=800`, is discarded (case 065's reading of the same `min(timeit.repeat(..., number=1))` shape; no LB103), and `p0` is made on the device before the timing. What a correct doctor reports, by the catalogue: the timed lambda returns `f(p0, 800)`, a jitted result nothing waits for, so each repeat measures the dispatch of the gradient rather than its run, unless the backend happens to run it before returning (LB102, at the timed call; the catalogue's `timeit` of an unwaited JAX call, as case 214). `n` is a static argument with one value, so the compile happens once. No one in the thread discussed the timing; the reading is the catalogue's. Code: the script of the pull request's description as posted, without its before-and-after figures.
# static: LB102
# dynamic: n/a
# inferred: LB102 (the timed call's result is never waited for; not discussed)
# lines: LB102:31
# first-sight: 35efc1f 2026-12-06 py: found LB102:31; missed none; false none | notebook: found LB102:31; missed none; false none

import functools as ft
import jax
import jax.lax as lax
import jax.numpy as jnp
import jax.random as jr
import timeit

@ft.partial(jax.jit, static_argnums=1)
@jax.grad
def f(p0, n):
    P = jnp.concatenate([p0[None], jnp.empty([n - 1, 10, 10])])

    def body(P, i):
        return P.at[i].set(P[i - 1]), None

    P, _ = lax.scan(body, P, jnp.arange(1, n))
    return jnp.sum(P[-1])


p0 = jr.normal(jr.PRNGKey(0), (10, 10))
elapsed = min(timeit.repeat(lambda: f(p0, 800), number=1, repeat=10))
print(elapsed)
