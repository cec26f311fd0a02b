# source: https://github.com/jax-ml/jax/blob/0302e4c34d59d353daacfe1b38a3ece551552f92/docs/notebooks/Neural_Network_and_Data_Loading.md
# title: JAX documentation notebook 'Training a Simple Neural Network, with PyTorch Data Loading': an MNIST MLP trained for 8 epochs with a jitted SGD `update` over NumPy batches from a PyTorch `DataLoader`, each epoch timed with `time.time()` and printed as 'Epoch {} in {:0.2f} sec'
# established-by: maintainer jax-ml (JAX's own tutorial notebook; no issue discusses its timing)
# cause: The one timed cell times each epoch of `params = update(params, x, y)` between two `time.time()` reads. What a correct doctor reports, by the catalogue and the corpus's readings (case 359, Flax's NNX training benchmark, and 258/279 for data loaders inside a timed epoch): `update` is jitted and never called before the loop, so the first epoch's figure holds its trace and compile (LB103, at the call in the loop); the clock stops right after the last `update` is dispatched, before anything reads `params` (the accuracy calls come after `epoch_time` is taken), so the last steps can fall outside each epoch's figure (LB102, at the call); and the interval clock is `time.time()` (LB105, at the start read). The epoch figure is printed on every pass of the epoch loop (no LB104, the reading of case 223). The NumPy batches come from the PyTorch loader inside the timed epoch, part of the end-to-end epoch the page reports (no LB115, the reading of 258 and 279), and the eager `one_hot` of each batch's labels is bookkeeping beside one compiled step (no LB114, the reading of 336). Code: the notebook's code cells at commit 0302e4c in order, one `# %%` cell each (MyST `{code-cell}` blocks; the markdown left out).
# static: LB103, LB102, LB105
# dynamic: n/a
# inferred: LB103 (no warm-up call of `update` before the first timed epoch; not discussed), LB102 (the epoch clock stops with the last update unwaited; not discussed), LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB103:152, LB102:152, LB105:149
# first-sight: c16c112 2026-12-06 py: found LB105:149 LB102:152 LB103:152; missed none; false none | notebook: found LB105:149 LB102:152 LB103:152; missed none; false none

# %%
import jax.numpy as jnp
from jax import grad, jit, vmap
from jax import random

# %%
# A helper function to randomly initialize weights and biases
# for a dense neural network layer
def random_layer_params(m, n, key, scale=1e-2):
  w_key, b_key = random.split(key)
  return scale * random.normal(w_key, (n, m)), scale * random.normal(b_key, (n,))

# Initialize all layers for a fully-connected neural network with sizes "sizes"
def init_network_params(sizes, key):
  keys = random.split(key, len(sizes))
  return [random_layer_params(m, n, k) for m, n, k in zip(sizes[:-1], sizes[1:], keys)]

layer_sizes = [784, 512, 512, 10]
step_size = 0.01
num_epochs = 8
batch_size = 128
n_targets = 10
params = init_network_params(layer_sizes, random.key(0))

# %%
from jax.scipy.special import logsumexp

def relu(x):
  return jnp.maximum(0, x)

def predict(params, image):
  # per-example predictions
  activations = image
  for w, b in params[:-1]:
    outputs = jnp.dot(w, activations) + b
    activations = relu(outputs)
  
  final_w, final_b = params[-1]
  logits = jnp.dot(final_w, activations) + final_b
  return logits - logsumexp(logits)

# %%
# This works on single examples
random_flattened_image = random.normal(random.key(1), (28 * 28,))
preds = predict(params, random_flattened_image)
print(preds.shape)

# %%
# Doesn't work with a batch
random_flattened_images = random.normal(random.key(1), (10, 28 * 28))
try:
  preds = predict(params, random_flattened_images)
except TypeError:
  print('Invalid shapes!')

# %%
# Let's upgrade it to handle batches using `vmap`

# Make a batched version of the `predict` function
batched_predict = vmap(predict, in_axes=(None, 0))

# `batched_predict` has the same call signature as `predict`
batched_preds = batched_predict(params, random_flattened_images)
print(batched_preds.shape)

# %%
def one_hot(x, k, dtype=jnp.float32):
  """Create a one-hot encoding of x of size k."""
  return jnp.array(x[:, None] == jnp.arange(k), dtype)
  
def accuracy(params, images, targets):
  target_class = jnp.argmax(targets, axis=1)
  predicted_class = jnp.argmax(batched_predict(params, images), axis=1)
  return jnp.mean(predicted_class == target_class)

def loss(params, images, targets):
  preds = batched_predict(params, images)
  return -jnp.mean(preds * targets)

@jit
def update(params, x, y):
  grads = grad(loss)(params, x, y)
  return [(w - step_size * dw, b - step_size * db)
          for (w, b), (dw, db) in zip(params, grads)]

# %%
!pip install torch torchvision

# %%
import numpy as np
from jax.tree_util import tree_map
from torch.utils import data
from torchvision.datasets import MNIST

def numpy_collate(batch):
  return tree_map(np.asarray, data.default_collate(batch))

class NumpyLoader(data.DataLoader):
  def __init__(self, dataset, batch_size=1,
                shuffle=False, sampler=None,
                batch_sampler=None, num_workers=0,
                pin_memory=False, drop_last=False,
                timeout=0, worker_init_fn=None):
    super(self.__class__, self).__init__(dataset,
        batch_size=batch_size,
        shuffle=shuffle,
        sampler=sampler,
        batch_sampler=batch_sampler,
        num_workers=num_workers,
        collate_fn=numpy_collate,
        pin_memory=pin_memory,
        drop_last=drop_last,
        timeout=timeout,
        worker_init_fn=worker_init_fn)

class FlattenAndCast(object):
  def __call__(self, pic):
    return np.ravel(np.array(pic, dtype=jnp.float32))

# %%
# Define our dataset, using torch datasets
mnist_dataset = MNIST('/tmp/mnist/', download=True, transform=FlattenAndCast())
training_generator = NumpyLoader(mnist_dataset, batch_size=batch_size, num_workers=0)

# %%
# Get the full train dataset (for checking accuracy while training)
train_images = np.array(mnist_dataset.train_data).reshape(len(mnist_dataset.train_data), -1)
train_labels = one_hot(np.array(mnist_dataset.train_labels), n_targets)

# Get full test dataset
mnist_dataset_test = MNIST('/tmp/mnist/', download=True, train=False)
test_images = jnp.array(mnist_dataset_test.test_data.numpy().reshape(len(mnist_dataset_test.test_data), -1), dtype=jnp.float32)
test_labels = one_hot(np.array(mnist_dataset_test.test_labels), n_targets)

# %%
import time

for epoch in range(num_epochs):
  start_time = time.time()
  for x, y in training_generator:
    y = one_hot(y, n_targets)
    params = update(params, x, y)
  epoch_time = time.time() - start_time

  train_acc = accuracy(params, train_images, train_labels)
  test_acc = accuracy(params, test_images, test_labels)
  print("Epoch {} in {:0.2f} sec".format(epoch, epoch_time))
  print("Training set accuracy {}".format(train_acc))
  print("Test set accuracy {}".format(test_acc))
