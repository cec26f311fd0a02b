# source: https://discuss.pytorch.org/t/why-cant-self-defined-layers-run-on-gpus/96803
# title: Why can't self-defined layers run on GPUs?
# established-by: answer by ptrblck ('Custom layers can run on the GPU. However, since CUDA operations are asynchronous, you would have to synchronize the code via torch.cuda.synchronize() before starting and stopping the timer.')
# cause: The poster timed a self-defined transformation layer (`self.Rconv2d`) inside the model's `forward` with `time.time()`, once around that layer and once around the whole forward, on the GPU, and concluded from the two readings that the layer took 99.9% of the model's time and could not be running on the GPU. CUDA operations are asynchronous: without `torch.cuda.synchronize()` before the clock starts and before it stops, each reading is the time to queue the work plus whatever earlier work the host happened to wait for, so the split between the layer and the rest of the model says nothing about where the GPU time goes. Code: the forward method as posted; the forum copy lost its indentation, restored here by four spaces a level (the layer's and the model's definitions were not in the stored text).
# static: LB116, LB105
# dynamic: n/a
# inferred: LB105 (time.time() as the interval timer; not discussed)
# lines: LB116:13, LB105:12
# first-sight: 88e72af 2026-12-03 py: found none; missed LB105:12, LB116:13; false none | notebook: found none; missed LB105:12, LB116:13; false none

def forward( self, x ):
    start = time.time()
    out = self.Rconv2d( x )
    cost = time.time()-start
    out = self.maxpool1( out )
    out = self.block1( out )
    out = self.block2( out )
    out = self.block3( out )
    out = F.avg_pool2d( out, 7 )
    out = out.view( out.size(0), -1 )
    out = self.out_layer( out )
    total_cost = time.time()-start
