# source: https://github.com/michaelontiveros/poppy/blob/59228818d11f0529cf0158593919a251a5d6abd1/timing.ipynb
# title: poppy's `timing.ipynb`: linear algebra over a finite field of order 12421^3 in JAX, nine operations on a batch of two 10x10 matrices (projection, sum, trace, scalar product, matrix product, LU, blocked LU, inverse, determinant) each timed with `%timeit` of the call followed by `.lift()` where needed and `.block_until_ready()`, in one cell
# established-by: maintainer michaelontiveros (the library's author; the notebook's saved outputs give each operation's mean and spread, from 17.9 µs for the projection to 20.5 ms for the determinant; no issue discusses the notebook's timing)
# cause: Correct for what the catalogue checks. Every `%timeit` line ends its statement with `.block_until_ready()` on the JAX array the operation returns (through `.lift()` or `[0]` where the operation returns a field array or a tuple), so each sample waits for the device work (no LB102); `%timeit` runs without `-n` and calibrates its loop count before it samples, so a first call's trace and compile do not stand in the reported mean (no LB103, the catalogue's reading of `%timeit` without `-n`); the operands are made by `poppy.random` before the timing cell, with nothing copied from the host inside the timed statements (no LB115). What `proj`, `lift`, `lu` or `det` dispatch inside the library is in poppy, not in this notebook, and no Python loop of the notebook's own dispatches JAX work (no LB114, 476's reading of code not shown). A correct doctor stays quiet. Code: the notebook at commit 5922881, its three code cells as `# %%` cells and their outputs dropped.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 0b61823 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

# %%
import poppy

# %%
p = 12421
n = 3
q = p ** n
f = poppy.field(p,n)
d = 10
a = poppy.random((2,d,d),f,poppy.SEED)
b = poppy.random((2,d,d),f,poppy.SEED)
c = poppy.random(1,f,poppy.SEED)
a, b, c

# %%
print('proj')
%timeit a.proj().block_until_ready()
print('add')
%timeit (a+b).lift().block_until_ready()
print('trace')
%timeit a.trace().lift().block_until_ready()
print('multiply')
%timeit (a*c).lift().block_until_ready()
print('matmul')
%timeit (a@b).lift().block_until_ready()
print('lu')
%timeit a.lu()[0].block_until_ready()
print('lu_block')
%timeit a.lu_block()[0].block_until_ready()
print('inv')
%timeit a.inv().lift().block_until_ready()
print('det')
%timeit a.det().lift().block_until_ready()
