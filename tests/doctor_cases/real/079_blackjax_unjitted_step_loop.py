# source: https://blackjax-devs.github.io/blackjax/examples/speed_up_guide.html
# title: Speed-up Guide (1. Always JIT the step function at the outermost scope)
# established-by: maintainer blackjax-devs (official BlackJAX documentation)
# cause: BlackJAX kernels are plain Python callables; the first loop calls nuts.step without jax.jit, so each of the 1000 calls runs the kernel outside any compiled program and, as the guide puts it, compiles afresh; jitting the step once (second loop), or the whole run with a lax.scan inside one jit (second snippet), compiles once. Code: the guide's two snippets of section 1, as posted.
# static: LB114
# dynamic: n/a
# inferred: none
# lines: LB114:13
# first-sight: b744741 2026-12-02 py: found none; missed LB114:13; false none | notebook: found none; missed LB114:13; false none

# ✗ slow — recompiles on every call
for i in range(1000):
    state, info = nuts.step(key, state)

# ✓ fast — compile once, run many
step = jax.jit(nuts.step)
for i in range(1000):
    state, info = step(key, state)
# %%
@jax.jit
def run(rng_key, initial_state):
    def step(state, key):
        state, info = kernel(key, state)
        return state, info
    return jax.lax.scan(step, initial_state, jax.random.split(rng_key, n_iter))
