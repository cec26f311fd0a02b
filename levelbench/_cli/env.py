"""``levelbench env``: the environment levelbench records with each result, with both peaks."""

from __future__ import annotations

import click

from .common import choose_output, emit, format_option, json_flag_option, output_option, show_text


@click.command("env")
@format_option()
@output_option()
@json_flag_option()
@click.option("--with", "frameworks", multiple=True, type=click.Choice(["jax", "torch"]),
              help="Import a framework first so its devices and settings are included.")
@click.option("--peak", "measure", is_flag=True,
              help="Measure the practical peak FLOP/s again (a few seconds, in a process of its own) and cache it.")
def env_command(fmt: str, output: str | None, json_flag: bool, frameworks: tuple[str, ...], measure: bool) -> None:
    """Show the environment levelbench records with each result, the CPU's theoretical peak FLOP/s and
    the practical peak (what the BLAS reaches) with when it was measured."""
    import json

    from .._measuring.peak import environment_with_peak

    fmt, output = choose_output("env", fmt, output, json_flag=json_flag)
    env = environment_with_peak(frameworks, refresh=measure)
    if fmt == "json":
        emit("env", output, json.dumps(env, indent=2, default=str))
        return
    from .._rendering.environment import render_environment

    show_text("env", output, render_environment(env))
