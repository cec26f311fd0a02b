# source: https://github.com/jax-ml/jax/issues/919
# title: Array creation and concatenation time super-linear in number of elements on CPU
# established-by: answer by the author j-towns (his profile of the 10,000-element creation: the compilation of a concatenate op is the bottleneck; his own second loop, run on the sizes already compiled, is linear)
# cause: The first time JAX builds an array of a given size from a Python list, it traced and compiled a concatenate of the list's elements, and that compile grew super-linearly with the length; execution without compilation was linear. The first loop times each size once, from cold, so each sample is mostly that one-time compile (the author's "Including compilation"); the second loop repeats the same sizes, now compiled. Beyond the thread: each timing reads `time.time()` around a call whose JAX result is never waited for, one sample per size, and converts a host-side Python list to a device array inside the timing. Code: the reproduction as stored, cut off in the stored copy at the plotting lines.
# static: LB115, LB104, LB102, LB105
# dynamic: n/a
# inferred: LB115 (each timed statement copies a host-side Python list to the device, the work the issue is about, as in case 078); LB104 (one sample per size in both loops; in the first it is cold and carries the compile, which is the thread's point); LB102 (the array the timed statement returns is never waited for; not discussed); LB105 (`time.time()` as the timer; not discussed)
# lines: LB115:21/28, LB104:21/28, LB102:21/28, LB105:20/27
# first-sight: eec90bb 2026-12-03 py: found LB105:20 LB104:21 LB115:21 LB105:27 LB104:28 LB115:28; missed LB102:21/28; false none | notebook: found LB105:20 LB104:21 LB115:21 LB105:27 LB104:28 LB115:28; missed LB102:21/28; false none

import jax.numpy as np
import matplotlib.pyplot as plt
import time

sizes = [32, 64, 128, 256, 512, 1024, 2048, 4096, 8192]
ts = []

# Including compilation
for s in sizes:
    t0 = time.time()
    np.array(list(range(s)))
    ts.append(time.time() - t0)

ts_ = []
# Excluding compilation
for s in sizes:
    t0 = time.time()
    np.array(list(range(s)))
    ts_.append(time.time() - t0)
