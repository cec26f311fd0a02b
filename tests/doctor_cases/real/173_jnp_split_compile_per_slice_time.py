# source: https://github.com/jax-ml/jax/issues/12999
# title: `jnp.split()` has long compile times for large numbers of splits
# established-by: maintainer jakevdp (the author, from the Stack Overflow question 74199437 he answered; closed as a duplicate of jax-ml/jax#9445)
# cause: `jnp.split` with 500 split points runs op by op outside jit and issues one static `lax.slice` per piece, and each distinct slice is compiled as its own small XLA program the first time it is seen: the first call spends about 7 s compiling 500 programs, later calls reuse them (70 ms, still one dispatch per piece). jakevdp proposes `lax.dynamic_slice`, which compiles once whatever the start index. The first `%time` measures the compilation on purpose. Neither `%time` waits for the 500 pieces it returns. Case 164 entered this thread with LB240 as its dynamic label; the split cannot be jitted with JAX-array split points (they must be concrete), so 164 was retired and entered again as 173 with LB252. Code: the two snippets, one cell each, with the outputs as posted (as comments).
# static: LB102
# dynamic: LB252
# inferred: LB102 (neither `%time` waits for the list of arrays `jnp.split` returns; not discussed), LB252 (the split points are a JAX array, `jnp.arange(0, 5000, 10)`, which `jnp.split` reads on the host to size its static slices; that read is also why the split cannot be jitted as written, so no op-by-op comparison with a jitted twin exists)
# lines: LB102:13/17
# first-sight: 7b74e08 2026-12-03 py: found LB102:13 LB102:17; missed none; false none | notebook: found LB102:13 LB102:17; missed none; false none

import jax.numpy as jnp
x = jnp.ones(5000)
%time _ = jnp.split(x, jnp.arange(0, 5000, 10))
# CPU times: user 7.29 s, sys: 101 ms, total: 7.39 s
# Wall time: 7.46 s
# %%
%time _ = jnp.split(x, jnp.arange(0, 5000, 10))
# CPU times: user 61.4 ms, sys: 0 ns, total: 61.4 ms
# Wall time: 70.3 ms
