"""Suppression comments: ``# noqa`` as every Python linter reads it, levelbench's own ``# levelbench: ignore[...]``,
and the file-level ``# levelbench: ignore-file[...]``; ``--fix`` leaves suppressed findings alone."""

from __future__ import annotations

import json

import pytest

from conftest import levelbench_cli
from levelbench.doctor import fix_source, lint_source

# line 3: LB109 (np.random.normal((4, 4))); line 5: LB105 (time.time())
SCRIPT = "import numpy as np\nimport time\nx = np.random.normal((4, 4)){c3}\nfor _ in range(2):\n" \
         "    t0 = time.time(){c5}\n    np.linalg.inv(x)\n    print(time.time() - t0)\n"


def codes(c3: str = "", c5: str = "", head: str = "") -> list[str]:
    return [d.code for d in lint_source(head + SCRIPT.format(c3=c3, c5=c5), "b.py")]


def test_without_comments_both_findings_are_reported():
    assert codes() == ["LB109", "LB105"]


@pytest.mark.parametrize(
    "comment",
    ["  # noqa", "  # noqa: LB109", "  #noqa:LB109", "  # NOQA: E501, LB109", "  # noqa: LB10",
     "  # noqa: LB109 explained here", "  # levelbench: ignore[LB109]", "  # levelbench: ignore",
     "  # type: ignore  # noqa: LB109"],
)
def test_a_comment_on_the_line_silences_it(comment):
    assert codes(c3=comment) == ["LB105"]


@pytest.mark.parametrize("comment", ["  # noqa: E501", "  # noqa: LB105", "  # levelbench: ignore[LB105]",
                                     "  # levelbench: ignore-file[LB105]", "  # noqa-ish"])
def test_a_comment_for_other_codes_leaves_it(comment):
    assert "LB109" in codes(c3=comment)


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        ("# levelbench: ignore-file\n", []),
        ("# levelbench: ignore-file[LB109]\n", ["LB105"]),
        ("# levelbench: ignore-file[LB105, LB109]\n", []),
        ("# levelbench: ignore-file[LB11]\n", ["LB109", "LB105"]),
        ("  # Levelbench: Ignore-File[lb105]\n", ["LB109"]),
        ('"""# levelbench: ignore-file"""\n', ["LB109", "LB105"]),  # not a comment of its own
        ("x = 1  # levelbench: ignore-file\n", ["LB109", "LB105"]),
    ],
)
def test_a_file_level_comment_silences_the_whole_file(head, expected):
    assert codes(head=head) == expected


def test_in_a_notebook_a_file_level_comment_in_any_cell_covers_every_cell():
    cells = [
        {"cell_type": "code", "metadata": {}, "outputs": [], "source": ["import numpy as np\n", "x = np.random.normal((4, 4))"]},
        {"cell_type": "markdown", "metadata": {}, "source": ["# levelbench: ignore-file (markdown: does not count)"]},
        {"cell_type": "code", "metadata": {}, "outputs": [], "source": ["y = np.random.normal((2, 2))  # noqa: LB109"]},
    ]
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    assert [(d.location.cell, d.code) for d in lint_source(json.dumps(notebook), "n.ipynb")] == [(1, "LB109")]
    cells.append({"cell_type": "code", "metadata": {}, "outputs": [], "source": ["# levelbench: ignore-file[LB109]"]})
    assert lint_source(json.dumps(notebook), "n.ipynb") == ()


def test_fix_does_not_touch_what_is_suppressed():
    text = SCRIPT.format(c3="  # noqa: LB109", c5="")
    fixed = fix_source(text, "b.py").text
    assert "normal((4, 4))  # noqa: LB109" in fixed and "time.perf_counter()" in fixed
    whole = "# levelbench: ignore-file[LB105]\n" + SCRIPT.format(c3="", c5="")
    fixed_whole = fix_source(whole, "b.py").text
    assert "normal(size=(4, 4))" in fixed_whole and "time.time()" in fixed_whole and "perf_counter" not in fixed_whole


def test_the_command_line_honours_noqa_and_ignore_file(tmp_path):
    (tmp_path / "a.py").write_text(SCRIPT.format(c3="  # noqa", c5="  # noqa: LB105"))
    (tmp_path / "b.py").write_text("# levelbench: ignore-file\n" + SCRIPT.format(c3="", c5=""))
    run = levelbench_cli("doctor", "--fail-on", "info", str(tmp_path))
    assert run.returncode == 0 and "No findings in 2 files." in run.stdout, run.stdout + run.stderr
    diff = levelbench_cli("doctor", "--diff", str(tmp_path))
    assert diff.returncode == 0 and diff.stdout == ""
