"""``levelbench merge``: results databases from several hosts combined into one, all or nothing."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from .._values.signals import interrupts_held
from .common import INTERRUPTED, fail, stop_on_signals

if TYPE_CHECKING:
    from ..store import Merged


@click.command("merge")
@click.argument("sources", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="The database to merge into (created if missing; its own runs are kept).")
def merge_command(sources: tuple[str, ...], output: str) -> None:
    """Merge results databases into OUTPUT: every run copied under a new id, sources left untouched.

    For hosts that ran `levelbench run` on their own (without --cluster): copy their
    .levelbench/results.db files to one place and merge them; `levelbench history --db OUT`
    then lists every run with the machine it ran on, in the order they started. A run already in
    OUTPUT is skipped, so merging a file twice adds nothing; a run that was still being recorded
    when it was merged is brought up to date by merging again. Sources must be at this
    levelbench's schema version.

    All or nothing: if a source cannot be merged, or the merge is stopped (Ctrl-C, SIGTERM,
    SIGHUP), OUTPUT is left as it was (or not created).

    \b
    Examples:
      levelbench merge hostA.db hostB.db -o all.db
      levelbench history --db all.db
    """
    existed, written = Path(output).exists(), False
    try:
        with stop_on_signals():
            from ..store import prepare_merge  # here: a signal during the import is a stop like any other

            with prepare_merge(output, sources) as pending:
                with interrupts_held() as caught:  # made visible and reported as one step
                    pending.commit()
                    written = True
                    _report(pending.merged, output)
                if caught:
                    raise caught[0]
    except KeyboardInterrupt as e:
        why = str(e) or "Ctrl-C"
        if written:
            fail(f"levelbench merge: interrupted ({why}) after {output} was written", INTERRUPTED)
        kept = "is as it was" if existed else "was not created"
        fail(f"levelbench merge: interrupted ({why}): nothing was written, {output} {kept}", INTERRUPTED)
    except Exception as e:
        from ..store import StoreError

        if not isinstance(e, StoreError):
            raise
        fail(f"levelbench merge: {e}")


def _report(merged: list[Merged], output: str) -> None:
    for m in merged:
        also = "".join(f", {n} {what}" for n, what in ((m.updated, "brought up to date"),
                                                       (m.skipped, "already there")) if n)
        click.echo(f"{m.source}: {m.runs} run(s), {m.results} result(s) merged{also}")
        for run_id in m.running:
            click.echo(f"{m.source}: run {run_id} is still running: left out; merge it again when it ends")
        for run_id, host in m.unfinished:
            click.echo(f"{m.source}: run {run_id} had not ended (running on {host}): merged as far as it got; "
                       "merge again after it ends to bring the rest")
    click.echo(f"wrote {output}")
