# source: https://github.com/jax-ml/jax/issues/968
# title: Generating random numbers with `jax.random.split` can be >200x slower than `np.random.normal`
# established-by: maintainer mattjj
# cause: The maintainer's fix: split and sample are fused into one jitted step, so the loop dispatches one compiled call per iteration instead of several operations.
# static: none
# dynamic: none
# inferred: none
# lines: none

from jax import jit

@jit
def split_and_sample(key):
  key, subkey = random.split(key)
  val = random.normal(subkey, shape=(3,))
  return key, val

def sample_repeatedly_with_split(key):
  for _ in range(10000):
    key, _ = split_and_sample(key)
