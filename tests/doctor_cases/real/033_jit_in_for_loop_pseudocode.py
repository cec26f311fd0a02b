# source: https://github.com/patrick-kidger/equinox/issues/1141
# title: jax loops use
# established-by: answer by lockwo
# cause: Looping in Python over a jitted step is not the same as a lax loop, but in training scripts the step dominates so the Python loop rarely matters; the posted code is pseudocode.
# static: LB100
# dynamic: n/a
# inferred: LB100 (the `.......` placeholders do not parse)
# lines: LB100:11

def fun_name():
        .......
        .......
for _ in range(..):
    .....= jax.jit(fun_name)
