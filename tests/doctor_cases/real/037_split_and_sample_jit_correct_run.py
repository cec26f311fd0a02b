# source: https://github.com/jax-ml/jax/issues/968
# explain: split_and_sample
# dynamic: none
# Runnable copy of 037_split_and_sample_jit_correct.py for levelbench.explain: smallest sizes that keep the pattern.

from jax import jit, random


@jit
def split_and_sample(key):
  key, subkey = random.split(key)
  val = random.normal(subkey, shape=(3,))
  return key, val


def split_and_sample_args():
    return (random.PRNGKey(0),)
