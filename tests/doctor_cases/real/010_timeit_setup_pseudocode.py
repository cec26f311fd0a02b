# source: https://github.com/jax-ml/jax/issues/12564
# title: Discrepancy between timeit function call vs %timiet
# established-by: maintainer jakevdp
# cause: The maintainer first noted that only the %timeit variant had a warm-up call, then judged the remaining gap expected from how %timeit and timeit() aggregate runs; the posted code is pseudocode.
# static: LB100
# dynamic: n/a
# inferred: LB100 (the markdown-style `**approach 1** :` line does not parse)
# lines: LB100:14

def fun(a,b):
  "some computation which computes results" 
  return result

**approach 1** : 
temp = lambda: fun(a, b).block_until_ready()
time = timeit(temp, setup=temp, number=N)/N   # run N number of times and take avg

**approach 2**
# warmup call 
fun(a,b).block_until_ready()
%timeit fun(a,b).block_until_ready()
