# source: https://github.com/facebookresearch/dinov2/issues/250
# title: Unusual Inference Time Behavior with GPU Usage
# established-by: answer by qasfb (the issue was closed on it)
# cause: CUDA work is asynchronous: in the first timing the DINOv2 forward pass returns as soon as its kernels are queued, so `time.time() - t` (0.05 s) measures the launch, not the inference. In the second timing the extra `torch.randn(1).cuda()` copies to the device and waits for the queued forward pass first, so its 0.39 s is the real cost of the inference; the answer: 'gpu calls are asynchronous so python gets control immediately after calling model inference'. Both timings also create the input on the host and copy it to the device inside the timed region. Code: the three snippets as posted (one cell each; the first was posted inline, and no snippet imports torch).
# static: LB116, LB105, LB104
# dynamic: n/a
# inferred: LB105 (time.time() as the interval clock; the answer did not discuss it), LB104 (each cell's figure is one time.time() sample of one forward pass; the answer did not discuss it)
# lines: LB116:16, LB105:14/20, LB104:15/16/21/22
# first-sight: c3b020c 2026-12-02 py: found LB105:14 LB104:15 LB116:16 LB105:20 LB104:21; missed none; false LB116:23 | notebook: found LB105:14 LB104:15 LB116:16 LB105:20 LB104:21; missed none; false LB116:23

image_encoder = torch.hub.load('facebookresearch/dinov2', 'dinov2_vitb14').cuda().eval()
# %%
import time
t = time.time()
with torch.no_grad():
    mask_features = image_encoder(torch.randn(20,3,224,224).cuda())
time.time() - t
# %%
import time
t = time.time()
with torch.no_grad():
    mask_features = image_encoder(torch.randn(20,3,224,224).cuda())
x = torch.randn(1).cuda()
time.time() - t
