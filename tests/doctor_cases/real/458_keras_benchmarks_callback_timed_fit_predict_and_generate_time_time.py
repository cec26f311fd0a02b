# source: https://github.com/haifeng-jin/keras-benchmarks/blob/00bef5a53895d7ade74f5ad70c2b3bd91fbe2450/benchmark/keras_utils.py
# title: `benchmark/keras_utils.py` of haifeng-jin's keras-benchmarks, the scripts behind the Keras 3 benchmark page of keras-team/keras-io#1792 (JAX, TensorFlow and PyTorch backends against native PyTorch): a `keras.callbacks.Callback` that reads `time.time()` at the start of batch 1 and the end of batch 100 of `fit` and `predict`, and a `generate` timing that subtracts one warmed call from 101
# established-by: maintainer haifeng-jin (Keras team member, the repository's author and the PR's author, reviewed by fchollet; no review comment discusses the timing)
# cause: The benchmark page compares Keras 3's backends per model. What a correct doctor reports, by the catalogue: every interval is read with `time.time()`, the wall clock (LB105, at the four start reads: the callback's two `benchmark_begin` reads and the two in `generate`). Batch 0, which compiles the step, is outside the callback's window (`start_batch=1`), the window spans 100 steps divided by their count, and `generate` is built by a first call and then timed over 101 calls (no LB103, no LB104 on the figures). Noted, not labelled: `generate`'s 'overhead' is one warmed call subtracted from the total, a single sample inside the figure; whether the read at the end of batch 100 comes after that batch's device work depends on how the Keras backend hands a batch's logs to callbacks, which the file does not show. Code: the file at commit 00bef5a, unchanged.
# static: LB105
# dynamic: n/a
# inferred: LB105 (the wall clock as the interval clock in the callback and in `generate`; not discussed in the PR)
# lines: LB105:28/39/68/74
# first-sight: fb4008d 2026-12-06 py: found none; missed LB105:28/39/68/74; false none | notebook: found none; missed LB105:28/39/68/74; false none

import time

import keras
import numpy as np

import benchmark


class BenchmarkMetricsCallback(keras.callbacks.Callback):
    def __init__(self, start_batch=1, stop_batch=None):
        self.start_batch = start_batch
        self.stop_batch = stop_batch

        self.state = {}

    def on_train_batch_begin(self, batch, logs=None):
        if batch == self.start_batch:
            self.state["benchmark_begin"] = time.time()

    def on_train_batch_end(self, batch, logs=None):
        if batch == self.stop_batch:
            self.state["benchmark_end"] = time.time()
            self.time_per_step = (
                self.state["benchmark_end"] - self.state["benchmark_begin"]
            ) / (self.stop_batch - self.start_batch + 1)

    def on_predict_batch_begin(self, batch, logs=None):
        if batch == self.start_batch:
            self.state["benchmark_begin"] = time.time()

    def on_predict_batch_end(self, batch, logs=None):
        if batch == self.stop_batch:
            self.state["benchmark_end"] = time.time()
            self.time_per_step = (
                self.state["benchmark_end"] - self.state["benchmark_begin"]
            ) / (self.stop_batch - self.start_batch + 1)


def fit(model, dataset):
    callback = BenchmarkMetricsCallback(stop_batch=benchmark.NUM_STEPS)
    model.fit(dataset, epochs=1, callbacks=[callback])
    return 1000.0 * callback.time_per_step


def predict(model, dataset):
    callback = BenchmarkMetricsCallback(stop_batch=benchmark.NUM_STEPS)
    model.predict(dataset, callbacks=[callback])
    return 1000.0 * callback.time_per_step


def generate(model, batch_size, max_length):
    inputs = benchmark.get_prompts(batch_size, benchmark.NUM_WORDS)

    # Build the model by running.
    model.generate(inputs, max_length=max_length)

    # Run another time to get the time of first step and python overhead.
    start_time = time.time()
    model.generate(inputs, max_length=max_length)
    end_time = time.time()
    overhead_time = end_time - start_time

    # Benchmark the running time
    start_time = time.time()
    for _ in range(benchmark.NUM_STEPS + 1):
        model.generate(inputs, max_length=max_length)
    end_time = time.time()
    total_time = end_time - start_time

    return (total_time - overhead_time) / benchmark.NUM_STEPS * 1000


def use_jit():
    # Only use jit_compile=False when using torch backend.
    return not (
        hasattr(keras, "version")
        and keras.version().startswith("3.")
        and keras.backend.backend() == "torch"
    )


def get_train_dataset_for_text_classification(
    preprocessor, batch_size, seq_len
):
    import tensorflow as tf

    prompts = benchmark.get_prompts(
        num_prompts=batch_size,
        num_words=seq_len,
    )
    dataset = (
        tf.data.Dataset.from_tensor_slices(
            (
                tf.constant(prompts),
                tf.constant(np.random.randint(2, size=batch_size)),
            )
        )
        .repeat()
        .batch(batch_size)
        .take(benchmark.NUM_STEPS + 1)
    )

    # Force the dataset to cache into memory.
    dataset = dataset.map(preprocessor).cache()
    count = 0
    for batch in dataset:
        count += 1
    return dataset


def get_train_dataset_for_text_gen(preprocessor, batch_size, seq_len):
    import tensorflow as tf

    prompts = benchmark.get_prompts(
        num_prompts=batch_size,
        num_words=seq_len,
    )
    dataset = (
        tf.data.Dataset.from_tensor_slices(
            (tf.constant(prompts), tf.constant(prompts))
        )
        .repeat()
        .batch(batch_size)
        .take(benchmark.NUM_STEPS + 1)
    )

    # Force the dataset to cache into memory.
    dataset = dataset.map(preprocessor).cache()
    count = 0
    for batch in dataset:
        count += 1
    return dataset
