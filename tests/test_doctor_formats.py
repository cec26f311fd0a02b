"""The doctor's output for other programs: SARIF checked against the official SARIF 2.1.0 schema (OASIS,
errata01, shipped in tests/data), notebook findings placed in the .ipynb file's own text, GitHub Actions
annotations, JSON Lines, and the pre-commit hook this repository offers."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import jsonschema
import pytest
import yaml

from conftest import levelbench_cli

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"
SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text())
B = "import numpy as np\nimport time\nx = np.random.normal((4, 4))\nfor _ in range(2):\n" \
    "    t0 = time.time()\n    np.linalg.inv(x)\n    print(time.time() - t0)\n"


def sarif_errors(log: dict) -> list[str]:
    validator = jsonschema.Draft4Validator(SCHEMA, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(log)]


def notebook(*sources: list[str] | str) -> dict:
    cells = [{"cell_type": "markdown", "metadata": {}, "source": ["# A title\n", "with \"quotes\"\n"]}]
    cells += [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": s} for s in sources]
    return {"cells": cells, "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
            "nbformat": 4, "nbformat_minor": 5}


def test_the_shipped_schema_is_the_official_one_and_catches_a_broken_log():
    assert SCHEMA["id"] == "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    broken = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}},
                                            "results": [{"message": {"text": "m"}, "level": "loud"}]}]}
    assert sarif_errors(broken) and sarif_errors({"runs": []})


def test_sarif_is_valid_for_scripts_notebooks_unreadable_inputs_and_no_findings(tmp_path):
    (tmp_path / "b.py").write_text(B)
    (tmp_path / "n.ipynb").write_text(json.dumps(notebook(["import numpy as np\n", "x = np.random.normal((4, 4))"]), indent=1))
    (tmp_path / "broken.ipynb").write_text("{")
    (tmp_path / "syntax.py").write_text("def f(:\n")
    run = levelbench_cli("doctor", "--format", "sarif", str(tmp_path), str(tmp_path / "missing.py"))
    log = json.loads(run.stdout)
    assert sarif_errors(log) == []
    results = log["runs"][0]["results"]
    assert sorted(r["ruleId"] for r in results) == ["LB100", "LB100", "LB100", "LB105", "LB109", "LB109"]
    stdin = subprocess.run([sys.executable, "-m", "levelbench", "doctor", "--format", "sarif", "-"], input=B,
                           capture_output=True, text=True, timeout=120)
    assert sarif_errors(json.loads(stdin.stdout)) == []
    (tmp_path / "good.py").write_text("x = 1\n")
    clean = json.loads(levelbench_cli("doctor", "--format", "sarif", str(tmp_path / "good.py")).stdout)
    assert sarif_errors(clean) == [] and clean["runs"][0]["results"] == []


def test_sarif_of_the_seed_notebook_and_script_is_valid():
    if not (SEEDS / "000_gru_question.ipynb").is_file():
        pytest.skip("the seed files (../shared/seeds) are not available")
    run = levelbench_cli("doctor", "--format", "sarif", str(SEEDS / "000_gru_question.ipynb"),
                         str(SEEDS / "002_dot_question.py"))
    assert sarif_errors(json.loads(run.stdout)) == []


@pytest.mark.parametrize("indent", [1, None])
@pytest.mark.parametrize("ensure_ascii", [True, False])
def test_notebook_regions_point_at_the_cells_source_in_the_file(tmp_path, indent, ensure_ascii):
    first = ["import numpy as np\n", "import time\n", 's = "caf\u00e9 \\"quoted\\"\\t\U0001f600"; x = np.random.normal((4, 4))\n']
    second = "for _ in range(2):\n    t0 = time.time()\n    np.linalg.inv(x)\n    print(time.time() - t0)"  # one string
    path = tmp_path / "n.ipynb"
    text = json.dumps(notebook(first, second), indent=indent, ensure_ascii=ensure_ascii)
    path.write_text(text, encoding="utf-8")
    log = json.loads(levelbench_cli("doctor", "--format", "sarif", str(path)).stdout)
    assert sarif_errors(log) == []
    results = log["runs"][0]["results"]
    assert [(r["ruleId"], r["properties"]["cell"], r["properties"]["cellIndex"]) for r in results] == [
        ("LB109", 2, 1), ("LB105", 3, 2)]
    file_lines = text.split("\n")
    sources = {2: "".join(first).split("\n"), 3: second.split("\n")}
    for result in results:
        props = result["properties"]
        region = result["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] == region["endLine"]
        raw = file_lines[region["startLine"] - 1][region["startColumn"] - 1:region["endColumn"] - 1]
        cell_line = sources[props["cell"]][props["cellLine"] - 1]
        expected = cell_line[props["cellColumn"] - 1:props["cellEndColumn"] - 1]
        assert json.loads(f'"{raw}"') == expected  # the region holds exactly the flagged code, as the file spells it
        assert expected in ("(4, 4)", "time.time()")
        assert result["message"]["text"].startswith(f"cell {props['cell']}: ")


def test_github_annotations_one_line_per_finding_escaped(tmp_path):
    folder = tmp_path / "odd, dir:1"
    folder.mkdir()
    (folder / "b.py").write_text(B)
    run = levelbench_cli("doctor", "--format", "github", "b.py", cwd=folder)
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    assert lines[0] == (
        "::error file=b.py,line=3,col=22,endLine=3,endColumn=28,title=LB109::LB109 shape `(4, 4)` is passed as `loc` "
        "of np.random.normal, not as its size: it draws 2 numbers, not an array of shape (4, 4)"
    )
    assert lines[1].startswith("::notice file=b.py,line=5,col=10,endLine=5,endColumn=21,title=LB105::LB105 ")
    assert len(lines) == 2
    outside = levelbench_cli("doctor", "--format", "github", str(folder / "b.py"), cwd=tmp_path)
    assert outside.stdout.splitlines()[0].startswith(f"::error file={tmp_path}/odd%2C dir%3A1/b.py,line=3,")


def test_github_escapes_percent_and_newlines_in_messages_and_places_notebook_findings_in_the_file(tmp_path):
    path = tmp_path / "n.ipynb"
    text = json.dumps(notebook(["%timeit -n1 -r1 sum(range(10))\n", "import numpy as np\n", "x = np.random.normal((4, 4))"]), indent=1)
    path.write_text(text)
    run = levelbench_cli("doctor", "--format", "github", "--select", "LB109", str(path))
    (line,) = run.stdout.splitlines()
    file_line = next(n for n, t in enumerate(text.split("\n"), 1) if "np.random.normal" in t)
    column = text.split("\n")[file_line - 1].index("(4, 4)") + 1
    assert line.startswith(f"::error file={path},line={file_line},col={column},endLine={file_line},"
                           f"endColumn={column + 6},title=LB109::cell 2: LB109 shape")
    from levelbench._rendering.doctor_machine import _escape_data, _escape_property
    assert _escape_data("100% done\r\nnext") == "100%25 done%0D%0Anext"
    assert _escape_property("a:b,c%") == "a%3Ab%2Cc%25"


def test_json_lines_is_one_object_per_finding_like_the_json_format(tmp_path):
    (tmp_path / "b.py").write_text(B)
    (tmp_path / "good.py").write_text("x = 1\n")
    lines = levelbench_cli("doctor", "--format", "json-lines", str(tmp_path)).stdout.splitlines()
    report = json.loads(levelbench_cli("doctor", "--format", "json", str(tmp_path)).stdout)
    assert [json.loads(line) for line in lines] == report["findings"] and len(lines) == 2
    clean = levelbench_cli("doctor", "--format", "json-lines", str(tmp_path / "good.py"))
    assert clean.returncode == 0 and clean.stdout == ""


def test_the_pre_commit_hook_definition_runs_the_doctor_on_the_files_it_is_given(tmp_path):
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    (hook,) = hooks
    assert hook["id"] == "levelbench-doctor" and hook["language"] == "python"
    assert set(hook["types_or"]) == {"python", "jupyter"}  # either type (pre-commit's `types` would need both)
    assert {"id", "name", "entry", "language"} <= hook.keys()
    entry = shlex.split(hook["entry"])
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert entry[0] in scripts and scripts[entry[0]] == "levelbench._cli:main"  # what pip installs for the hook
    (tmp_path / "b.py").write_text(B)
    (tmp_path / "good.py").write_text("x = 1\n")
    command = [sys.executable, "-m", "levelbench", *entry[1:], *hook.get("args", [])]  # `levelbench` == `python -m levelbench`
    bad = subprocess.run([*command, "good.py", "b.py"], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert bad.returncode == 1 and "b.py:3:22: LB109" in bad.stdout
    good = subprocess.run([*command, "good.py"], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert good.returncode == 0, good.stdout + good.stderr


def test_cell_positions_map_every_character_of_random_notebooks_and_never_raise():
    import random
    import re

    from levelbench.doctor._cell_positions import CellPositions

    escape = re.compile(r'\\(u[dD][89abAB][0-9a-fA-F]{2}\\u[0-9a-fA-F]{4}|u[0-9a-fA-F]{4}|["\\/bfnrt])')
    alphabet = 'ab "\\\t\n\r\u00e9\U0001f600\x01/'
    rng = random.Random(1)
    checked = 0
    for _ in range(100):
        cells = []
        for _ in range(rng.randint(0, 4)):
            source = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
            cells.append({"cell_type": rng.choice(["code", "markdown"]), "metadata": {"k": [1, {"x": "y"}]},
                          "source": source if rng.random() < 0.5 else source.splitlines(keepends=True)})
        text = json.dumps({"metadata": {}, "cells": cells}, indent=rng.choice([None, 1, 2]), ensure_ascii=rng.random() < 0.5)
        positions, file_lines = CellPositions(text), text.split("\n")
        for number, cell in enumerate(cells, 1):
            source = "".join(cell["source"])
            for line_number, line in enumerate(source.replace("\r\n", "\n").replace("\r", "\n").split("\n"), 1):
                for column, char in enumerate(line, 1):
                    file_line, file_column = positions.in_file(number, line_number, column)
                    raw = file_lines[file_line - 1][file_column - 1:]
                    spelled = json.loads(f'"{escape.match(raw).group(0)}"') if raw.startswith("\\") else raw[0]
                    assert spelled == char
                    checked += 1
    assert checked > 1000
    for junk in ["", "{", "[]", '{"cells": 3}', '{"cells": [{"source": 5}]}', '{"cells": [1, {"source": ["a", 2]}]}']:
        assert CellPositions(junk).in_file(1, 1, 1) is None


def test_output_writes_the_report_in_its_format_to_a_file(tmp_path):
    from conftest import levelbench_cli

    bad = tmp_path / "bench.py"
    bad.write_text("import time\nimport jax.numpy as jnp\nx = jnp.ones(3)\nt0 = time.time()\njnp.dot(x, x)\n"
                   "print(time.time() - t0)\n")
    out = tmp_path / "doctor.json"
    r = levelbench_cli("doctor", "--format", "json", "-o", str(out), str(bad))
    assert r.returncode == 1 and r.stdout == ""
    assert [f["code"] for f in json.loads(out.read_text())["findings"]]
    r = levelbench_cli("doctor", "-o", str(tmp_path / "missing" / "x.txt"), str(bad))
    assert r.returncode == 2 and "Traceback" not in r.stderr and not (tmp_path / "missing").exists()
    r = levelbench_cli("doctor", "--fix", "-o", str(out), str(bad))
    assert r.returncode == 2 and "-o/--output writes the report" in r.stderr
