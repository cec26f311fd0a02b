# source: https://github.com/eightysteele/genjax-bootstrap/blob/b1622293f8ee9418fd730054f7f28c825589b3db/notebooks/.ipynb_checkpoints/demo-checkpoint.ipynb
# title: genjax-bootstrap's demo notebook (`notebooks/.ipynb_checkpoints/demo-checkpoint.ipynb`, the one-cell notebook a GenJAX project bootstrap script installs beside `src/frochi/demo.py`): a jitted beta-Bernoulli importance-sampling query (50 trials of 50 particles) wrapped in `jax.jit` again, warmed with one waited call, then `timeit.timeit('cpu_jit()', number=1000)` reported as 'Average runtime'; the 'GPU' half builds the same function for the CPU and times the statement `'gpu_jit'`
# established-by: maintainer eightysteele (the bootstrap repository's own demo; no issue discusses its timing)
# cause: What a correct doctor reports, by the catalogue and the corpus's readings; no one discussed the timing. `cpu_jit` is called once and waited before the timing (no LB103), and the figure is a mean over 1,000 runs (no LB104), but the timed statement `'cpu_jit()'` never waits: each run only dispatches the query, and `timeit` stops its clock with the last results still queued, so the 'Average runtime' is dispatch time (LB102 at the `timeit.timeit(` call, where 512 places a statement-string `timeit`'s finding). Not labelled: the 'GPU' figure times the string `'gpu_jit'`, a name lookup that runs no JAX work at all, and `gpu_jit` is built for the CPU platform anyway, faults of the statement the catalogue has no code for (no LB102: nothing is dispatched to wait for); wrapping the already-jitted `execute_inference` in `jax.jit` again happens once, outside any timing (no LB111); `timeit` uses `perf_counter` (no LB105). Code: the notebook's one code cell as stored at commit b162229, kept as one `# %%` cell (the same code is stored as `src/frochi/demo.py`, and `bootstrap.sh` writes it both ways).
# static: LB102
# dynamic: n/a
# inferred: LB102 (the jitted query's result is never waited for inside the `timeit` statement; not discussed)
# lines: LB102:59
# first-sight: cd05d1a 2026-12-07 py: found none; missed LB102:59; false LB102:60 LB101:72 | notebook: found none; missed LB102:59; false LB102:60 LB101:72

# %%
import timeit

import jax
import jax.numpy as jnp
import genjax
from genjax import beta, flip, gen, Target, ChoiceMap
from genjax.inference.smc import ImportanceK

@gen
def beta_bernoulli(α, β):
    """Define the generative model."""
    p = beta(α, β) @ "p"
    v = flip(p) @ "v"
    return v

def run_inference(obs: bool, platform='cpu'):
    """Estimate `p` over 50 independent trials of SIR (K = 50 particles)."""
    # Set the device
    device = jax.devices(platform)[0]
    key = jax.random.PRNGKey(314159)
    key = jax.device_put(key, device)

    # JIT compilation will be target-specific based on device (CPU or GPU)
    @jax.jit
    def execute_inference():
        # Inference query with the a model, arguments, and constraints
        posterior = Target(beta_bernoulli, (2.0, 2.0), ChoiceMap.d({"v": obs}))

        # Use a library algorithm, or design your own—more on that in the docs!
        alg = ImportanceK(posterior, k_particles=50)

        # Everything is JAX compatible by default—jit, vmap, etc.
        skeys = jax.random.split(key, 50)
        _, p_chm = jax.vmap(
            alg.random_weighted, in_axes=(0, None))(skeys, posterior)

        return jnp.mean(p_chm["p"])

    return execute_inference


n = 1000
print(f"\nStarting GenJax demo with {n} runs...")

# CPU compile, execute, benchmark, profile
cpu_jit = jax.jit(run_inference(True, 'cpu'))
cpu_jit().block_until_ready()
ms = timeit.timeit(
    'cpu_jit()',
    globals=globals(),
    number=n
) / n * 1000
print(f"CPU: Average runtime over {n} runs = {ms} (ms)")

# GPU compile, execute, benchmark, profile
gpu_jit = jax.jit(run_inference(True, 'cpu'))
gpu_jit().block_until_ready()
try:
    jax.devices('gpu')
    ms = timeit.timeit(
        'gpu_jit',
        globals=globals(),
        number=n
    ) / n * 1000
    print(f"GPU: Average runtime over {n} runs = {ms} (ms)")
except RuntimeError as e:
    print("(No GPU device on host)")

print("Done!")
