# source: https://github.com/NVIDIA-AI-IOT/torch2trt/issues/471
# title: Speed reduced due to torch.cuda.synchronize()
# established-by: maintainer jaybdub
# cause: GPU work is asynchronous, so the first snippet timed only the launch; the synchronised snippet measures the real inference time, which is why adding synchronize looked slower.
# static: LB116, LB105
# dynamic: n/a
# inferred: LB105 (time.time())
# lines: LB116:11, LB105:10/15

start=time.time()
f1,f2,f3,f4,fp,o1,o2,o3,o4,o5,b1,b2,b3,b4,b5= backbone_trt(images.tensors)
end=time.time()
# %%
torch.cuda.synchronize()
start=time.time()
f1,f2,f3,f4,fp,o1,o2,o3,o4,o5,b1,b2,b3,b4,b5= backbone_trt(images.tensors)
torch.cuda.synchronize()
end=time.time()
