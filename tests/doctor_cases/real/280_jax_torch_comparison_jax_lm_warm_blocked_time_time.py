# source: https://github.com/evanatyourservice/jax-torch-comparison/blob/03782b9f0f1f15de60750522669692aa68e0bc0f/jax_lm.py
# title: jax-torch-comparison `jax_lm.py`: a 24-layer Flax language model's jitted forward pass, with and without `nn.remat_scan`, warmed three times and timed over ten steps with `time.time()` and one final `jax.block_until_ready`
# established-by: maintainer evanatyourservice (the repository's JAX half of its JAX-against-PyTorch inference comparison, whose figures its README plots)
# cause: Sound timing but for its clock. The jitted `model_step` is called and waited for three times before the clock starts, so no compile is timed; the ten timed steps are queued and the last result is waited for with `jax.block_until_ready(out)` before the second clock read, which waits for all ten (they run in order); the input is a JAX array. The interval is read with `time.time()`, the wall clock (LB105; its PyTorch twin, case 281, uses CUDA events). The Python loop over `self.blocks` inside the jitted model is the unscanned variant that the script compares with `nn.remat_scan` on purpose (not labelled, as 270's deliberate loops). Code: the file as stored at commit 03782b9, unchanged.
# static: LB105
# dynamic: n/a
# inferred: LB105 (`time.time()` as the interval clock; not discussed, as for cases 202 and 207)
# lines: LB105:146
# first-sight: aea0196 2026-12-06 py: found LB105:146; missed none; false none | notebook: found LB105:146; missed none; false none

from typing import Optional
import time
from dataclasses import dataclass

import jax
import jax.numpy as jnp
from flax import linen as nn
from einops import rearrange

jax.config.update('jax_default_matmul_precision', 'tensorfloat32')  # tensorfloat32


@dataclass
class Config: vocab_size: int = 50257; max_seq_len: int = 1024; d_model: int = 1024; n_layers: int = 24; n_heads: int = 16; scan: bool = False

def create_mask(t):
    mask = jnp.tril(jnp.ones((t, t), dtype=jnp.bool))
    return mask.reshape(1, 1, t, t)

class Attention(nn.Module):
    config: Config
    
    def setup(self):
        self.n_heads, self.d_model = self.config.n_heads, self.config.d_model
        self.d_head = self.d_model // self.n_heads
        self.qkv = nn.Dense(3 * self.config.d_model, use_bias=False, kernel_init=nn.initializers.normal(0.02))
        self.out = nn.Dense(self.config.d_model, use_bias=False, kernel_init=nn.initializers.normal(0.02))
        
    def __call__(self, x: jnp.ndarray, mask: Optional[jnp.ndarray] = None) -> jnp.ndarray:
        qkv = self.qkv(x)
        q, k, v = jnp.split(qkv, 3, axis=-1)
        q, k, v = map(lambda t: rearrange(t, 'b n (h d) -> b h n d', h=self.n_heads), (q, k, v))
        attn = jnp.matmul(q, jnp.swapaxes(k, -2, -1)) / jnp.sqrt(self.d_head)
        if mask is not None:
            attn = jnp.where(mask, attn, 0.7 * jnp.finfo(attn.dtype).min)
        attn = jax.nn.softmax(attn.astype(jnp.float32), axis=-1).astype(x.dtype)
        out = jnp.matmul(attn, v)
        return self.out(rearrange(out, 'b h n d -> b n (h d)'))

class FeedForward(nn.Module):
    config: Config
    
    def setup(self):
        self.fc1 = nn.Dense(4 * self.config.d_model, use_bias=False, kernel_init=nn.initializers.normal(0.02))
        self.fc2 = nn.Dense(self.config.d_model, use_bias=False, kernel_init=nn.initializers.normal(0.02))
        
    def __call__(self, x):
        return self.fc2(nn.gelu(self.fc1(x)))

class RMSNorm(nn.Module):
    dim: int
    eps: float = 1e-6
    
    def setup(self):
        self.weight = self.param('weight', nn.initializers.ones, (self.dim,))
        
    def __call__(self, x):
        x_in = x.astype(jnp.float32)
        rms = jnp.sqrt(jnp.mean(x_in * x_in, axis=-1, keepdims=True) + self.eps)
        out = x / rms * self.weight
        return out.astype(x.dtype)

class Block(nn.Module):
    config: Config
    scanning: bool = False
    
    def setup(self):
        self.ln1 = RMSNorm(self.config.d_model)
        self.ln2 = RMSNorm(self.config.d_model)
        self.attn = Attention(self.config)
        self.ff = FeedForward(self.config)
        
    def __call__(self, x, mask=None):
        if self.scanning:
            x, mask = x
        x = x + self.attn(self.ln1(x), mask)
        x = x + self.ff(self.ln2(x))
        if self.scanning:
            return x, mask
        return x

class LM(nn.Module):
    config: Config
    
    def setup(self):
        self.tok_emb = nn.Embed(
            self.config.vocab_size,
            self.config.d_model,
            embedding_init=nn.initializers.normal(0.02),
        )
        self.pos_emb = self.param('pos_emb', nn.initializers.zeros, (1, self.config.max_seq_len, self.config.d_model))
        if self.config.scan:
            # (remat_scan only applies remat if len(lengths) > 1)
            self.blocks = nn.remat_scan(Block, lengths=(self.config.n_layers,))(self.config, True)
        else:
            self.blocks = [Block(self.config) for _ in range(self.config.n_layers)]
        self.ln_f = RMSNorm(self.config.d_model)
        self.head = nn.Dense(
            self.config.vocab_size,
            use_bias=False,
            kernel_init=nn.initializers.normal(0.02),
        )

        self.scanning = self.config.scan

    def __call__(self, idx):
        b, t = idx.shape
        mask = create_mask(t)
        x = self.tok_emb(idx) + self.pos_emb[:, :t, :]
        if self.scanning:
            x = self.blocks((x, mask))[0]
        else:
            for block in self.blocks:
                x = block(x, mask)
        return self.head(self.ln_f(x))

def benchmark_jax(batch_size=128, seq_len=512, n_layers=24, n_heads=16, d_model=1024, steps=10, warmup=3, dtype=jnp.bfloat16, scan=False):
    key = jax.random.PRNGKey(0)
    config = Config(n_layers=n_layers, n_heads=n_heads, d_model=d_model, max_seq_len=seq_len, scan=scan)
    model = LM(config)

    @jax.jit
    def model_step(variables, x):
        return model.apply(variables, x)
    
    x = jax.random.randint(key, (batch_size, seq_len), 0, config.vocab_size)
    variables = model.init(key, x)
    variables = jax.tree.map(lambda x: x.astype(dtype) if x.dtype == jnp.float32 else x, variables)
    
    n_params = sum(x.size for x in jax.tree.leaves(variables))
    print(f"Starting trial with {n_params/1e6:.1f}M parameter model...")

    for _ in range(warmup):
        model_step(variables, x).block_until_ready()
    
    start = time.time()
    for _ in range(steps):
        out = model_step(variables, x)
    out = jax.block_until_ready(out)
    end = time.time()
    
    total_time_ms = (end - start) * 1000
    return total_time_ms / steps

if __name__ == "__main__":
    print(f"JAX version: {jax.__version__}")
    print(f"Devices available: {jax.devices()}\n")
    
    batch_sizes = [32, 64, 128]

    print("Testing without scan:\n")
    for bs in batch_sizes:
        try:
            ms = benchmark_jax(
                batch_size=bs,
                seq_len=1024,
                n_layers=24,
                n_heads=16,
                d_model=1024,
                steps=10,
                warmup=3,
                scan=False
            )
            print(f"Batch size {bs}: {ms:.2f} ms per step")
        except Exception as e:
            print(f"Error with batch size {bs}: {str(e)}")

    print("\nTesting with scan:\n")
    for bs in batch_sizes:
        try:
            ms = benchmark_jax(
                batch_size=bs,
                seq_len=1024,
                n_layers=24,
                n_heads=16,
                d_model=1024,
                steps=10,
                warmup=3,
                scan=True
            )
            print(f"Batch size {bs}: {ms:.2f} ms per step")
        except Exception as e:
            print(f"Error with batch size {bs}: {str(e)}")
