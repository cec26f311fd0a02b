# source: https://github.com/microsoft/folx/blob/1166163c0e8fb1de20f39d7b7448d14eb9ea7bc8/README.md
# title: folx README, 'Sparsity example': three Laplacian operators of an MLP, each jitted, timed cold with `%time` and warm with `%timeit`
# established-by: maintainer (the folx README, by its authors Nicholas Gao, Jonas Köhler and Adam Foster)
# cause: Timing code that is right for what its prose reports, with a first-call figure the code does not name. The README introduces the example with 'Compile times may increase significantly as tracing the sparsity patterns of the jacobians is a lengthy process', and each operator is then timed twice: `%time` of the first call of the freshly jitted `lapl`, which is the compile-plus-first-run figure the sentence is about (1.42 s, 2.66 s, 5.05 s, rising with sparsity), and right after it `%timeit` of the same call, the steady-state figure (224 ms, 48.7 ms, 2.59 ms). Both wait with `jax.block_until_ready`. Cases 200, 202, 212 and 216 leave a first call timed on purpose out of LB103 because their code says so (a comment, a name, the printed words); here the words are in the prose around the block, which the code does not carry, so the doctor reads the block as case 020's identical shape (LB103). The `for _ in range(10)` in the Flax module builds ten distinct Dense layers, a loop over layers, which the corpus does not count as LB106 (cases 111, 137). Code: the README's sparsity example block as posted, its comments with the printed timings kept. Entered first as 236, labelled correct by the README's prose; retired (see the README: the doctor reads the code, and a correct doctor reports on the code the same LB103 that case 020 establishes for this shape).
# static: LB103
# dynamic: n/a
# inferred: LB103 (each `%time` times the first call of a freshly jitted `lapl`; the code does not say it is the compile that is timed, and the same `%time`-then-`%timeit` shape was a real mistake in case 020)
# lines: LB103:32/37/42
# first-sight: f3b9bd0 2026-12-05 py: found LB103:32 LB103:37 LB103:42; missed none; false none | notebook: found LB103:32 LB103:37 LB103:42; missed none; false none

import folx
import jax
import jax.numpy as jnp
import flax.linen as nn

class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        for _ in range(10):
            x = nn.Dense(100)(x)
            x = nn.silu(x)
        return nn.Dense(1)(x).sum()

mlp = MLP()
x = jnp.ones((20, 100, 4))
params = mlp.init(jax.random.PRNGKey(0), x)
def fwd(x):
    return mlp.apply(params, x)

# Traditional loop implementation
lapl = jax.jit(jax.vmap(folx.LoopLaplacianOperator()(fwd)))
%time jax.block_until_ready(lapl(x)) # Wall time: 1.42 s
%timeit jax.block_until_ready(lapl(x)) # 224 ms ± 54 µs per loop (mean ± std. dev. of 7 runs, 1 loop each)

# Forward laplacian without sparsity
lapl = jax.jit(jax.vmap(folx.ForwardLaplacianOperator(0)(fwd)))
%time jax.block_until_ready(lapl(x)) # Wall time: 2.66 s
%timeit jax.block_until_ready(lapl(x)) # 48.7 ms ± 42.1 µs per loop (mean ± std. dev. of 7 runs, 10 loops each)

# Forward laplacian with sparsity
lapl = jax.jit(jax.vmap(folx.ForwardLaplacianOperator(4)(fwd)))
%time jax.block_until_ready(lapl(x)) # Wall time: 5.05 s
%timeit jax.block_until_ready(lapl(x)) # 2.59 ms ± 15.3 µs per loop (mean ± std. dev. of 7 runs, 100 loops each)
