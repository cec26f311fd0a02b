"""``levelbench doctor`` as a user runs it: a subprocess, its exit status, stdout and stderr."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from levelbench._values.catalogue import rules_markdown

ROOT = Path(__file__).resolve().parents[1]
SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
GOOD = Path(__file__).resolve().parent / "doctor_cases" / "good"


def doctor(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "levelbench", "doctor", *args],
        capture_output=True, text=True, input=stdin, cwd=ROOT, timeout=120,
    )


def seeds() -> Path:
    if not (SEEDS / "002_dot_question.py").is_file() or not (SEEDS / "000_gru_question.ipynb").is_file():
        pytest.skip("the seed files (../shared/seeds) are not available")
    return SEEDS


def test_seed_files_get_every_expected_finding_at_the_right_place():
    run = doctor(str(seeds() / "002_dot_question.py"), str(seeds() / "000_gru_question.ipynb"), "--format", "json")
    assert run.returncode == 1, run.stderr
    report = json.loads(run.stdout)
    got = {(Path(f["path"]).name, f["cell"], f["line"], f["column"], f["code"]) for f in report["findings"]}
    assert got == {
        # 002_dot_question.py, the script as posted
        ("002_dot_question.py", None, 2, 25, "LB113"),  # from jax import random, jix
        ("002_dot_question.py", None, 9, 44, "LB108"),  # dtype=jnp.float64 without x64
        ("002_dot_question.py", None, 11, 7, "LB105"),  # start=time.time()
        ("002_dot_question.py", None, 12, 1, "LB104"),  # one sample of jnp.dot, no warm-up (it IS blocked: no LB102)
        ("002_dot_question.py", None, 15, 21, "LB109"),  # np.random.normal((size,size)): loc, not size
        ("002_dot_question.py", None, 17, 7, "LB105"),
        ("002_dot_question.py", None, 18, 1, "LB104"),  # one sample of np.dot
        ("002_dot_question.py", None, 18, 9, "LB110"),  # np.dot(x2, x2.T): SYRK
        # 000_gru_question.ipynb, cells numbered from 1
        ("000_gru_question.ipynb", 1, 63, 5, "LB107"),  # def forward: returns nothing
        ("000_gru_question.ipynb", 1, 68, 5, "LB106"),  # for x in X: inside the jitted forward
        ("000_gru_question.ipynb", 2, 2, 7, "LB114"),  # %time forward(...): the un-jitted loop, op by op
        ("000_gru_question.ipynb", 3, 2, 7, "LB102"),  # %time jitted_forward(...): not blocked
        # (no LB103 there: its cell's `# compile time` says the compile is what it times, levelbench._values.intent)
        ("000_gru_question.ipynb", 4, 2, 9, "LB102"),  # %timeit jitted_forward(...): not blocked
        ("000_gru_question.ipynb", 5, 2, 9, "LB101"),  # %timeit lambda: rnn_torch(Xt)
        ("000_gru_question.ipynb", 5, 2, 17, "LB112"),  # rnn_torch with autograd on
    }
    assert report["summary"] == {"info": 2, "warning": 7, "error": 6}


def test_text_output_shows_the_source_line_and_a_caret():
    run = doctor(str(seeds() / "002_dot_question.py"), "--select", "LB113", "--no-color")
    assert run.returncode == 1 and run.stderr == ""
    lines = run.stdout.splitlines()
    assert lines[0].endswith("002_dot_question.py:2:25: LB113 `jix` is not in `jax` (installed jax "
                             + lines[0].split("installed jax ")[1].split(")")[0]
                             + "): this import raises ImportError; did you mean `jit`?")
    assert lines[1] == "    2 | from jax import random, jix"
    assert lines[2] == "      |                         ^^^"
    assert "Found 1 finding (1 error) in 1 file." in run.stdout


def test_correct_benchmarks_get_no_findings():
    run = doctor(str(GOOD))
    assert (run.returncode, run.stderr) == (0, ""), run.stdout
    assert run.stdout.strip() == f"No findings in {len(list(GOOD.iterdir()))} files."


def test_the_doctor_on_this_project_finds_nothing_in_itself_crashes_nowhere_and_imports_no_framework():
    code = (
        "import sys\nfrom levelbench.doctor import lint_paths\n"
        "own = lint_paths(['levelbench/doctor', 'tests/doctor_cases/good', 'tests/test_doctor_rules.py',"
        " 'tests/test_doctor_inputs.py', 'tests/test_doctor_cli.py'])\n"
        "assert not own.diagnostics, [str(d) for d in own.diagnostics]\n"
        "everything = lint_paths(['levelbench'])\n"
        "assert not [d for d in everything.diagnostics if d.code == 'LB100'], [str(d) for d in everything.diagnostics]\n"
        "print(sorted(m for m in ('jax', 'torch', 'flax', 'matplotlib') if m in sys.modules))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert (run.returncode, run.stdout.strip()) == (0, "[]"), run.stderr


def test_sarif_output_is_a_valid_looking_sarif_log():
    # the schema check itself is in test_doctor_formats.py; here, what a code-scanning UI shows
    run = doctor(str(seeds() / "000_gru_question.ipynb"), "--format", "sarif")
    assert run.returncode == 1
    log = json.loads(run.stdout)
    assert log["version"] == "2.1.0" and len(log["runs"]) == 1
    driver = log["runs"][0]["tool"]["driver"]
    assert [r["id"] for r in driver["rules"]] == [f"LB1{n:02d}" for n in range(19)]
    result = next(r for r in log["runs"][0]["results"] if r["ruleId"] == "LB101")
    assert driver["rules"][result["ruleIndex"]]["id"] == "LB101" and result["level"] == "error"
    assert result["message"]["text"].startswith("cell 5: ") and result["properties"]["cell"] == 5
    assert (result["properties"]["cellLine"], result["properties"]["cellColumn"]) == (2, 9)
    # the region is where cell 5's line 2 is in the .ipynb file's own text, not line 2 of the file
    region = result["locations"][0]["physicalLocation"]["region"]
    file_line = (seeds() / "000_gru_question.ipynb").read_text().splitlines()[region["startLine"] - 1]
    assert file_line[region["startColumn"] - 1:].startswith("lambda: rnn_torch(Xt)")


def test_concise_format_select_ignore_and_fail_on():
    path = str(seeds() / "002_dot_question.py")
    concise = doctor(path, "--format", "concise", "--select", "LB104,LB105")
    assert [line.split(": ")[1].split(" ")[0] for line in concise.stdout.splitlines() if ".py:" in line] == ["LB105", "LB104", "LB105", "LB104"]
    assert doctor(path, "--select", "LB105").returncode == 0  # info only, below the default --fail-on warning
    assert doctor(path, "--ignore", "LB104", "--ignore", "LB11,LB10", "--fail-on", "info").returncode == 0


def test_usage_errors_exit_2_with_a_message():
    unknown = doctor("x.py", "--select", "LB999")
    assert unknown.returncode == 2 and "unknown rule code 'LB999'" in unknown.stderr
    missing = doctor()
    assert missing.returncode == 2 and "no PATH given" in missing.stderr


def test_explain_and_list_rules():
    explained = doctor("--explain", "lb106")
    assert explained.returncode == 0
    assert explained.stdout.startswith("LB106 python-loop-under-jit (warning, doctor)") and "jax.lax.scan(step, h, xs)" in explained.stdout
    listed = doctor("--list-rules")
    assert [line.split()[0] for line in listed.stdout.splitlines()] == [f"LB1{n:02d}" for n in range(19)]


def test_bad_inputs_give_one_line_each_on_stderr_and_never_a_traceback(tmp_path):
    (tmp_path / "broken.ipynb").write_text("{")
    (tmp_path / "syntax.py").write_text("x = (\n")
    (tmp_path / "blob.py").write_bytes(bytes(range(256)))
    (tmp_path / "ok.py").write_text("import numpy as np\nx = np.random.normal((2, 2))\n")
    run = doctor(str(tmp_path / "broken.ipynb"), str(tmp_path / "syntax.py"), str(tmp_path / "blob.py"), str(tmp_path / "nope.py"), str(tmp_path / "ok.py"), "--no-color")
    assert run.returncode == 1
    assert "Traceback" not in run.stderr + run.stdout
    errors = run.stderr.splitlines()
    assert len(errors) == 4 and all(": LB100 " in line for line in errors)
    assert [Path(line.split(":")[0]).name for line in errors] == ["broken.ipynb", "syntax.py", "blob.py", "nope.py"]
    assert "ok.py:2:22: LB109" in run.stdout


def test_standard_input_as_a_script_or_a_notebook():
    script = doctor("-", "--format", "concise", stdin="import numpy as np\nx = np.random.normal((2, 2))\n")
    assert script.returncode == 1 and script.stdout.startswith("<stdin>:2:22: LB109")
    notebook = json.dumps({"cells": [{"cell_type": "code", "source": "import torch\nm = torch.nn.Linear(2, 2)\nx = torch.ones(2)\n%timeit m(x)"}], "metadata": {}})
    nb_run = doctor("-", "--stdin-filename", "mine.ipynb", "--format", "concise", stdin=notebook)
    assert nb_run.stdout.startswith("mine.ipynb:cell_1:4:9: LB112")


def test_show_fixes_prints_the_rewrite_with_the_scripts_names():
    run = doctor(str(seeds() / "000_gru_question.ipynb"), "--select", "LB106", "--show-fixes", "--no-color")
    assert "(carry_gru1, carry_gru2), Yhat = jax.lax.scan(step, (carry_gru1, carry_gru2), X)" in run.stdout


def test_the_rules_are_documented_once_in_the_generated_reference_and_the_guide_links_there():
    reference = (ROOT / "docs" / "reference" / "codes.md").read_text()
    assert rules_markdown() in reference, "regenerate docs/reference/codes.md: make codes"
    guide = (ROOT / "docs" / "guide" / "doctor.md").read_text()
    assert "../reference/codes.md#lb1xx-doctor" in guide
    assert "### LB106" not in guide, "the rules' sections belong to the reference only, not a second copy in the guide"
