"""``levelbench merge``: results databases from several hosts combined into one."""

from __future__ import annotations

import click

from .common import fail


@click.command("merge")
@click.argument("sources", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="The database to merge into (created if missing; its own runs are kept).")
def merge_command(sources: tuple[str, ...], output: str) -> None:
    """Merge results databases into OUTPUT: every run copied under a new id, sources left untouched.

    For hosts that ran `levelbench run` on their own (without --cluster): copy their
    .levelbench/results.db files to one place and merge them; `levelbench history --db OUT`
    then lists every run with the machine it ran on. A run already in OUTPUT is skipped, so
    merging a file twice adds nothing. Sources must be at this levelbench's schema version.

    \b
    Examples:
      levelbench merge hostA.db hostB.db -o all.db
      levelbench history --db all.db
    """
    from ..store import StoreError, open_store
    from ..store._merge import merge_into

    try:
        with open_store(output) as store:
            merged = merge_into(store, sources)
    except StoreError as e:
        fail(f"levelbench merge: {e}")
    for m in merged:
        skipped = f", {m.skipped} already there" if m.skipped else ""
        click.echo(f"{m.source}: {m.runs} run(s), {m.results} result(s) merged{skipped}")
    click.echo(f"wrote {output}")
