# source: https://github.com/jax-ml/jax/issues/13522
# title: `vmap`-`while`-`inplace` makes copies instead of updating in-place: a jitted `lax.while_loop` that sets one element per step, plain and vmapped over a batch of one, each timed as the minimum of two `timeit.repeat` runs of a lambda that returns the result without waiting for it
# established-by: maintainer jax-ml (the JAX team labelled the report `performance` and `XLA` and closed it: batching the `while` turns the in-place update into a `select` over the whole buffer, the reporter patrick-kidger's diagnosis)
# cause: The finding is a real cost of the program: under `vmap` XLA computes the batched body and `select`s the changed batch elements, which copies the whole array every step, so the vmapped loop grows with the square of the size while the plain one stays flat in these figures. The timing has a fault the thread does not discuss: `timeit.repeat` calls `lambda: f(*args)` and `lambda: vf(*vargs)`, which return the JAX result as soon as it is dispatched; nothing waits for it, so a figure can stop before the loop has run (LB102, at both timed statements). The posted figures still grow with the size because they come from a CPU run of late 2022, when JAX's CPU backend finished each computation before the call returned; CPU dispatch has since become asynchronous, and on an accelerator it always was. The first of the two repeats is also each function's first call at that size and compiles, but the reported figure is the minimum of the two repeats, so the compile is not what is printed (no LB103); two samples, one of them cold, are reported as their minimum, which the corpus does not read as a single sample. Code: the program as posted, its printed results kept as the comments they were.
# static: LB102
# dynamic: n/a
# inferred: LB102 (neither timed lambda waits for its result; not discussed)
# lines: LB102:33/34

import jax
import jax.lax as lax
import jax.numpy as jnp
import timeit

def f(init_step, init_xs):
    def cond(carry):
        step, xs = carry
        return step < xs.size

    def body(carry):
        step, xs = carry
        xs = xs.at[step].set(1)
        return step + 1, xs

    return lax.while_loop(cond, body, (init_step, init_xs))

f = jax.jit(f)
vf = jax.jit(jax.vmap(f))

def run(size):
    args = 0, jnp.zeros(size)
    vargs = jnp.array([0]), jnp.zeros((1, size))
    time = min(timeit.repeat(lambda: f(*args), number=1, repeat=2))
    vtime = min(timeit.repeat(lambda: vf(*vargs), number=1, repeat=2))
    print(f"size={size} time={time} vtime={vtime}")

run(10000)
run(20000)
run(30000)

# size=10000 time=6.700679659843445e-05 vtime=0.12796505074948072
# size=20000 time=9.748293086886406e-05 vtime=0.5133151961490512
# size=30000 time=0.00012761494144797325 vtime=1.1480253851041198
