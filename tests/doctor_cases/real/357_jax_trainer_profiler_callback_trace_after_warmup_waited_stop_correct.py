# source: https://github.com/phlippe/jax_trainer/blob/39227995c4ad9924c9f0d733fbae985e932cda3f/jax_trainer/callbacks/profiler.py
# title: jax_trainer's `JAXProfiler` callback: a training-loop callback that starts a `jax.profiler` trace at a configured step (10 by default) or once an hour, traces a few training steps, and waits on the model parameters before `stop_trace`
# established-by: maintainer phlippe (the jax_trainer library's own profiler callback)
# cause: Correct code. The callback profiles training steps with `jax.profiler.start_trace`/`stop_trace` rather than reading a clock around them, and handles the two things a JAX profile can get wrong: it starts at `first_step` (default 10), after the first steps that compile the training step, so the trace shows steady-state steps; and before `stop_trace` it waits for every leaf of the trainer's parameters with `block_until_ready`, so the asynchronously dispatched steps it traced have run before the trace closes (the reading of cases 073 and 308, a profiled product waited for before the trace stops). The `time.time()` reads schedule the next trace ('every_n_minutes'): a wall-clock interval on purpose, timing no work and reporting no figure, so no LB105 (the rule is about a wall clock used to time work). `jax.tree_map` is an attribute call, not an import, so LB113 does not apply (it was later deprecated in favour of `jax.tree.map`). The callback is called from the trainer's loop, which the file does not hold; nothing here is jitted or timed. Code: the file as stored at commit 3922799, unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: f5b8aeb 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

import time

import jax
import optax
from absl import logging

from jax_trainer.callbacks.callback import Callback


class JAXProfiler(Callback):
    """Callback to profile model training steps."""

    def __init__(self, config, trainer, data_module):
        super().__init__(config, trainer, data_module)
        self.log_dir = self.trainer.log_dir
        self.every_n_minutes = config.get("every_n_minutes", 60)
        self.first_step = config.get("first_step", 10)
        self.profiler_n_steps = config.get("profile_n_steps", 5)
        self.profiler_active = False
        self.profiler_last_time = None

    def on_training_start(self):
        self.profiler_active = False
        self.profiler_last_time = time.time()

    def on_training_step(self, epoch_idx, step_idx):
        if self.profiler_active:
            if step_idx >= self.profile_start_step + self.profiler_n_steps:
                self.stop_trace()
        else:
            if (step_idx == self.first_step) or (
                time.time() - self.profiler_last_time > self.every_n_minutes * 60
            ):
                self.start_trace(step_idx)

    def on_training_epoch_end(self, train_metrics, epoch_idx):
        self.stop_trace()

    def start_trace(self, step_idx):
        if not self.profiler_active:
            logging.info(f"Starting trace at step {step_idx}.")
            jax.profiler.start_trace(self.log_dir)
            self.profiler_active = True
            self.profile_start_step = step_idx
        else:
            logging.warning("Trace already active.")

    def stop_trace(self):
        if self.profiler_active:
            logging.info("Stopping trace")
            jax.tree_map(lambda x: x.block_until_ready(), self.trainer.state.params)
            jax.profiler.stop_trace()
            self.profiler_last_time = time.time()
            self.profiler_active = False
