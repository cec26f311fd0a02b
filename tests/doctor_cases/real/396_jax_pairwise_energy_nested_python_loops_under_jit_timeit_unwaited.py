# source: https://github.com/jax-ml/jax/issues/1918
# title: Pairwise summation takes very long time: a Lennard-Jones-style total energy over 1000 points, written as two nested Python `for` loops inside an `@jit` function, timed in Colab on a TPU with `%timeit total_energy(points)`, runs for more than ten minutes
# established-by: maintainer mattjj
# cause: The reporter (oseledets) sums a pair potential over all pairs of N = 1000 points with `for i in range(N): for j in range(i):` inside `@jit def total_energy(x)` and times it with `%timeit`; the jitted code 'goes into a very long (>10 minutes) computational cycle'. jotsif answered that Python loops under `jit` are unrolled and pointed to `lax` loop primitives; mattjj agreed: 'this program is probably taking a long time to compile because those Python loops are getting unrolled yielding a large XLA program' (N(N-1)/2 = 499,500 copies of the body, each a `potential` call on one distance), expected it to be 'very fast to execute' once compiled, and suggested writing the loops with `lax` loop primitives (the rest of his reply is cut off in the stored copy). So the time is the trace and compile of the unrolled loops, LB106 at both loop lines (case 002's reading of nested Python loops under `jit`, jax-ml/jax#4436). What a correct doctor also reports, by the corpus's readings: `%timeit total_energy(points)` times calls whose result nothing waits for (LB102, case 245's reading of JAX's README `%timeit`). `%timeit` without `-n` runs calibration loops before the reported repeats, so the compile is not LB103 (case 175's reading; here it never gets that far). Code: the issue's two code blocks as posted, one `# %%` cell each (the Colab's imports are not posted: `jit`, `np` and `jax` come from it).
# static: LB106, LB102
# dynamic: n/a
# inferred: LB102 (the `%timeit` statement's result is never waited for; the thread discusses only the unrolled loops)
# lines: LB106:21/22, LB102:31
# first-sight: 9bb132d 2026-12-06 py: found LB106:21 LB106:22 LB102:31; missed none; false none | notebook: found LB106:21 LB106:22 LB102:31; missed none; false none

# %%
@jit
def potential(r):
       U = 4.*(np.power(r,-12) - np.power(r,-6))
       return U

@jit
def total_energy(x):
   E = 0.
   #need to speed up this part
   for i in range(N):                                    #To N here
     for j in range(i):
         E += potential(np.sqrt(np.sum((x[i]-x[j])**2))) #Add sum here
   return E

# %%
N = 1000
key = jax.random.PRNGKey(0)
points = jax.random.normal(key, (N,3)) +0.1

%timeit total_energy(points)
