# source: https://github.com/ayaka14732/llama-2-jax/blob/b6721d8e94e2c1d0b92a54c84ddbf9fcf4c3c4b5/benchmark_jax.py
# title: llama-2-jax `benchmark_jax.py`: batched Llama 2 7B text generation on a TPU slice, five 'preheating' runs, then `timeit.timeit(..., number=10)` of the whole `generate` call, which returns decoded strings
# established-by: maintainer ayaka14732 (the repository's JAX generation benchmark)
# cause: Correct benchmark code. The five untimed 'Preheating' calls compile both jitted stages of `lib.generation.generate` (`_generate_first` and `_generate_rest`, whose static `logits_processor` is the one object built once in `main`, so the timed calls hit the same cache entries), and the timed call waits for its work by construction: `generate` ends with `tokenizer.batch_decode(seq, ...)`, a host read of the generated token ids, so each timed run holds the device work (the tokenization and decoding on the host are part of the end-to-end generation time the script reports). The figure is the total of ten runs printed as such, not a single sample. `jax.tree_map` in the untimed parameter loading is an API later removed from JAX, which no timing rule covers (LB113 judges imports). No issue discusses the file; the reading is the catalogue's. Code: the file as stored at commit b6721d8, unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 0228b9c 2026-12-06 py: found none; missed none; false LB102:60 | notebook: found none; missed none; false LB102:60

from lib.proc_init_utils import initialise_tpu; initialise_tpu('v3-32', n_devices=8)

import jax
import jax.numpy as jnp
import jax.random as rand
import timeit
from transformers import LlamaTokenizer

from lib.generation import generate
from lib.llama import Llama
from lib.logits_processing import PresencePenaltyProcessor, TopKSampler, make_logits_processor
from lib.param_utils import load_params
from lib.multihost_utils import shard_model_params
from lib.seeding import BEST_INTEGER

def load_params_from_disk() -> Llama:
    cpu_device = jax.devices('cpu')[0]
    with jax.default_device(cpu_device):
        params = load_params('llama2-7B.pickle')
        params = jax.tree_map(lambda x: x.astype(jnp.bfloat16), params)
    params = shard_model_params(params)
    return params

def generate_jax(params, tokenizer, logits_processor, max_len, key):
    sentences = ['Four score and seven years ago our fathers'] * 30 + ['Marta is a Syriac student. Aday asks her: ‘Why do you want to learn Surayt?’'] * 30
    key, subkey = rand.split(key)
    generated_sentences = generate(sentences, tokenizer, params, logits_processor, max_len=max_len, key=subkey)
    return generated_sentences

def main():
    top_k = 6
    max_len = 256

    params = load_params_from_disk()
    print('Successfully loaded model parameters!')

    key = rand.key(BEST_INTEGER, impl='rbg')
    tokenizer = LlamaTokenizer.from_pretrained('meta-llama/Llama-2-7b-hf', padding_side='left')
    tokenizer.pad_token = tokenizer.eos_token

    logits_processor = make_logits_processor(
        TopKSampler(top_k=top_k),
    )

    # Preheating
    for _ in range(5):
        generate_jax(params, tokenizer, logits_processor, max_len, key)

    # Benchmarking
    exec_time = timeit.timeit(lambda: generate_jax(params, tokenizer, logits_processor, max_len, key), number=10)
    print(f"Time taken for 10 executions of generate_jax: {exec_time:.5f} seconds")

if __name__ == '__main__':
    main()
