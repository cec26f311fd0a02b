# source: https://github.com/hartikainen/mujoco/blob/b5c8a7585378c7ee2253ababb8f60ac4e4551edc/slow_jax.py
# title: hartikainen's `slow_jax.py`, the reproduction script of google-deepmind/mujoco#2957 ('MJX on MacOS is >100x slower on `jax>=0.7` than on `jax<0.7`'): a jitted `mjx.kinematics` compiled and warmed outside the clock, then 100 calls, each waited on `dx.qpos`, timed as one `time.time()` interval
# established-by: maintainer hartikainen (the owner of the fork holding the script and the author; he handed the regression on to jax-ml/jax#33761; no reply about the timing method could be read here)
# cause: The issue reports 0.18 ms per `mjx.kinematics` call on CPU with jax 0.6.2 and about 408 ms with jax 0.8.1 on macOS, a change in JAX's CPU runtime that the timing method does not cause. What a correct doctor reports on the script, by the catalogue: the compile is the first call, outside the clock, and two warm-up calls follow (no LB103); the 100 calls are one interval divided by N (no LB104), each followed by `block_until_ready`; but the interval is read with `time.time()`, the wall clock (LB105, at the start read). Noted, not labelled: the wait is on `dx.qpos`, a field `mjx.kinematics` passes through unchanged; where jit forwards an unchanged input to its output, that leaf is ready before the call's work is done, and only the next call's use of `dx` orders the loop (a static doctor cannot tell which field a library function computes). Code: the file at commit b5c8a75 (the version with N = 100 whose output the issue quotes; an earlier commit has N = 10), unchanged.
# static: LB105
# dynamic: n/a
# inferred: LB105 (the wall clock as the interval clock; not discussed in the thread)
# lines: LB105:63
# first-sight: fb4008d 2026-12-06 py: found LB105:63; missed none; false none | notebook: found LB105:63; missed none; false none

import time
import jax
import mujoco
from mujoco import mjx
import numpy as np

# Create a chain of bodies with many geoms and sites
xml = "<mujoco>\n"
xml += "  <worldbody>\n"
xml += '    <body name="0" pos="0 0 0">\n'
xml += '      <joint type="free"/>\n'
xml += '      <geom size="0.1"/>\n'

depth = 9  # > 20 joints
geoms_per_body = 1
sites_per_body = 1

for i in range(1, depth):
    xml += f'      <body name="{i}" pos="0.1 0 0">\n'
    xml += '        <joint type="hinge"/>\n'
    xml += '        <geom size="0.1"/>\n'
    for j in range(geoms_per_body):
        xml += f'        <geom size="0.01" pos="0 {j*0.01} 0"/>\n'
    for j in range(sites_per_body):
        xml += f'        <site name="s_{i}_{j}" pos="0 0 {j*0.01}"/>\n'

for i in range(depth):
    xml += "    </body>"

xml += "\n  </worldbody>\n"
xml += "</mujoco>\n"

m = mujoco.MjModel.from_xml_string(xml)
d = mujoco.MjData(m)
mx = mjx.put_model(m)
dx = mjx.put_data(m, d)

print(f"Running benchmark with {depth} bodies, {m.ngeom} geoms, {m.nsite} sites on {jax.default_backend()}")

# Compile
kinematics_jit = jax.jit(mjx.kinematics)
dx = kinematics_jit(mx, dx)
dx.qpos.block_until_ready()
print("Compiled.")

# Warmup just in case
for _ in range(2):
    dx = kinematics_jit(mx, dx)
    dx.qpos.block_until_ready()
    
# Benchmark
N = 100
start = time.time()
for _ in range(N):
    dx = kinematics_jit(mx, dx)
    dx.qpos.block_until_ready()
end = time.time()

print(f"Time for {N} iterations: {end - start:.4f}s")
print(f"Avg time: {(end - start)/N*1000:.4f}ms")
