# source: https://github.com/yun-liu/FastSaliency/issues/1
# title: Confusion about FPS: the repository's test script reports 'takes 0.050s per image' on a 3090 GPU, far from the paper's speed; the author answers that the speed counts network inference only and posts the `computeTime` helper to measure it
# established-by: maintainer yun-liu (the repository's author: the paper's speed is the network's inference time alone, excluding data loading, data preparation and result saving, which depend on the CPU and the disk; 'please only test the network inference time! You can use some code like this')
# cause: The author's helper is the fix the thread established for a per-image figure that timed loading, preprocessing and saving with the forward pass: `computeTime` builds one random batch of 30 images on the device before the loop, runs the model 100 times under `torch.no_grad()` in eval mode, calls `torch.cuda.synchronize()` before each closing clock read, and averages only iterations 11 to 99, the first eleven serving as warm-up. Its one remaining fault is the clock: each interval is read with `time.time()`, the wall clock (LB105 at the start read, the corpus's reading of otherwise sound timing on `time.time()`, cases 202, 207 and 280). The per-iteration sample is kept in a list and averaged, not printed one by one, and the warm-up iterations are left out of the mean, so no LB104 or LB103; the previous iteration's synchronize covers the start of the next interval, so no LB116. Code: the comment's snippet as stored, which is cut off after `torch.backends.cudnn.benchmark = True` (the stored copy ends in the middle of the next line, an import from `Models.SAMNet`, so the model and the call to `computeTime` are not stored); the cut-off line is left out.
# static: LB105
# dynamic: n/a
# inferred: LB105 (`time.time()` as the clock; not discussed in the thread)
# lines: LB105:25
# first-sight: f5b8aeb 2026-12-06 py: found none; missed LB105:25; false none | notebook: found none; missed LB105:25; false none

import numpy as np
import torch
import time

def computeTime(model, device='cuda'):
    inputs = torch.randn(30, 3, 336, 336)
    if device == 'cuda':
        model = model.cuda()
        inputs = inputs.cuda()

    model.eval()

    time_spent = []
    for idx in range(100):
        start_time = time.time()
        with torch.no_grad():
            _ = model(inputs)

        if device == 'cuda':
            torch.cuda.synchronize()  # wait for cuda to finish (cuda is asynchronous!)
        if idx > 10:
            time_spent.append(time.time() - start_time)
    print('Average speed: {:.4f} fps'.format(30 / np.mean(time_spent)))

torch.backends.cudnn.benchmark = True
