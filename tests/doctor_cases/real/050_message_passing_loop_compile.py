# source: https://github.com/jax-ml/jax/issues/200
# title: report: jit-compilation on list of matrices
# established-by: maintainer mattjj
# cause: Under jit the Python loop over 5000+ (A, F) pairs is unrolled into one huge graph, and XLA's whole-program optimisation of it took 3 hours to compile; later calls took milliseconds. The issue shows the function only, without the jit.
# static: none
# dynamic: LB202
# inferred: none
# lines: none
# first-sight: 43b52af 2026-12-02 py: found none; missed none; false none | notebook: found none; missed none; false none

def identity(x):
    return x

def mp(params, As, Fs, nonlin=identity):
    """my hack for doing message passing on multiple graphs in one logical forward computation step."""
    outputs = []
    for a, f in zip(As, Fs):
        output = np.dot(a, f)
        output = np.dot(params['w'], output) + params['b']
        output = nonlin(output)
        outputs.append(output)
    return outputs
