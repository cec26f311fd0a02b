# source: https://github.com/google-deepmind/mujoco/issues/1273
# title: How to debug efficiently in MJX
# established-by: maintainer (MJX team; the answer, as quoted in google-deepmind/mujoco#2441: develop in MuJoCo and train in MJX until tools that AOT-compile or cache the JIT output land, 'so that you can rapidly develop in MJX without waiting for JIT every time you restart your process'); the second compilation established by the author of google-deepmind/mujoco#2306 (amacati) from the jitted function's cache size
# cause: The roughly 80 seconds of each of the first two iterations are compilation, not simulation: the loop times the first call of `jax.jit(mjx.forward)`, which traces and compiles it, and the second call compiles again because the data returned by `mjx.forward` has a strongly typed `time` field where the `device_put` input's was weak (mujoco#2306: the cache size grows to two at step 2, and promoting `time` to a strong type before the loop leaves one compilation). The later iterations are also never waited for: each call returns as soon as the work is queued and the next iteration passes the unfinished `mjx_data` on, so their 0.08 s is dispatch time. Code: the snippet as posted (no imports).
# static: LB103, LB102, LB105
# dynamic: n/a
# inferred: LB102 (no iteration waits for forward_jit's result; the thread did not discuss it), LB105 (time.time() as the interval clock; not discussed)
# lines: LB103:21, LB102:21, LB105:20
# first-sight: cfe09ac 2026-12-03 py: found LB105:20 LB102:21 LB103:21; missed none; false none | notebook: found LB105:20 LB102:21 LB103:21; missed none; false none

model = mujoco.MjModel.from_xml_path("assets/robotiq_2f85/scene.xml")
data = mujoco.MjData(model)
renderer = mujoco.Renderer(model)

mjx_model = mjx.device_put(model)
mjx_data = mjx.device_put(data)
forward_jit = jax.jit(mjx.forward)

for i in range(10):
  tik = time.time()
  mjx_data = forward_jit(mjx_model, mjx_data)
  tok = time.time()
  print(i, tok - tik)
