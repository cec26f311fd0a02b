# source: https://github.com/pytorch/pytorch/issues/24318
# title: When I apply tensor.cpu(), it spent 3 seconds ! Why is it so slow???
# established-by: answer by vadimkantorov (the issue was triaged and closed on it)
# cause: GPU computation is asynchronous: `model(img.unsqueeze(0))` returns once its kernels are queued, so 'time2' (0.002 s) times the launch, and the forward pass is then waited for inside 'time3', where `torch.cuda.synchronize()` and the copy to the host make the copy look like it costs 3 s; the answer: synchronize before reading the clock, 'GPU computation is asynchronous in many cases, and likely you are just waiting for' the model. Code: the snippet, dedented out of the loop it was posted in (`transform`, `image`, `model` and `Image` are defined elsewhere in the reporter's script).
# static: LB116, LB105, LB104
# dynamic: n/a
# inferred: LB105 (time.time() as the interval clock; the answer did not discuss it), LB104 (each printed figure is one time.time() sample; the answer did not discuss it)
# lines: LB116:17, LB105:11/16/21, LB104:12/17/22/23
# first-sight: c3b020c 2026-12-02 py: found LB105:11 LB105:16; missed LB104:12/17/22/23, LB116:17; false none | notebook: found LB105:11 LB105:16; missed LB104:12/17/22/23, LB116:17; false none

time_start = time.time()
img = transform(Image.fromarray(image).convert('RGB')).cuda() # 0.05s
time_end = time.time()
print("time1: {}".format(time_end - time_start))

time_start = time.time()
output = model(img.unsqueeze(0)) # 0.002s
time_end = time.time()
print("time2: {}".format(time_end - time_start))

time_start = time.time()
torch.cuda.synchronize()
density_map = output.data.cpu().numpy() # 3s!!!
time_end = time.time()
print("time3: {}".format(time_end - time_start))
