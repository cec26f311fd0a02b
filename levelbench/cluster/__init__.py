"""Sweeps past one machine: `levelbench run --cluster ray` hands each unit of a sweep to a Ray node.

A unit is one (workload, parameters) job. Benchmarking's one rule that a general scheduler breaks
is that two timed jobs must never share a machine's cores, so every unit holds a whole node: the
node's ``levelbench_node`` custom resource (each node advertises one) and all of its CPUs. On the
node the unit runs as it does locally (`levelbench.workloads.run.run_job`): candidates in worker
processes of their own, interleaved, under the timeout. Results come back to the driver as they
finish, carrying the node that produced them.

Ray is optional (``pip install 'levelbench[ray]'``) and imported only here, only when used.
"""

from __future__ import annotations

from ._nodes import NODE_RESOURCE, ClusterError, Node, describe_kinds, select_nodes
from ._ray import UnitEvent, connect, discover_nodes, run_on_ray

__all__ = ["NODE_RESOURCE", "ClusterError", "Node", "UnitEvent", "connect", "describe_kinds", "discover_nodes",
           "run_on_ray", "select_nodes"]
