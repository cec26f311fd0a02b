"""The nodes of a cluster that levelbench may time on, their kinds, and choosing among them."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

NODE_RESOURCE = "levelbench_node"
"""The custom resource every node that levelbench may time on advertises once: ``ray start --resources
'{"levelbench_node": 1}'``. A unit asks for it, so no two units ever share a node."""


class ClusterError(RuntimeError):
    """The cluster cannot run the sweep as asked (no Ray, no nodes, an unknown kind); the message says what to do."""


@dataclasses.dataclass(frozen=True)
class Node:
    """One node levelbench times on: Ray's id and name, and what the node itself reported."""

    id: str
    name: str
    hostname: str
    cpu: str
    cpus: int
    accelerator: str = ""

    @property
    def kind(self) -> str:
        """Nodes of one kind give comparable timings: the same CPU model and accelerator."""
        return f"{self.cpu} + {self.accelerator}" if self.accelerator else self.cpu

    @property
    def label(self) -> str:
        """Short and unique: several nodes may share a host (and Ray's name is often just the IP)."""
        return f"{self.hostname}:{self.id[:6]}"

    def to_dict(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name, "hostname": self.hostname, "cpu": self.cpu, "cpus": self.cpus,
                "accelerator": self.accelerator, "kind": self.kind}


def describe_kinds(nodes: Sequence[Node]) -> str:
    kinds: dict[str, list[str]] = {}
    for n in nodes:
        kinds.setdefault(n.kind, []).append(n.label)
    return "; ".join(f"{kind!r}: {len(labels)} node(s) ({', '.join(labels)})" for kind, labels in kinds.items())


def select_nodes(nodes: Sequence[Node], on: str | None, every_kind: bool) -> dict[str, list[Node]]:
    """The nodes to use, grouped by kind: the kinds matching ``on`` (a case-insensitive part of the
    kind), every kind with ``every_kind``, else the one kind the cluster has.

    Raises:
        ClusterError: no node matches, or several kinds and neither ``on`` nor ``every_kind`` says
            which (timings from different machines in one sweep would not be comparable).
    """
    if not nodes:
        raise ClusterError(f"no node advertises the {NODE_RESOURCE!r} resource: start each node with "
                           f"`ray start ... --resources '{{\"{NODE_RESOURCE}\": 1}}'` (see docs/guide/cluster.md)")
    by_kind: dict[str, list[Node]] = {}
    for n in nodes:
        by_kind.setdefault(n.kind, []).append(n)
    if on is not None:
        chosen = {k: v for k, v in by_kind.items() if on.lower() in k.lower()}
        if not chosen:
            raise ClusterError(f"no node of kind {on!r}: the cluster has {describe_kinds(nodes)}")
        if len(chosen) > 1 and not every_kind:
            raise ClusterError(f"--on {on!r} matches {len(chosen)} kinds ({', '.join(map(repr, chosen))}): "
                               "give more of the kind's name, or add --every-kind to run the sweep on each")
        return chosen
    if len(by_kind) > 1 and not every_kind:
        raise ClusterError(f"the cluster has {len(by_kind)} kinds of node: {describe_kinds(nodes)}; "
                           "choose one with --on KIND, or --every-kind to run the whole sweep on each kind")
    return by_kind
