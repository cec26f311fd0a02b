# source: https://pytorch.org/tutorials/intermediate/ensembling.html
# title: PyTorch tutorial 'Model ensembling': ten MLPs' predictions on CUDA from a Python loop of `model(minibatch)` calls against `torch.vmap(fmodel)` over `stack_module_state` parameters, each timed with `torch.utils.benchmark.Timer(stmt=...).timeit(100)`, 'There's a large speedup using vmap!'
# established-by: maintainer pytorch (the PyTorch tutorials' own page, read whole from its source `intermediate_source/ensembling.py` in pytorch/tutorials at 1dc22df; no issue discusses its timing)
# cause: The clocking is sound (`torch.utils.benchmark.Timer` synchronizes CUDA around its clock reads and `timeit(100)` runs warm-up iterations first, the reading of 093 and 403), but what it times is inference with autograd on. What a correct doctor reports, by the catalogue and the corpus's readings: both timed statements run the models' forward pass outside `torch.no_grad()` / `torch.inference_mode()`, the loop calling each `nn.Module` whose parameters require grad and the `vmap` path calling `functional_call` with the stacked parameters `stack_module_state` returns as new leaves that require grad, so every timed run records an autograd graph for a backward pass that never comes (LB112, the catalogue's 'A PyTorch model is called in a timed region without torch.no_grad()', the reading of 085, 209 and 271; the finding belongs at the timed statements, the `Timer(stmt=...)` strings and the `.timeit(100)` calls that run them). Both sides pay the recording, so the speedup's direction likely stands, but neither figure is an inference time. Not labelled: the Python loop over ten models is the deliberate baseline (a PyTorch loop, not LB114); `vmap(fmodel)` rebuilt inside the timed statement is a cheap torch wrapper (LB111 is JAX's jit cache). Trimmed: the module docstring and most of the explanatory comment blocks.
# static: LB112
# dynamic: n/a
# inferred: LB112 (forward passes timed with autograd recording on; not discussed in the tutorial)
# lines: LB112:98/99/101/102/104/105
# first-sight: fb4008d 2026-12-06 py: found none; missed LB112:98/99/101/102/104/105; false none | notebook: found none; missed LB112:98/99/101/102/104/105; false none

import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)

# Here's a simple MLP
class SimpleMLP(nn.Module):
    def __init__(self):
        super(SimpleMLP, self).__init__()
        self.fc1 = nn.Linear(784, 128)
        self.fc2 = nn.Linear(128, 128)
        self.fc3 = nn.Linear(128, 10)

    def forward(self, x):
        x = x.flatten(1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.fc2(x)
        x = F.relu(x)
        x = self.fc3(x)
        return x

######################################################################
# Let’s generate a batch of dummy data and pretend that we’re working with
# an MNIST dataset. Thus, the dummy images are 28 by 28, and we have a
# minibatch of size 64. Furthermore, lets say we want to combine the predictions
# from 10 different models.

device = 'cuda'
num_models = 10

data = torch.randn(100, 64, 1, 28, 28, device=device)
targets = torch.randint(10, (6400,), device=device)

models = [SimpleMLP().to(device) for _ in range(num_models)]

######################################################################
# Option 1: different minibatch for each model

minibatches = data[:num_models]
predictions_diff_minibatch_loop = [model(minibatch) for model, minibatch in zip(models, minibatches)]

######################################################################
# Option 2: Same minibatch

minibatch = data[0]
predictions2 = [model(minibatch) for model in models]

######################################################################
# Using vmap to vectorize the ensemble
# ------------------------------------
from torch.func import stack_module_state

params, buffers = stack_module_state(models)

from torch.func import functional_call
import copy

# Construct a "stateless" version of one of the models. It is "stateless" in
# the sense that the parameters are meta Tensors and do not have storage.
base_model = copy.deepcopy(models[0])
base_model = base_model.to('meta')

def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))

print([p.size(0) for p in params.values()]) # show the leading 'num_models' dimension

assert minibatches.shape == (num_models, 64, 1, 28, 28) # verify minibatch has leading dimension of size 'num_models'

from torch import vmap

predictions1_vmap = vmap(fmodel)(params, buffers, minibatches)

# verify the vmap predictions match the
assert torch.allclose(predictions1_vmap, torch.stack(predictions_diff_minibatch_loop), atol=1e-3, rtol=1e-5)

predictions2_vmap = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)

assert torch.allclose(predictions2_vmap, torch.stack(predictions2), atol=1e-3, rtol=1e-5)

######################################################################
# Performance
# -----------
# Curious about performance numbers? Here's how the numbers look.

from torch.utils.benchmark import Timer
without_vmap = Timer(
    stmt="[model(minibatch) for model, minibatch in zip(models, minibatches)]",
    globals=globals())
with_vmap = Timer(
    stmt="vmap(fmodel)(params, buffers, minibatches)",
    globals=globals())
print(f'Predictions without vmap {without_vmap.timeit(100)}')
print(f'Predictions with vmap {with_vmap.timeit(100)}')
