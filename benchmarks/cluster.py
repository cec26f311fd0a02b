"""The same 8-unit sweep run locally and on a local 2-node Ray cluster, and what Ray adds per unit.

Each unit is the ``sleepy`` test workload (two sleeping candidates) at one ``--ms``, so units
take about the same time anywhere and the figures show the scheduling, not the machine. Locally
the units run one after another (`levelbench run`); on the cluster each of the two nodes takes
one unit at a time. A unit's overhead is what the driver waited beyond what the unit took on its
node: submitting, starting a Ray worker, and bringing the result back.

    python benchmarks/cluster.py [--units 8] [--budget 0.5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SLEEPY = os.path.join(HERE, "..", "tests", "workloads", "simple.py") + ":SLEEPY"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--units", type=int, default=8)
    ap.add_argument("--budget", type=float, default=0.5, help="seconds of interleaved timing per unit")
    args = ap.parse_args()

    from levelbench.workloads.run import Job, run_jobs

    jobs = [Job(SLEEPY, {"ms": float(ms), "seed": 0}, args.budget, diagnose=False) for ms in range(1, args.units + 1)]
    t0 = time.perf_counter()
    local = list(run_jobs(jobs))
    local_wall = time.perf_counter() - t0
    assert all(r.status == "ok" for r in local), [r.error for r in local]

    for nodes in (1, 2):
        wall, overheads = _on_cluster(jobs, nodes)
        print(f"{len(jobs)} units on a {nodes}-node local Ray cluster: {wall:6.1f} s wall "
              f"({local_wall / wall:.2f}x local); Ray's overhead per unit: median {statistics.median(overheads):.3f} s, "
              f"max {max(overheads):.3f} s")
    print(f"{len(jobs)} units locally (levelbench run, one after another):   {local_wall:6.1f} s wall")


def _on_cluster(jobs: list, nodes: int) -> tuple[float, list[float]]:
    import ray
    from ray.cluster_utils import Cluster

    from levelbench.cluster import NODE_RESOURCE, connect, discover_nodes, run_on_ray, select_nodes

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "resources": {NODE_RESOURCE: 1},
                                                            "include_dashboard": False})
    for _ in range(nodes - 1):
        cluster.add_node(num_cpus=1, resources={NODE_RESOURCE: 1})
    cluster.wait_for_nodes()
    try:
        ray_module = connect(cluster.address)
        groups = select_nodes(discover_nodes(ray_module), None, False)
        submitted: dict[int, float] = {}
        overheads: list[float] = []

        def on_event(e) -> None:
            if e.what == "started":
                submitted[id(e.job)] = time.time()
            elif e.what == "finished":
                node = e.result.comparison.environment["node"]
                overheads.append((time.time() - submitted[id(e.job)]) - (node["ended"] - node["started"]))

        t0 = time.perf_counter()
        results = list(run_on_ray(ray_module, jobs, groups, timeout=600, on_event=on_event))
        wall = time.perf_counter() - t0
        assert all(r.status == "ok" for r in results), [r.error for r in results]
        return wall, overheads
    finally:
        ray.shutdown()
        cluster.shutdown()


if __name__ == "__main__":
    main()
