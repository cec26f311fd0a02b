"""A PyTorch model timed in inference mode, synchronizing CUDA when it is used."""

import time

import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 8)).to(device).eval()
x = torch.randn(32, 64, device=device)


def sync():
    if device == "cuda":
        torch.cuda.synchronize()


with torch.inference_mode():
    model(x)  # warm-up
    sync()
    times = []
    for _ in range(20):
        start = time.perf_counter()
        y = model(x)
        sync()
        times.append(time.perf_counter() - start)
print(f"min {min(times) * 1e6:.1f} us")
