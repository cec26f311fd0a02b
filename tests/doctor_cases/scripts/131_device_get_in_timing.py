# case: real/131_device_get_in_timing.py
# form: script
# causes: LB115:16, LB103:16, LB104:16
# changed: the imports and X (not in the posted snippet) added above it: `import time`, `import jax`, `import jax.numpy as jnp`, and `X = jnp.ones((1000, 1000))`, a stand-in (the issue does not show X)
# note: LB104 is the static doctor's first-sight finding on this case, labelled here because the interval is read once and times one unwarmed call; the thread is about LB115 (the device-to-host copy inside the timing)

import time
import jax
import jax.numpy as jnp

X = jnp.ones((1000, 1000))

start = time.time()
result2 = jnp.cos(X)
jax.device_get(result2)  # Force execution completion
second_time = time.time() - start
