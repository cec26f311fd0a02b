# source: https://github.com/lucastabelini/LaneATT/issues/73
# title: FPS test
# established-by: maintainer lucastabelini ('You are correct.'; the fix was not merged, to keep the code that produced the paper's figures, with a warning in the README offered instead)
# cause: utils/speed.py reports LaneATT's average latency and FPS from `time.time()` intervals around each forward on the GPU, with no `torch.cuda.synchronize()` before the clock stops, so the last queued work of each sample is not waited for (the issue author saw 104.24 FPS before the fix and 100.5 after, resnet34; the forward with its test parameters waits for most of its own work, so the error is small). The author also pointed at `time.time()`, an adjustable wall clock, where `time.perf_counter()` is the interval timer. The warm-up (100 forwards) is in place; the forwards run with autograd on (no `torch.no_grad()`), which the thread does not mention. Code: utils/speed.py as stored (commit 8b4cb6d), the timing loop as the issue links it (commit 2f8583b, line 52).
# static: LB116, LB105, LB112
# dynamic: n/a
# inferred: LB112 (the timed forwards record the autograd graph; not discussed)
# lines: LB116:63, LB105:62, LB112:63
# first-sight: 88e72af 2026-12-03 py: found LB105:62; missed LB112:63, LB116:63; false none | notebook: found LB105:62; missed LB112:63, LB116:63; false none

import time
import argparse

import torch
from thop import profile, clever_format

from lib.config import Config


def parse_args():
    parser = argparse.ArgumentParser(description="Tool to measure a model's speed")
    parser.add_argument("--cfg", default="config.yaml", help="Config file")
    parser.add_argument("--model_path", help="Model checkpoint path (optional)")
    parser.add_argument('--iters', default=100, type=int, help="Number of times to run the model and get the average")

    return parser.parse_args()


# torch.backends.cudnn.benchmark = True


def main():
    args = parse_args()
    cfg = Config(args.cfg)
    device = torch.device('cuda')
    model = cfg.get_model()
    model = model.to(device)
    test_parameters = cfg.get_test_parameters()
    height, width = cfg['datasets']['test']['parameters']['img_size']

    if args.model_path is not None:
        model.load_state_dict(torch.load(args.model_path)['model'])

    model.eval()

    x = torch.zeros((1, 3, height, width)).to(device) + 1

    # Benchmark MACs and params

    macs, params = profile(model, inputs=(x,))
    macs, params = clever_format([macs, params], "%.3f")
    print('MACs: {}'.format(macs))
    print('Params: {}'.format(params))

    # GPU warmup
    for _ in range(100):
        model(x)

    # Benchmark latency and FPS
    t_all = 0
    for _ in range(args.iters):
        t1 = time.time()
        model(x, **test_parameters)
        t2 = time.time()
        t_all += t2 - t1

    print('Average latency (ms): {:.2f}'.format(t_all * 1000 / args.iters))
    print('Average FPS: {:.2f}'.format(args.iters / t_all))


if __name__ == '__main__':
    main()
