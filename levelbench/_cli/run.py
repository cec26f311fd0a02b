"""``levelbench run``: workloads side by side, each in its own worker process, with a progress bar."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from .._recording import label
from ..workloads.run import Job, run_jobs
from .._results.workload import WorkloadResult
from rich.markup import escape

from .._values.signals import signals_named
from .common import (FINDINGS, INTERRUPTED, OK, USAGE, choose_output, db_option, fail, format_option,
                     json_path_option, output_option, stop_on_signals, write_output)


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
              help="Workload to run (repeatable): a built-in name, or FILE.py:NAME (FILE.py::NAME and "
                   "package.module:NAME work too). Default: all built-in.")
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
@click.option("-v", "--verbose", is_flag=True,
              help="Under each table, every finding with its evidence, cost and fix, and how the candidates were "
                   "kept apart (default: only the findings that change the conclusion, one line each).")
@format_option(help="What -o receives: text (the tables, as shown) or json (every result, raw samples included). "
                    "With json on standard output, the tables go to stderr.")
@output_option(help="Write the results in --format to PATH, whole or not at all; the tables still show here "
                    "(default or '-': standard output).")
@json_path_option()
@db_option
@click.option("--no-save", is_flag=True, help="Do not record this run in the results database.")
@click.option("--cluster", type=click.Choice(["ray"]), default=None,
              help="Run each unit of the sweep on a node of a Ray cluster, one unit per node at a time "
                   "(pip install 'levelbench[ray]'; docs/guide/cluster.md).")
@click.option("--address", metavar="HOST:PORT", default=None,
              help="With --cluster ray: the cluster's address (default: RAY_ADDRESS, or a head on this machine).")
@click.option("--on", "on_kind", metavar="KIND", default=None,
              help="With --cluster: only nodes of this kind (part of its CPU/accelerator name).")
@click.option("--every-kind", is_flag=True,
              help="With --cluster: run the whole sweep on every kind of node, to compare machines.")
@click.pass_context
def run_command(ctx: click.Context, workloads: tuple[str, ...], full: bool, budget: float, timeout: float,
                isolation: str, in_process: bool, diagnose: bool, verbose: bool, fmt: str, output: str | None,
                json_path: str | None, db: str | None, no_save: bool, cluster: str | None, address: str | None,
                on_kind: str | None, every_kind: bool) -> None:
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
      levelbench run -v --format json -o run.json     # every finding here, every number in run.json
    """
    if cluster is None and (address or on_kind or every_kind):
        raise click.UsageError("--address, --on and --every-kind choose nodes of a cluster: add --cluster ray")
    if cluster is not None and in_process:
        raise click.UsageError("--in-process runs here; it cannot be combined with --cluster")
    fmt, output = choose_output("run", fmt, output, json_path=json_path)
    with stop_on_signals():
        _run(ctx.args, workloads or ("matmul", "gru"), full, budget, timeout, isolation, in_process, diagnose,
             (fmt, output, verbose), db, no_save, (cluster, address, on_kind, every_kind))


def _run(args: list[str], specs: tuple[str, ...], full: bool, budget: float, timeout: float, isolation: str,
         in_process: bool, diagnose: bool, out: tuple[str, str, bool], db: str | None, no_save: bool,
         cluster: tuple[str | None, str | None, str | None, bool]) -> None:
    """`levelbench.run_workloads`'s steps (plan, record, outcome), with tables, progress bars and exit codes."""
    from .._rendering.terminal import console as make_console
    from ..store import StoreError
    from .._runs import open_run, record_run
    from ..workloads.plan import plan_run
    from ..workloads.run import PlanError

    fmt, output, verbose = out
    # With JSON on stdout, stdout carries the JSON alone: the tables and messages go to stderr.
    console = make_console(stderr=fmt == "json" and output == "-")
    try:
        jobs, unloaded = plan_run(specs, _overrides(args), full=full, budget=budget, diagnose=diagnose,
                                  isolation=isolation, timeout=timeout)
    except PlanError as e:
        fail(f"levelbench run: {e}")
    except KeyboardInterrupt:
        fail("levelbench run: interrupted before any workload ran; nothing was recorded", INTERRUPTED)
    seen: list[str] = []  # Ray raises a bare KeyboardInterrupt from its calls: which signal it was
    try:
        with signals_named(seen):
            results_of, cluster_facts = _on_cluster(jobs, *cluster[1:], timeout) if cluster[0] else (None, None)
    except KeyboardInterrupt as e:
        why = e.args[0] if e.args else (seen[0] if seen else "Ctrl-C")
        fail(f"levelbench run: interrupted ({why}) while connecting to the cluster; nothing was recorded", INTERRUPTED)
    store, run_id = None, None
    if not no_save:
        try:
            store, run_id = open_run(db, sys.argv[1:], cluster_facts)
        except StoreError as e:
            click.echo(f"levelbench run: {e}", err=True)
            sys.exit(USAGE)
    produced = results_of(console) if results_of else _with_progress(console, jobs, in_process, timeout)
    outcome = record_run(produced, jobs, store, run_id, unloaded=unloaded,
                         on_result=lambda result: _print_result(console, result, verbose))
    status, results, not_run = outcome.status, outcome.results, outcome.not_run
    if status == "interrupted":
        code = INTERRUPTED
    elif outcome.crashed:
        code = USAGE if outcome.store_error else FINDINGS
    else:
        code = OK if status == "ok" else FINDINGS
    if status == "interrupted":
        console.print(f"[yellow]interrupted: {sum(r.status == 'ok' for r in results)} workload(s) finished "
                      "and are shown above" + (" and recorded" if store else "") + "[/yellow]")
    if not_run and status != "ok":
        console.print(f"[yellow]not run: {escape(', '.join(label(j) for j in not_run))}[/yellow]")
    # What went wrong is one line on stderr, saying how the run now reads in the store.
    abandoned = f"`levelbench history` will show run {run_id} as abandoned"
    if outcome.crashed and outcome.unrecorded:
        click.echo(f"levelbench run: {outcome.error}; its end could not be recorded either: {abandoned}", err=True)
    elif outcome.crashed:
        click.echo(f"levelbench run: {outcome.error}" + (f"; recorded as run {run_id} (failed)" if store else ""),
                   err=True)
    elif outcome.unrecorded:
        click.echo(f"levelbench run: could not record the end of run {run_id} ({outcome.unrecorded}): {abandoned}",
                   err=True)
    if store is not None and not outcome.crashed and not outcome.unrecorded:
        console.print(f"[dim]recorded as run {run_id} ({status}) in {escape(str(store.path))}[/dim]")
    if fmt == "json":
        doc = json.dumps({"format": "levelbench.run", "version": 1, "status": status,
                          "results": [r.to_dict() for r in results]}, indent=2, default=str)
        write_output(output, doc, "levelbench run -o")
    elif output != "-":
        from .._values.display import plain

        text = "\n\n".join(plain(_result_renderable(r, verbose), width=160) for r in results)
        write_output(output, text + "\n", "levelbench run -o")
    sys.exit(code)


def _overrides(args: list[str]) -> dict[str, list[str] | None]:
    try:
        return _parse_overrides(args)
    except ValueError as e:
        fail(f"levelbench run: {e}")


def _parse_overrides(args: list[str]) -> dict[str, list[str] | None]:
    """``--name VALUE`` / ``--name=V1,V2`` pairs; a name with no value maps to None (said later,
    once it is known whether the name is a parameter at all)."""
    out: dict[str, list[str] | None] = {}
    i = 0
    while i < len(args):
        arg = args[i]
        if not arg.startswith("--") or arg == "--":
            raise ValueError(f"unexpected argument {arg!r}: workload parameters are given as --name VALUE")
        name, eq, value = arg[2:].partition("=")
        if not eq:
            following = args[i + 1] if i + 1 < len(args) else None
            if following is None or (following.startswith("--") and len(following) > 2):
                out[name.replace("-", "_")] = None
                i += 1
                continue
            value, i = following, i + 1
        out[name.replace("-", "_")] = [v for v in value.split(",") if v != ""]
        i += 1
    return out


def _with_progress(console: Any, jobs: list[Job], in_process: bool, timeout: float) -> Any:
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    # The descriptions hold the user's text (paths, names): plain text, never markup or emoji codes.
    with Progress(TextColumn("{task.description}", markup=False), BarColumn(), TimeElapsedColumn(), console=console,
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
    from ..cluster import ClusterError, describe_kinds
    from .._runs import choose_nodes

    try:
        nodes = choose_nodes(address, on_kind, every_kind)
    except ClusterError as e:
        click.echo(f"levelbench run: {e}", err=True)
        sys.exit(USAGE)
    click.echo(f"cluster: {len(jobs)} unit(s) x {len(nodes.groups)} kind(s) on {len(nodes.nodes)} node(s): "
               f"{describe_kinds(nodes.nodes)}", err=True)
    return (lambda console: _with_cluster_progress(console, nodes, jobs, timeout)), nodes.facts


def _with_cluster_progress(console: Any, nodes: Any, jobs: list[Job], timeout: float) -> Any:
    """The cluster's results as they finish, with one bar per node counting the units it has done."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console, transient=True) as bar:
        total = bar.add_task("all nodes", total=len(jobs) * len(nodes.groups))
        per_node = {n.id: bar.add_task(n.label, total=None) for n in nodes.nodes}

        def event(e: Any) -> None:
            task = per_node[e.node.id]
            if e.what == "started":
                bar.update(task, description=f"{e.node.label}: {_job_label(e.job)}")
            elif e.what == "finished":
                bar.update(task, advance=1, description=e.node.label)
                bar.update(total, advance=1)
            else:
                bar.update(task, description=f"{e.node.label}: lost, unit retried elsewhere")

        yield from nodes.run(jobs, timeout, on_event=event)


def _job_label(job: Job) -> str:
    return job.workload  # the progress bars show their descriptions as plain text


def _print_result(console: Any, result: WorkloadResult, verbose: bool = False) -> None:
    console.print(_result_renderable(result, verbose))
    console.print()


def _result_renderable(result: WorkloadResult, verbose: bool) -> Any:
    from rich.console import Group
    from rich.text import Text

    if result.status == "ok" and result.comparison is not None:
        from .._rendering.comparison import render_comparison

        return render_comparison(result.comparison, verbose=verbose)
    head = [Text(f"{label(result)}: {result.status}", style="bold red"), Text(result.error)]
    if result.comparison is not None:  # a timeout's partial comparison: what was measured before it
        from .._rendering.comparison import render_comparison

        head.append(render_comparison(result.comparison, verbose=verbose))
    return Group(*head)
