# source: https://github.com/DingXiaoH/RepLKNet-pytorch/issues/47
# title: About large depthwise conv2d kernel speed
# established-by: answer by klae01 ('Compare time with torch.cuda.synchronize()'; the author re-timed with it, got 1.41 s against 0.19 s where both had read 0.00034 s, and closed the thread: 'solved ... thanks')
# cause: The author compared RepLKNet's implicit-GEMM depthwise kernel with `nn.Conv2d` (31x31, 1000 channels, batch 64) on the GPU by reading `time.time()` around one forward and backward of each and found both took 0.34 ms. CUDA kernels run asynchronously: the clock stopped when the work was queued, not when it finished. With `torch.cuda.synchronize()` before the clock stops, the timings became 1.41 s for `nn.Conv2d` and 0.19 s for the implicit-GEMM kernel. Each side is also a single, unwarmed sample (the first call of each module, cuDNN's algorithm choice included). Code: the snippet as posted, dedented by four spaces (its enclosing block and imports were not posted).
# static: LB116, LB104, LB105
# dynamic: none
# inferred: LB104 (one sample of one call per side; not discussed), LB105 (time.time() as the interval timer; not discussed)
# lines: LB116:18/23, LB104:18/23, LB105:17/22
# first-sight: 88e72af 2026-12-03 py: found LB105:17 LB116:18 LB105:22 LB116:23; missed LB104:18/23; false none | notebook: found LB105:17 LB116:18 LB105:22 LB116:23; missed LB104:18/23; false none

if torch.cuda.is_available():
    x = torch.randn(64, 1000, 32, 32).cuda()
    x1 = torch.randn(64, 1000, 32, 32).cuda()
    m1 = DepthWiseConv2dImplicitGEMM(1000, 31, bias=False).cuda()
    m2 = nn.Conv2d(1000, 1000, 31, padding=31// 2, bias=False, groups=1000).cuda()

    start = time.time()
    y2 = m2(x1)
    y2.mean().backward()
    end = time.time()

    start1 = time.time()
    y1 = m1(x)
    y1.mean().backward()
    end1 = time.time()


    print("time:",end-start,end1-start1)
