"""``levelbench run``: workloads side by side, each in its own worker process, with a progress bar."""

from __future__ import annotations

import itertools
import json
import sys
from typing import Any

import click

from ..workloads.run import Job, run_jobs
from .._results.workload import WorkloadResult
from .common import FINDINGS, INTERRUPTED, USAGE, db_option


def _workload_help() -> str:
    from ..workloads import builtin

    lines = ["\b", "Workloads and their parameters (a comma list sweeps: --seq 25,50,100):"]
    for w in builtin().values():
        lines.append(f"  {w.name}: {w.description}")
        for p in w.all_params:
            choices = f" {{{','.join(map(str, p.choices))}}}" if p.choices else ""
            full = f", --full: {w.full[p.name]}" if p.name in w.full else ""
            lines.append(f"    --{p.name.replace('_', '-')}{choices}  {p.help} (default {p.default}{full})")
    return "\n".join(lines)


class _RunCommand(click.Command):
    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        formatter.write_paragraph()
        for line in _workload_help().splitlines():
            formatter.write_text(line) if line != "\b" else None


@click.command("run", cls=_RunCommand, context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.option("-w", "--workload", "workloads", multiple=True, metavar="NAME",
              help="Workload to run (repeatable): a built-in name or FILE.py:NAME. Default: all built-in.")
@click.option("--full", is_flag=True, help="Use the seed questions' exact sizes (slow: minutes).")
@click.option("--budget", type=click.FloatRange(min=0), default=10.0, show_default=True,
              help="Seconds of interleaved timing per workload.")
@click.option("--timeout", type=click.FloatRange(min=1), default=1800.0, show_default=True,
              help="Seconds before a workload's worker is stopped and reported as timed out.")
@click.option("--isolation", type=click.Choice(["framework", "candidate"]), default="framework", show_default=True,
              help="Worker processes for the candidates: one per framework, or one per candidate.")
@click.option("--in-process", is_flag=True,
              help="Run every candidate in this process (for debugging; frameworks' thread pools then share it).")
@click.option("--diagnose/--no-diagnose", default=True, show_default=True,
              help="Run levelbench.explain on each JAX candidate and show its findings beside the numbers.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write all results as JSON to this file ('-' for stdout).")
@db_option
@click.option("--no-save", is_flag=True, help="Do not record this run in the results database.")
@click.option("--cluster", type=click.Choice(["ray"]), default=None,
              help="Run each unit of the sweep on a node of a Ray cluster, one unit per node at a time "
                   "(pip install 'levelbench[ray]'; docs/cluster.md).")
@click.option("--address", metavar="HOST:PORT", default=None,
              help="With --cluster ray: the cluster's address (default: RAY_ADDRESS, or a head on this machine).")
@click.option("--on", "on_kind", metavar="KIND", default=None,
              help="With --cluster: only nodes of this kind (part of its CPU/accelerator name).")
@click.option("--every-kind", is_flag=True,
              help="With --cluster: run the whole sweep on every kind of node, to compare machines.")
@click.pass_context
def run_command(ctx: click.Context, workloads: tuple[str, ...], full: bool, budget: float, timeout: float,
                isolation: str, in_process: bool, diagnose: bool, json_path: str | None, db: str | None,
                no_save: bool, cluster: str | None, address: str | None, on_kind: str | None,
                every_kind: bool) -> None:
    """Run workloads: candidates checked equal, then timed interleaved; one table per workload.

    Each framework's candidates run in a worker process of their own, so no framework's thread
    pools slow another's; this process hands out the turns, one block of samples at a time, and
    waits before each block until no helper thread of any worker runs.

    \b
    Examples:
      levelbench run                                  # both seed workloads, about a minute
      levelbench run --workload matmul --n 1000 --dtype float64
      levelbench run --workload gru --seq 25,50,100   # a sweep, recorded as one run
      levelbench run --workload gru --mode train
      levelbench run --full                           # the questions' exact sizes
    """
    from ..workloads import load

    try:
        chosen = [load(w) for w in (workloads or ("matmul", "gru"))]
        specs = [w if ":" in w else chosen[i].name for i, w in enumerate(workloads or ("matmul", "gru"))]
        overrides = _parse_overrides(ctx.args)
        jobs = _jobs(chosen, specs, overrides, full, budget, diagnose, isolation)
    except (LookupError, ValueError) as e:
        raise click.UsageError(str(e.args[0] if e.args else e)) from None
    if cluster is None and (address or on_kind or every_kind):
        raise click.UsageError("--address, --on and --every-kind choose nodes of a cluster: add --cluster ray")
    if cluster is not None and in_process:
        raise click.UsageError("--in-process runs here; it cannot be combined with --cluster")
    results_of, cluster_facts = _on_cluster(jobs, address, on_kind, every_kind, timeout) if cluster else (None, None)

    store, run_id = _open_run(db, no_save, cluster_facts)
    results: list[WorkloadResult] = []
    status = "ok"
    from .._rendering.terminal import console as make_console

    console = make_console()
    try:
        produced = results_of(console) if results_of else _with_progress(console, jobs, in_process, timeout)
        for result in produced:
            results.append(result)
            if store is not None:
                store.add_result(run_id, result)
            _print_result(console, result)
            if result.status == "interrupted":
                status = "interrupted"
    except KeyboardInterrupt:
        status = "interrupted"
    finally:
        if store is not None:
            store.end_run(run_id, status=status)
    if status == "interrupted":
        console.print(f"[yellow]interrupted: {sum(r.status == 'ok' for r in results)} workload(s) finished "
                      "and are shown above" + (" and recorded" if store else "") + "[/yellow]")
    if store is not None:
        console.print(f"[dim]recorded as run {run_id} in {store.path}[/dim]")
    if json_path:
        doc = json.dumps({"format": "levelbench.run", "version": 1, "results": [r.to_dict() for r in results]},
                         indent=2, default=str)
        if json_path == "-":
            click.echo(doc)
        else:
            with open(json_path, "w") as f:
                f.write(doc)
    if status == "interrupted":
        sys.exit(INTERRUPTED)
    if any(r.status in ("failed", "timeout") for r in results):
        sys.exit(FINDINGS)


def _parse_overrides(args: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    it = iter(args)
    for arg in it:
        if not arg.startswith("--"):
            raise ValueError(f"unexpected argument {arg!r}: workload parameters are given as --name VALUE")
        name, eq, value = arg[2:].partition("=")
        if not eq:
            value = next(it, None)
            if value is None:
                raise ValueError(f"--{name} needs a value")
        out[name.replace("-", "_")] = [v for v in value.split(",") if v != ""]
    return out


def _jobs(workloads: list[Any], specs: list[str], overrides: dict[str, list[str]], full: bool,
          budget: float, diagnose: bool = True, isolation: str = "framework") -> list[Job]:
    known = {p.name for w in workloads for p in w.all_params}
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise ValueError(f"unknown parameter(s) {', '.join('--' + u for u in unknown)} for "
                         f"{', '.join(w.name for w in workloads)}; see levelbench run --help")
    jobs = []
    for w, spec in zip(workloads, specs):
        base = w.defaults(full=full)
        axes = {name: [w.param(name).parse(v) for v in values]
                for name, values in overrides.items() if name in {p.name for p in w.all_params}}
        for combo in itertools.product(*axes.values()):
            jobs.append(Job(spec, {**base, **dict(zip(axes, combo))}, budget, diagnose, isolation))
    return jobs


def _open_run(db: str | None, no_save: bool, cluster: dict[str, Any] | None = None) -> tuple[Any, Any]:
    if no_save:
        return None, None
    from .._measuring.environment import collect
    from ..store import StoreError, open_store

    environment = collect() | ({"cluster": cluster} if cluster else {})
    try:
        store = open_store(db)
        return store, store.begin_run(kind="run", argv=sys.argv[1:], environment=environment)
    except StoreError as e:
        click.echo(f"levelbench run: {e}", err=True)
        sys.exit(USAGE)


def _with_progress(console: Any, jobs: list[Job], in_process: bool, timeout: float) -> Any:
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(), console=console,
                  transient=True) as bar:
        tasks = {id(j): bar.add_task(_job_label(j), total=1.0, start=False) for j in jobs}

        def report(job: Job, stage: str, fraction: float) -> None:
            task = tasks[id(job)]
            bar.start_task(task)
            bar.update(task, completed=fraction, description=f"{_job_label(job)}: {stage}")

        for job, result in zip(jobs, run_jobs(jobs, in_process=in_process, timeout=timeout, progress=report)):
            bar.update(tasks[id(job)], completed=1.0, description=f"{_job_label(job)}: {result.status}")
            yield result


def _on_cluster(jobs: list[Job], address: str | None, on_kind: str | None, every_kind: bool,
                timeout: float) -> tuple[Any, dict[str, Any]]:
    """Connect and choose the nodes now (a usage error before anything is recorded), run later."""
    from ..cluster import ClusterError, connect, describe_kinds, discover_nodes, select_nodes

    try:
        ray = connect(address)
        groups = select_nodes(discover_nodes(ray), on_kind, every_kind)
    except ClusterError as e:
        click.echo(f"levelbench run: {e}", err=True)
        sys.exit(USAGE)
    nodes = [n for group in groups.values() for n in group]
    click.echo(f"cluster: {len(jobs)} unit(s) x {len(groups)} kind(s) on {len(nodes)} node(s): "
               f"{describe_kinds(nodes)}", err=True)
    facts = {"address": address or "auto", "nodes": [n.to_dict() for n in nodes]}
    return (lambda console: _with_cluster_progress(console, ray, jobs, groups, timeout)), facts


def _with_cluster_progress(console: Any, ray: Any, jobs: list[Job], groups: Any, timeout: float) -> Any:
    """The cluster's results as they finish, with one bar per node counting the units it has done."""
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ..cluster import run_on_ray

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as bar:
        total = bar.add_task("all nodes", total=len(jobs) * len(groups))
        per_node = {n.id: bar.add_task(escape(n.label), total=None) for group in groups.values() for n in group}

        def event(e: Any) -> None:
            task = per_node[e.node.id]
            if e.what == "started":
                bar.update(task, description=f"{escape(e.node.label)}: {escape(_job_label(e.job))}")
            elif e.what == "finished":
                bar.update(task, advance=1, description=escape(e.node.label))
                bar.update(total, advance=1)
            else:
                bar.update(task, description=f"{escape(e.node.label)}: lost, unit retried elsewhere")

        yield from run_on_ray(ray, jobs, groups, timeout=timeout, on_event=event)


def _job_label(job: Job) -> str:
    return job.workload


def _print_result(console: Any, result: WorkloadResult) -> None:
    if result.status == "ok" and result.comparison is not None:
        console.print(result.comparison)
        console.print()
        return
    from rich.markup import escape

    params = ", ".join(f"{k}={v}" for k, v in result.params.items())
    console.print(f"[bold red]{escape(result.workload)} ({escape(params)}): {result.status}[/bold red]")
    console.print(escape(result.error))
    console.print()
