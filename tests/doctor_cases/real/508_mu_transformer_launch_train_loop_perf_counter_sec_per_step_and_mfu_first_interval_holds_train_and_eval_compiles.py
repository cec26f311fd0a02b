# source: https://github.com/lucaslingle/mu_transformer/blob/04285333844e635737a685d476afba6893dd4b26/mu_transformer/jax_impl/launch.py
# title: mu_transformer's `jax_impl/launch.py`: a Flax Transformer trained with a sharded `@jax.jit` `train_step` on TPU, logging `sec_per_step` and an estimated TPU v3 MFU from `perf_counter` every `n_print_step` steps after reading every metric to the host, and an `eval_loop` that times its jitted `eval_step`s from `perf_counter` into `secs_per_step`
# established-by: maintainer lucaslingle (the repository's author; no issue discusses the timing)
# cause: What a correct doctor reports, by the catalogue and the corpus's readings. Each logged interval ends after `get_scalar_on_host` (`jax.device_get(...).item()`) has read every metric of the last step and `jax.block_until_ready(state)` has waited for the state, so the figures wait for the steps they count (no LB102), the clock is `perf_counter` (no LB105), and a figure is printed on every pass of the logging branch (no LB104, 223's reading). But `start_time` is read before the loop and the first print comes at step 0 (`step % n_print_step == 0`), so the first `sec_per_step`, and the MFU derived from it, hold `train_step`'s first call, its trace and XLA compile, and the step-0 evaluation, divided by `n_print_step` (LB103, at the step call; the catalogue's average inflated by a compile, the reading of 507). `eval_loop` likewise starts its clock before its first `eval_step` call, so the `secs_per_step` it returns from the first evaluation holds `eval_step`'s compile (LB103, at that call); its steps are read back with `.item()` (no LB102). Not labelled: each batch goes to the device through `to_global_array` inside the interval, part of the end-to-end step the figure describes (no LB115, 258's reading); the evaluations, checkpoint saves and the profiler trace started at `n_save_step` and stopped at twice that fall inside later intervals too, no catalogue fault. Code: the file at commit 0428533, trimmed: the license header, flag definitions, the tokenizer, model-configuration, mesh, parameter, learning-rate, optimizer, train-state, model-name and checkpoint factories, the pytree and loss-mask helpers, `save_eval_loss` and `main` left out; what remains is as posted.
# static: LB103
# dynamic: n/a
# inferred: LB103 (the first logged interval and the first evaluation's figure each hold a jitted function's first call; not discussed)
# lines: LB103:254/364
# first-sight: 6043315 2026-12-06 py: found none; missed LB103:254/364; false LB103:214 | notebook: found none; missed LB103:254/364; false LB103:214

import functools
import os
import posixpath
import re
import sys
import time
from typing import Set

import blobfile
import flax
import flax.linen as nn
import jax
import jax.experimental.mesh_utils as jmu
import jax.numpy as jnp
import jax.tree_util as jtu
import optax
import orbax.checkpoint as ocp
import wandb
from absl import app
from absl import flags
from absl import logging
from flax import traverse_util
from flax.training import orbax_utils
from flax.training import train_state as train_utils
from ml_collections import config_flags

from mu_transformer.data import count_batches
from mu_transformer.data import get_batch
from mu_transformer.data import get_dataset
from mu_transformer.data import get_tokenizer
from mu_transformer.jax_impl.model import MESH_AXES
from mu_transformer.jax_impl.model import Transformer
from mu_transformer.jax_impl.model import TransformerConfig
from mu_transformer.jax_impl.shard import get_namedsharding
from mu_transformer.jax_impl.shard import sharding_constraint
from mu_transformer.jax_impl.shard import to_global_array
from mu_transformer.jax_impl.sow import split_and_name


FLAGS = flags.FLAGS


def loss_fn(params, batch, config, global_mesh):
    batch = sharding_constraint(batch, MESH_AXES["XN"], global_mesh)
    init_args = [config, global_mesh]
    apply_args = [{"params": params}, batch]  # tokens shifted internally by model
    if FLAGS.config.sow_intermediates:
        logits, mv = Transformer(*init_args).apply(*apply_args, mutable="intermediates")
        sown = clean_and_flatten(mv["intermediates"], split_filter={""})  # split all
    else:
        logits = Transformer(*init_args).apply(*apply_args)
        sown = dict()
    terms = optax.softmax_cross_entropy_with_integer_labels(logits=logits, labels=batch)
    terms = sharding_constraint(terms, MESH_AXES["XN"], global_mesh)
    mask = get_loss_mask(
        batch, pad_token_id=config.pad_token_id, eos_token_id=config.eos_token_id
    )
    mask = sharding_constraint(mask, MESH_AXES["XN"], global_mesh)
    metrics = dict(
        loss_term_avg=jnp.mean(mask * terms),
        loss_mask_avg=jnp.mean(mask),
    )
    return metrics["loss_term_avg"], dict(**metrics, **sown)


@functools.partial(jax.jit, donate_argnums=(0,))
def train_step(state, batch):
    (_, metrics), grads = jax.value_and_grad(loss_fn, has_aux=True)(
        state.params,
        batch,
        transformer_config_factory(is_train=True),
        global_mesh_factory(),
    )
    # No extra mean anywhere, already have the sharded all-device mean gradient & loss.
    # Estimate ce loss for global batch: sum of non-masked ce terms / sum of mask values
    # Equivalently,
    metrics["loss_avg"] = metrics["loss_term_avg"] / metrics["loss_mask_avg"]
    # Compute param count
    metrics["param_count_total"] = size_pytree(state.params)
    if FLAGS.config.sow_param_info:
        # Maybe save update coordinate size (here, mean abs), scaled by current lr
        step = state.step
        p_old = state.params
        state = state.apply_gradients(grads=grads)  # do update
        p_new = state.params
        p_old = clean_and_flatten(p_old, split_filter={"w_a", "w_f", "g_a", "g_f"})
        p_new = clean_and_flatten(p_new, split_filter={"w_a", "w_f", "g_a", "g_f"})
        info = jtu.tree_map(lambda a, b: jnp.mean(jnp.abs(a - b)), p_new, p_old)
        info = {f"uu_{k}": v / get_current_lr(k, step) for k, v in info.items()}
    else:
        state = state.apply_gradients(grads=grads)  # do update
        info = dict()
    return state, dict(**metrics, **info)


def get_tpuv3_mfu(param_count, sec_per_step):
    """Estimate model flops utilization (MFU)"""
    # see PaLM paper Appendix B as ref: https://arxiv.org/abs/2204.02311
    # get throughput estimate in tokens per second
    tokens_per_sec = FLAGS.config.tokens_per_global_batch / sec_per_step
    # get flop count estimate per token using analytical accounting
    n = param_count
    l = FLAGS.config.n_layer
    h = FLAGS.config.d_model // FLAGS.config.d_head
    q = FLAGS.config.d_head
    t = FLAGS.config.sequence_len
    flop_per_token = (6 * n) + (12 * l * h * q * t)
    # get estimated flop count per second (flop/s)
    flop_per_second_analytic = flop_per_token * tokens_per_sec
    # get peak theoretical flop count per second for the tpu v3 pod slice.
    #   formula: TPU v3 flop/s per chip * 4 chips per host * num hosts:
    flop_per_second_peak = 123e12 * 4 * jax.process_count()
    mfu = flop_per_second_analytic / flop_per_second_peak
    return mfu * 100  # a percentage


def get_scalar_on_host(tensor):
    tensor = jax.device_get(tensor)
    return tensor.item()


def train_loop():
    logging.info("Entering train loop function...")
    logging.info("Creating RNGs...")
    rng_init, rng_stoch = jax.random.split(jax.random.PRNGKey(FLAGS.seed))
    rng_stoch = jax.random.fold_in(rng_stoch, jax.process_index())
    del rng_stoch  # not used currently since no dropout, etc.

    logging.info("Creating train state...")
    state = train_state_factory(rng_init)
    if not FLAGS.config.no_checkpoint:
        load_checkpoint_mgr = checkpoint_manager_factory(option="load")
        if load_checkpoint_mgr.latest_step() is not None:
            state = do_restore(load_checkpoint_mgr, state)
        start_step = load_checkpoint_mgr.latest_step() or 0
        del load_checkpoint_mgr
        if start_step == FLAGS.config.n_pretrain_step + FLAGS.config.n_finetune_step:
            return
    else:
        start_step = 0

    logging.info("Creating dataset...")
    n_host = jax.process_count()
    host_id = jax.process_index()
    n_shard = FLAGS.config.n_ds_shard or n_host
    n_host_per_shard = n_host // n_shard  # n_ds_shard = n_host on smallest runs
    global_batch_size = global_batch_size_factory()
    batch_size_per_host = global_batch_size // n_host
    shard_id = host_id // n_host_per_shard
    subshard_id = host_id % n_host_per_shard

    train_ds_shard = get_dataset(
        hfds_identifier=FLAGS.config.hfds_identifier,
        hfds_config=FLAGS.config.hfds_config,
        hfds_datacol=FLAGS.config.hfds_datacol,
        hfds_buffer_size=FLAGS.config.hfds_buffer_size,
        hftr_tokenizer=tokenizer_factory(),
        split_name="train",
        batch_size=batch_size_per_host,
        sequence_len=FLAGS.config.sequence_len,
        n_shard=n_shard,
        shard_id=shard_id,
        workdir=FLAGS.workdir,
        force_download=FLAGS.config.force_download,
    )
    val_ds_shard = get_dataset(
        hfds_identifier=FLAGS.config.hfds_identifier,
        hfds_config=FLAGS.config.hfds_config,
        hfds_datacol=FLAGS.config.hfds_datacol,
        hfds_buffer_size=FLAGS.config.hfds_buffer_size,
        hftr_tokenizer=tokenizer_factory(),
        split_name="validation",
        batch_size=batch_size_per_host,
        sequence_len=FLAGS.config.sequence_len,
        n_shard=n_shard,
        shard_id=shard_id,
        workdir=FLAGS.workdir,
        force_download=FLAGS.config.force_download,
    )

    logging.info("Starting training loop...")
    best_val_loss = float("inf")
    val_metrics = dict()
    global_mesh = global_mesh_factory()
    save_checkpoint_mgr = checkpoint_manager_factory(option="save")
    log_level_is_debug = logging.get_verbosity() == 1
    start_time = time.perf_counter()
    # the user should set n_finetune_step > 0 if and only if currently fine-tuning.
    n_total_step = FLAGS.config.n_pretrain_step + FLAGS.config.n_finetune_step
    for step in range(start_step, n_total_step + 1):
        # occasionally perform an evaluation and save a checkpoint on improvement
        if (step % FLAGS.config.n_save_step == 0) or step == n_total_step:
            state = jax.block_until_ready(state)
            # stop profiler
            if jax.process_index() == 0 and step == 2 * FLAGS.config.n_save_step:
                logging.info("Stopping profiler trace...")
                try:
                    jax.profiler.stop_trace()
                except RuntimeError as e:
                    # we ignore an error that occurs if restoring at step = 2 * n_save
                    if e.args[0] != "No profile started":
                        raise RuntimeError(e)
            logging.debug("Starting evaluation action...")
            val_metrics = eval_loop(
                state.params,
                ds_shard=val_ds_shard,
                n_eval_step=FLAGS.config.n_eval_step,
            )
            if best_val_loss > val_metrics["loss_avg"]:
                logging.info("Validation loss improved...")
                if not FLAGS.config.no_checkpoint:
                    do_save(save_checkpoint_mgr, step, state)
                best_val_loss = val_metrics["loss_avg"]
            # start profiler
            if jax.process_index() == 0 and step == FLAGS.config.n_save_step:
                assert FLAGS.config.n_save_step > FLAGS.config.n_print_step
                logging.info("Starting profiler trace...")
                jax.profiler.start_trace(
                    log_dir=modeldir_factory("save", "logging"),
                    # create_perfetto_trace=True,  # write extra trace file for perfetto
                )
            logging.debug("Done with evaluation action...")

        # do the training step
        logging.debug(f"Training step {step}...")
        batch = get_batch(
            shard=train_ds_shard,
            n_subshard=n_host_per_shard,
            subshard_id=subshard_id,
            batch_size=batch_size_per_host,
            sequence_len=FLAGS.config.sequence_len,
            step=step,
        )
        logging.debug("Got batch...")
        logging.debug(f"Batch shape (local): {batch.shape}")
        # distribute local batch arrays to global batch arrays
        logging.debug("Distributing batch to global array...")
        batch = to_global_array(batch, global_mesh)
        batch = jax.block_until_ready(batch) if log_level_is_debug else batch
        logging.debug("Finished distributing batch to global array...")
        logging.debug(f"Batch shape (global): {batch.shape}")
        # run a training step
        logging.debug("Starting train step...")
        state, metrics = train_step(state, batch=batch)
        state = jax.block_until_ready(state) if log_level_is_debug else state
        metrics = jax.block_until_ready(metrics) if log_level_is_debug else metrics
        logging.debug("Finished train step...")

        # occasionally print metrics
        if step % FLAGS.config.n_print_step == 0:
            state = jax.block_until_ready(state)
            metrics = {k: get_scalar_on_host(v) for k, v in metrics.items()}
            metrics = jax.block_until_ready(metrics)
            logging.debug("Starting print action...")
            end_time = time.perf_counter()
            sec_per_step = (end_time - start_time) / FLAGS.config.n_print_step
            essentials = {
                "step": step,
                "sec_per_step": sec_per_step,
                "loss_avg": metrics.get("loss_avg"),
                "val_loss_avg": val_metrics.get("loss_avg"),
                "tpuv3_mfu": get_tpuv3_mfu(metrics["param_count_total"], sec_per_step),
            }
            logging.info(essentials)
            if jax.process_index() == 0:
                metrics.update(essentials)
                wandb.log(metrics)
            start_time = end_time
            logging.debug("Done with print action...")


@jax.jit
def eval_step(params, batch):
    _, metrics = loss_fn(
        params,
        batch,
        transformer_config_factory(is_train=False),
        global_mesh_factory(),
    )
    return metrics


def eval_loop(params, ds_shard=None, n_eval_step=None, mode=None):
    logging.info("Entering eval loop function...")
    if params is None:
        rng_init, _ = jax.random.split(jax.random.PRNGKey(FLAGS.seed))
        logging.info("Creating params...")
        state = train_state_factory(rng_init)
        if not FLAGS.config.no_checkpoint:
            load_checkpoint_mgr = checkpoint_manager_factory(option="load")
            if load_checkpoint_mgr.latest_step() is not None:
                state = do_restore(load_checkpoint_mgr, state)
            del load_checkpoint_mgr
        state = jax.block_until_ready(state)
        params = state.params
        del state

    logging.info("Creating dataset...")
    n_host = jax.process_count()
    host_id = jax.process_index()
    n_shard = FLAGS.config.n_ds_shard
    n_host_per_shard = n_host // n_shard  # n_ds_shard = n_host on smallest runs
    global_batch_size = global_batch_size_factory()
    batch_size_per_host = global_batch_size // n_host
    shard_id = host_id // n_host_per_shard
    subshard_id = host_id % n_host_per_shard
    if ds_shard is None:
        ds_shard = get_dataset(
            hfds_identifier=FLAGS.config.hfds_identifier,
            hfds_config=FLAGS.config.hfds_config,
            hfds_datacol=FLAGS.config.hfds_datacol,
            hfds_buffer_size=FLAGS.config.hfds_buffer_size,
            hftr_tokenizer=tokenizer_factory(),
            split_name=mode,
            batch_size=batch_size_per_host,
            sequence_len=FLAGS.config.sequence_len,
            n_shard=n_shard,
            shard_id=shard_id,
            workdir=FLAGS.workdir,
            force_download=FLAGS.config.force_download,
        )
    n_batch_per_subshard = count_batches(
        shard=ds_shard,
        n_subshard=n_host_per_shard,
        batch_size=batch_size_per_host,
        sequence_len=FLAGS.config.sequence_len,
    )

    global_mesh = global_mesh_factory()
    acc = None
    log_level_is_debug = logging.get_verbosity() == 1
    start_time = time.perf_counter()
    for i in range(n_batch_per_subshard):
        logging.info(f"eval step {i}...")
        batch = get_batch(
            shard=ds_shard,
            n_subshard=n_host_per_shard,
            subshard_id=subshard_id,
            batch_size=batch_size_per_host,
            sequence_len=FLAGS.config.sequence_len,
            step=i,
        )
        logging.debug("Got batch...")
        logging.debug(f"Batch shape (local): {batch.shape}")

        # distribute local batch arrays to global batch arrays
        logging.debug("Distributing batch to global array...")
        batch = to_global_array(batch, global_mesh)
        batch = jax.block_until_ready(batch) if log_level_is_debug else batch
        logging.debug("Finished distributing batch to global array...")
        logging.debug(f"Batch shape (global): {batch.shape}")

        logging.debug("Starting eval step...")
        stats = eval_step(params=params, batch=batch)
        stats = jtu.tree_map(lambda a: jax.device_get(a).item(), stats)
        stats = jax.block_until_ready(stats)  # slows a bit, but makes printout accurate
        logging.debug("Finished eval step...")

        logging.debug("Starting accumulation step...")
        if acc is not None:
            acc = jtu.tree_map(
                lambda a, b: (i / (i + 1)) * a + (1 / (i + 1)) * b, acc, stats
            )
        else:
            acc = stats
        if logging.get_verbosity() == 1:
            acc = jax.block_until_ready(acc)
            logging.debug("Finished accumulation step...")

        if n_eval_step is not None:
            if i + 1 == n_eval_step:
                break

    logging.debug("Eval loop finished...")
    logging.debug("Computing eval metrics...")
    acc = jax.block_until_ready(acc)
    end_time = time.perf_counter()
    eval_metrics = dict(
        loss_avg=acc["loss_term_avg"] / acc["loss_mask_avg"],
        secs_per_step=(end_time - start_time) / (i + 1),
        **acc,
    )
    logging.debug("Finished computing eval metrics...")
    return eval_metrics
