# source: https://github.com/jonmorton/pytorch_jax_benchmarks/blob/54a5511f91e6446b7672b22c1a227bc0288ca114/bench.py
# title: pytorch_jax_benchmarks: Equinox ResNet-50 and self-attention training steps against `torch.compile` models, `Bench` classes timed call by call with `perf_counter` after warm-up
# established-by: maintainer jonmorton (the repository's benchmark, 'Comparing GPU performance of jax and torch.compile on some standard ML models/layers')
# cause: Correct benchmark code. Each `Bench` subclass builds its model and input once in `setup`, and `run` is one training step that waits: the JAX side blocks on the loss returned by the `eqx.filter_jit`-compiled `filter_value_and_grad`, whose gradients come out of the same compiled program, and the PyTorch side runs `loss.backward()` and then `torch.cuda.synchronize()`. `run_bench` warms up with ten calls per cycle (compiling both `filter_jit` and `torch.compile`), times 100 calls one at a time with `perf_counter`, over five cycles with a pause between, and reports the mean and standard deviation; both sides use TF32 matmuls. Code: `common.py`, `jax_benches.py`, `pytorch_benches.py` and `bench.py` as stored (commit 54a5511), one cell each; the model files (`jax_resnet.py`, `jax_transformer.py`, `pytorch_transformer.py`) dropped.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 12e883c 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

class Bench:
    def setup(self, batch_size):
        pass

    def run(self):
        pass
# %%
import equinox as eqx
import jax
from common import Bench


@eqx.filter_jit
@eqx.filter_value_and_grad(has_aux=True)
def loss_fn_with_state(model, x, state):
    pred, state = jax.vmap(
        model, in_axes=(0, None), out_axes=(0, None), axis_name="batch"
    )(
        x,
        state,
    )
    return pred.mean(), state


@eqx.filter_jit
@eqx.filter_value_and_grad
def loss_fn(model, x):
    pred = jax.vmap(model)(x)
    return pred.mean()


class JaxBench(Bench):
    pass


class Resnet50(JaxBench):
    def setup(self, batch_size):
        from jax_resnet import resnet50

        self.module = resnet50()
        self.input = jax.random.normal(
            jax.random.PRNGKey(42), (batch_size, 3, 224, 224), dtype=jax.numpy.float32
        )
        self.state = eqx.nn.State(self.module)

    def run(self):
        (val, self.state), _ = loss_fn_with_state(self.module, self.input, self.state)
        val.block_until_ready()


class SelfAttn(JaxBench):
    def __init__(self, dim, seq_len):
        self.dim = dim
        self.seq_len = seq_len

    def setup(self, batch_size):
        from jax_transformer import CausalSelfAttention

        self.module = CausalSelfAttention(jax.random.PRNGKey(0), self.dim, self.seq_len)
        self.input = jax.random.normal(
            jax.random.PRNGKey(42),
            (batch_size, self.seq_len, self.dim),
            dtype=jax.numpy.float32,
        )

    def run(self):
        val, grad = loss_fn(self.module, self.input)
        val.block_until_ready()


JAX_BENCHES = {
    "resnet50": Resnet50,
    "attn_seq1024_dim512": lambda: SelfAttn(1024, 512),
    "attn_seq2048_dim256": lambda: SelfAttn(2048, 256),
}
# %%
import torch
from common import Bench


class PytorchBench(Bench):
    def run(self):
        loss = self.run_internal()
        loss.backward()
        torch.cuda.synchronize()

    def run_internal(self):
        pass


class Resnet50(PytorchBench):
    def setup(self, batch_size):
        import torchvision

        self.module = torch.compile(torchvision.models.resnet50().to("cuda"))
        self.input = torch.randn(batch_size, 3, 224, 224).to("cuda")

    def run_internal(self):
        return self.module(self.input).mean()


class SelfAttn(PytorchBench):
    def __init__(self, dim, seq_len):
        self.dim = dim
        self.seq_len = seq_len

    def setup(self, batch_size):
        from pytorch_transformer import CausalSelfAttention

        self.module = torch.compile(
            CausalSelfAttention(self.dim, self.seq_len).to("cuda")
        )
        self.input = torch.randn(batch_size, self.seq_len, self.dim).to("cuda")

    def run_internal(self):
        return self.module(self.input).mean()


PYTORCH_BENCHES = {
    "resnet50": Resnet50,
    "attn_seq1024_dim512": lambda: SelfAttn(1024, 512),
    "attn_seq2048_dim256": lambda: SelfAttn(2048, 256),
}
# %%
import argparse
import statistics
import time

from common import Bench


def run_bench(args, bench: Bench):
    bench.setup(args.batch_size)

    timings = []

    for _ in range(args.cycles):
        for _ in range(args.warmup):
            bench.run()

        for _ in range(args.iters):
            t = time.perf_counter()
            bench.run()
            timings.append(time.perf_counter() - t)

        time.sleep(1.0)

    return statistics.mean(timings), statistics.stdev(timings)


def get_pytorch_bench(name):
    from pytorch_benches import PYTORCH_BENCHES

    return PYTORCH_BENCHES[name]()


def get_jax_bench(name):
    from jax_benches import JAX_BENCHES

    return JAX_BENCHES[name]()


def get_all_benches():
    from jax_benches import JAX_BENCHES
    from pytorch_benches import PYTORCH_BENCHES

    return list(set(JAX_BENCHES.keys()).intersection(set(PYTORCH_BENCHES.keys())))


def run(bench_name):
    ptmean, ptstd = run_bench(args, get_pytorch_bench(bench_name))
    time.sleep(2.0)
    jaxmean, jaxstd = run_bench(args, get_jax_bench(bench_name))

    print(bench_name)
    print(f"  pytorch: {ptmean * 1000:.1f}ms±{ptstd * 1000:.2f}ms")
    print(f"  jax: {jaxmean * 1000:.1f}ms±{jaxstd * 1000:.2f}ms")


def main(args):
    import torch

    # jax uses tf32 by default.
    torch.set_float32_matmul_precision("high")

    import jax

    with jax.default_matmul_precision("tensorfloat32"):
        all_benches = get_all_benches()

        if args.benches == "all":
            benches = all_benches
        else:
            benches = args.benches.split(",")

        for b in benches:
            if b not in all_benches:
                raise Exception(f"Invalid bench name '{b}'")
            time.sleep(2.0)
            run(b)


def get_argument_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("--benches", "-b", type=str, default="all")
    parser.add_argument("--warmup", "-w", default=10)
    parser.add_argument("--iters", "-i", default=100)
    parser.add_argument("--cycles", "-c", default=5)
    parser.add_argument("--batch_size", "-n", default=16)
    return parser


if __name__ == "__main__":
    args = get_argument_parser().parse_args()
    main(args)
