# source: https://github.com/4ment/phylojax/blob/2a5dd3a721c635a45b1c667f450402ec40be63ee/benchmarks/benchmark.py
# title: phylojax's `benchmarks/benchmark.py`: tree likelihood, node-height transform and coalescent timed 'JIT off' and 'JIT on' over `--replicates` calls between `default_timer` reads, partly through a `test(fn, g, ...)` helper, with optional 'First evaluation' timings behind `separate=False`
# established-by: maintainer 4ment (the repository's author; the figures feed the csv of the phylojax/torchtree benchmark scripts, and no issue discusses their timing)
# cause: What a correct doctor reports, by the catalogue. No timing waits: every replicate loop discards or keeps the last JAX result and reads the clock right after dispatching it (`log_p` is printed only after `end = timer()`), eager 'JIT off' and jitted 'JIT on' alike, and so do the optional 'First evaluation' timings (LB102 at each timed call: in `test`, in `ratio_transform` and in `constant_coalescent`, as 270 labels a compile-plus-run figure). The script calls `test`, `ratio_transform` and `constant_coalescent` with `separate=False`, so the 'First evaluation' blocks never run and the first call of every jitted function (`calculate_treelikelihood_jit` and `jit(grad(fn))` in `test`'s loops, `transform_ratios_jit`, `log_prob_jit`, `fn_jit_grad = jit(vjp_fn)`) is the first pass of its timed replicate loop (LB103 at those calls). `ratio_transform`'s 'JIT on' loop applies `jit(transform_ratios)` again on every replicate inside the timed loop (LB111 at it). `from jax.ops import index, index_update` names functions JAX removed (LB113; the trimmed v3 likelihood used them). The 'JIT off' rows are the script's own eager baselines beside their jitted twins, not LB114 (242, 248, 279); `np` is `jax.numpy`, so the cotangents `np.ones(y.shape)` are made by JAX, not copied (no LB115); `default_timer` is `perf_counter` (no LB105). Code: the file at commit 2a5dd3a, trimmed: `calculate_treelikelihoodv2`/`v3` and `log_prob_squashed`, the `--all` and `--debug` branches, and `ratio_transform_jacobian` (the same loops as `constant_coalescent`, with its call in the main block) are left out; the rest unchanged.
# static: LB102, LB103, LB111, LB113
# dynamic: n/a
# inferred: LB102 (no timed result is waited for; the catalogue's reading), LB103 (with `separate=False` the first call of each jitted function is inside its timed loop; the catalogue's reading), LB111 (`jit(transform_ratios)` applied on every pass of a timed loop; the catalogue's reading), LB113 (`jax.ops.index` and `index_update` were removed from JAX; the catalogue's reading)
# lines: LB102:104/111/119/126/164/170/179/186/212/223/237/243/253, LB103:111/126/186/243/253, LB111:185, LB113:17
# first-sight: e4a92af 2026-12-06 py: found LB113:17 LB113:17 LB102:104 LB102:111 LB102:119 LB102:126 LB102:179 LB102:186 LB102:223 LB102:237 LB102:243 LB103:253 LB102:253; missed LB111:185; false LB103:92 LB103:104 LB114:111 LB114:125 LB114:170 LB103:179 LB114:212 LB114:221 LB114:223 LB103:237 | notebook: found LB113:17 LB113:17 LB102:104 LB102:111 LB102:119 LB102:126 LB102:179 LB102:186 LB102:223 LB102:237 LB102:243 LB103:253 LB102:253; missed LB111:185; false LB103:92 LB103:104 LB114:111 LB114:125 LB114:170 LB103:179 LB114:212 LB114:221 LB114:223 LB103:237

import argparse
from timeit import default_timer as timer

import jax
import jax.numpy as np
from jax import grad, jit, vjp
from jax.ops import index, index_update

import phylojax.treelikelihood as treelikelihood
from phylojax.io import read_tree_and_alignment
from phylojax.sitepattern import get_dna_leaves_partials_compressed
from phylojax.substitution import JC69
from phylojax.tree import distance_to_ratios, log_abs_det_jacobian, transform_ratios

jax.config.update("jax_platform_name", "cpu")


def log_prob(node_heights, theta):
    taxa_shape = node_heights.shape[:-1] + (int((node_heights.shape[-1] + 1) / 2),)
    node_mask = np.concatenate(
        (
            np.full(taxa_shape, 0),
            np.full(
                taxa_shape[:-1] + (taxa_shape[-1] - 1,),
                1,
            ),
        ),
        axis=-1,
    )
    indices = np.argsort(node_heights)
    heights_sorted = np.take_along_axis(node_heights, indices, -1)
    node_mask_sorted = np.take_along_axis(node_mask, indices, -1)
    lineage_count = np.where(
        node_mask_sorted == 1,
        np.full_like(theta, -1),
        np.full_like(theta, 1),
    ).cumsum(-1)[..., :-1]
    durations = heights_sorted[..., 1:] - heights_sorted[..., :-1]
    lchoose2 = lineage_count * (lineage_count - 1) / 2.0
    return np.sum(-lchoose2 * durations / theta, axis=-1, keepdims=True) - (
        taxa_shape[-1] - 1
    ) * np.log(theta)


def fluA_unrooted(args):
    replicates = args.replicates
    tree, dna = read_tree_and_alignment(args.tree, args.input, True, True)
    nodes = [None] * (len(tree.taxon_namespace) * 2 - 1)
    for node in tree.postorder_node_iter():
        nodes[node.index] = node.edge_length
    nodes.pop()
    indices = []
    for node in tree.postorder_node_iter():
        if not node.is_leaf():
            children = node.child_nodes()
            indices.append((node.index, children[0].index, children[1].index))
    indices = tuple(indices)
    branch_lengths = np.array([[float(x) for x in nodes]]) * 0.001
    bls = np.expand_dims(branch_lengths, axis=-1)
    partials, weights = get_dna_leaves_partials_compressed(dna)
    jc69_model = JC69()

    proportions = np.array([[[1.0]]])
    tip_partials = np.array(partials[: len(tree.taxon_namespace)])

    print("  JIT off")

    def fn(bls):
        mats = jc69_model.p_t(bls)
        return treelikelihood.calculate_treelikelihood(
            tip_partials, weights, indices, mats, jc69_model.frequencies, proportions
        )[0]

    t = test(fn, grad(fn), bls, replicates)

    if args.output:
        args.output.write(f"treelikelihood,evaluation,off,{t[0]}\n")
        args.output.write(f"treelikelihood,gradient,off,{t[1]}\n")

    print("  JIT on jit(grad(fn))")
    calculate_treelikelihood_jit = jit(fn)
    t = test(calculate_treelikelihood_jit, jit(grad(fn)), bls, replicates)

    if args.output:
        args.output.write(f"treelikelihood,gradient,off,{t[0]}\n")
        args.output.write(f"treelikelihood,gradient,off,{t[1]}\n")


def test(fn, g, bls, replicates, separate=False):
    times = []
    if separate:
        replicates = replicates - 1
        start = timer()
        log_p = fn(bls)
        end = timer()
        t0 = end - start
        print(f"  First evaluation: {t0}")

    start = timer()
    for _ in range(replicates):
        log_p = fn(bls)
    end = timer()
    t1 = end - start
    times.append(t1)
    print(f"  {replicates} evaluations: {t1} ({log_p})")

    if separate:
        start = timer()
        _ = g(bls)
        end = timer()
        t2 = end - start
        print(f"  First gradient evaluation: {t2} ({log_p}")

    start = timer()
    for _ in range(replicates):
        _ = g(bls)
    end = timer()
    t3 = end - start
    times.append(t3)
    print(f"  {replicates} gradient evaluations: {t3})")
    return times


def ratio_transform(args, separate=False):
    replicates = args.replicates
    if separate:
        replicates = replicates - 1

    tree, dna = read_tree_and_alignment(args.tree, args.input, True, True)
    taxa_count = 69
    bounds = [None] * (2 * taxa_count - 1)
    for node in tree.postorder_node_iter():
        if node.is_leaf():
            bounds[node.index] = node.date
        else:
            bounds[node.index] = max([bounds[x.index] for x in node.child_node_iter()])
    bounds = np.array(bounds)

    indices_for_ratios = []
    for node in tree.preorder_node_iter():
        if node != tree.seed_node and node.index >= taxa_count:
            indices_for_ratios.append((node.parent_node.index, node.index))
    indices_for_ratios = np.array(indices_for_ratios)

    ratios = np.array([0.5] * 67)
    root = np.array([20.0])

    ratios_root_height = np.concatenate((ratios, root), axis=-1)

    print("  JIT off")

    if separate:
        start = timer()
        transform_ratios(ratios_root_height, bounds, indices_for_ratios)
        end = timer()
        print(f"  First evaluation: {end - start}")

    start = timer()
    for _ in range(replicates):
        transform_ratios(ratios_root_height, bounds, indices_for_ratios)
    end = timer()
    print(f"  {replicates} evaluations: {end - start}")

    print("  JIT on")
    transform_ratios_jit = jit(transform_ratios)

    if separate:
        start = timer()
        transform_ratios_jit(ratios_root_height, bounds, indices_for_ratios)
        end = timer()
        print(f"  First evaluation: {end - start}")

    start = timer()
    for _ in range(replicates):
        transform_ratios_jit = jit(transform_ratios)
        transform_ratios_jit(ratios_root_height, bounds, indices_for_ratios)
    end = timer()
    print(f"  {replicates} evaluations: {end - start}")


def constant_coalescent(args, separate=False):
    replicates = args.replicates
    tree, dna = read_tree_and_alignment(args.tree, args.input, True, True)
    taxa_count = 69
    ratios, root_height, bounds = distance_to_ratios(tree)

    indices_for_ratios = []
    for node in tree.preorder_node_iter():
        if node != tree.seed_node and node.index >= taxa_count:
            indices_for_ratios.append((node.parent_node.index, node.index))
    indices_for_ratios = np.array(indices_for_ratios)

    ratios_root_height = np.concatenate((ratios, root_height), axis=-1)
    internal_heights = transform_ratios(ratios_root_height, bounds, indices_for_ratios)
    node_heights = np.concatenate((bounds[:taxa_count], internal_heights))

    theta = np.array([4.0])

    print("  JIT off")
    start = timer()
    for _ in range(replicates):
        log_p = log_prob(node_heights, theta)
    end = timer()
    t1 = end - start
    print(f"  {replicates} evaluations: {t1} ({log_p})")

    if args.output:
        args.output.write(f"coalescent,evaluation,off,{end - start}\n")

    start = timer()
    y, vjp_fn = vjp(log_prob, node_heights, theta)
    for _ in range(replicates):
        _ = vjp_fn(np.ones(y.shape))[0]

    end = timer()
    print(f"  {replicates} gradient evaluations: {end - start}")

    if args.output:
        args.output.write(f"coalescent,gradient,off,{end - start}\n")

    print("  JIT on")

    log_prob_jit = jit(log_prob)

    if separate:
        start = timer()
        log_p = log_prob_jit(node_heights, theta)
        end = timer()
        print(f"  First evaluation: {end-start} ({log_p})")

    start = timer()
    for _ in range(replicates):
        log_prob_jit(node_heights, theta)
    end = timer()
    print(f"  {replicates} evaluations: {end - start} ({log_p})")

    if args.output:
        args.output.write(f"coalescent,evaluation,on,{end - start}\n")

    fn_jit_grad = jit(vjp_fn)
    start = timer()
    for _ in range(replicates):
        _ = fn_jit_grad(np.ones(y.shape))[0]
    end = timer()
    print(f"  {replicates} gradient evaluations: {end - start}")

    if args.output:
        args.output.write(f"coalescent,gradient,on,{end - start}\n")


parser = argparse.ArgumentParser()
parser.add_argument("-i", "--input", required=True, help="""alignment file""")
parser.add_argument("-t", "--tree", required=True, help="""tree file""")
parser.add_argument(
    "--replicates",
    required=True,
    type=int,
    help="""Number of replicates""",
)
parser.add_argument(
    "-o",
    "--output",
    type=argparse.FileType("w"),
    default=None,
    help="""csv output file""",
)
parser.add_argument(
    "--debug", required=False, action="store_true", help="""Debug mode"""
)
parser.add_argument("--all", required=False, action="store_true", help="""Run all""")

args = parser.parse_args()

if args.output:
    args.output.write("function,mode,JIT,time\n")

print("Tree likelihood unrooted:")
fluA_unrooted(args)

print("Node height transform:")
ratio_transform(args)

print("Constant coalescent:")
constant_coalescent(args)

if args.output:
    args.output.close()
