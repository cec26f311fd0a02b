# source: https://github.com/pytorch/pytorch/issues/121603
# title: Linalg.eigh has a much faster computation speed in Numpy than in pytorch
# established-by: maintainer albanD (closed as a duplicate of pytorch/pytorch#121482, 'since it is also considering 3x3 matrices')
# cause: The input is a batch of 6241 matrices of 3 x 3 (the author's follow-up), a known slow case of CUDA `torch.linalg.eigh` tracked in pytorch/pytorch#121482, so NumPy on the CPU wins. The CUDA figure is not missing its GPU work: `torch.linalg.eigh` synchronizes the device with the CPU when its input is on CUDA (its documentation says so), so no `torch.cuda.synchronize()` is needed and none is labelled. Each side is one `time.time()` sample of one call, the CUDA one the first eigh on the device. Code: the snippet as posted (no imports; `cov_matrix` comes from the author's program).
# static: LB105, LB104
# dynamic: n/a
# inferred: LB105 (time.time() as the interval clock; not discussed), LB104 (each figure is one sample of one call; not discussed)
# lines: LB105:11/16, LB104:12/17
# first-sight: 7b74e08 2026-12-03 py: found LB105:11 LB104:12 LB105:16 LB104:17; missed none; false LB116:17 | notebook: found LB105:11 LB104:12 LB105:16 LB104:17; missed none; false LB116:17

start = time.time()
_, eigenvectors = np.linalg.eigh(cov_matrix)
print(round(time.time() - start, 5))  # 0.006s

cov_matrix2 = torch.from_numpy(cov_matrix).cuda()
start = time.time()
_, eigenvectors = torch.linalg.eigh(cov_matrix2)
print(round(time.time() - start, 5))  # 0.04s
