"""The ``levelbench`` command line: a thin layer over the library.

Each subcommand is a module of this package, imported only when it runs, so ``levelbench --help``
stays fast and never imports jax or torch.
"""

from __future__ import annotations

import importlib

import click

# name -> (module, attribute, one-line help shown by `levelbench --help` without importing the module)
_COMMANDS: dict[str, tuple[str, str, str]] = {
    "measure": ("levelbench._cli.measure", "measure_command", "Time one expression, framework-aware (like python -m timeit)."),
    "run": ("levelbench._cli.run", "run_command", "Run workloads side by side in JAX, PyTorch and NumPy."),
    "doctor": ("levelbench._cli.doctor", "doctor_command", "Find benchmarking and JAX-performance mistakes in scripts and notebooks."),
    "explain": ("levelbench._cli.explain", "explain_command", "Diagnose a JAX function by running it (FILE.py:NAME or FILE.py::NAME)."),
    "history": ("levelbench._cli.store", "history_command", "List recorded runs."),
    "diff": ("levelbench._cli.store", "diff_command", "Compare two recorded runs candidate by candidate."),
    "export": ("levelbench._cli.store", "export_command", "Export a recorded run as JSON, CSV, pytest-benchmark or pyperf."),
    "import": ("levelbench._cli.import_", "import_command", "Record pytest-benchmark JSON files in the results database."),
    "report": ("levelbench._cli.report", "report_command", "Write an HTML or Markdown report of recorded runs."),
    "merge": ("levelbench._cli.merge", "merge_command", "Merge results databases from several hosts into one."),
    "env": ("levelbench._cli.env", "env_command", "Show the environment levelbench records with each result."),
}


class _LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(_COMMANDS))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in _COMMANDS:
            module, attr, _ = _COMMANDS[name]
            return getattr(importlib.import_module(module), attr)
        return super().get_command(ctx, name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(n, _COMMANDS[n][2]) for n in self.list_commands(ctx) if n in _COMMANDS]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="levelbench", prog_name="levelbench")
def main() -> None:
    """levelbench: is your JAX code really slower than PyTorch / NumPy?

    Measures JAX, PyTorch and NumPy callables correctly, compares them fairly, and diagnoses
    the benchmarking mistakes and JAX patterns that make JAX look slow.

    \b
    Examples:
      levelbench run                              # the seed workloads, side by side
      levelbench run --workload matmul --n 1000
      levelbench measure 'f(x)' --setup 'import jax, jax.numpy as jnp; f = jax.jit(jnp.sin); x = jnp.ones(1000)'
      levelbench doctor my_benchmark.ipynb
    """

