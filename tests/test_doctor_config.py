"""``[tool.levelbench.doctor]`` in pyproject.toml, found like ruff's configuration, and the options that
override it: as a user runs ``levelbench doctor`` (a subprocess in a project directory) and through the
library call the command is made of."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import levelbench_cli
from levelbench._values.findings import Severity
from levelbench.doctor import fix_paths, lint_paths
from levelbench.doctor import ConfigError

# b.py: LB109 (error) at 3:22, LB105 (info) at 5:10. c.py: LB104 (warning) at 5:1, LB102 (error) at 5:5.
B = "import numpy as np\nimport time\nx = np.random.normal((4, 4))\nfor _ in range(2):\n" \
    "    t0 = time.time()\n    np.linalg.inv(x)\n    print(time.time() - t0)\n"
C = "import time\nimport jax.numpy as jnp\nx = jnp.ones((3, 3))\nt0 = time.perf_counter()\n" \
    "y = jnp.dot(x, x)\nprint(time.perf_counter() - t0)\n"


def project(root: Path, table: str, files: dict[str, str] | None = None) -> Path:
    """A project: ``pyproject.toml`` with ``table`` under [tool.levelbench.doctor], and the files."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(f"[project]\nname = 'demo'\n\n[tool.levelbench.doctor]\n{table}")
    for name, text in (files or {"b.py": B, "c.py": C}).items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def found(run) -> list[tuple[str, str]]:
    """(file name, code) of each finding in a ``--format json-lines`` run."""
    return [(Path(f["path"]).name, f["code"]) for f in map(json.loads, run.stdout.splitlines())]


def doctor(cwd: Path, *args: str):
    return levelbench_cli("doctor", "--format", "json-lines", *args, cwd=cwd)


def test_select_ignore_and_fail_on_from_pyproject(tmp_path):
    root = project(tmp_path / "p", 'select = ["LB10"]\nignore = ["LB105", "LB102"]\nfail-on = "error"\n')
    run = doctor(root, ".")
    # LB10 selects LB100..LB109; LB105 and LB102 are ignored
    assert found(run) == [("b.py", "LB109"), ("c.py", "LB104")]
    assert run.returncode == 1  # LB109 is an error
    only_warning = doctor(root, "c.py")
    assert found(only_warning) == [("c.py", "LB104")] and only_warning.returncode == 0  # below fail-on = error


def test_no_config_and_the_defaults_without_one(tmp_path):
    root = project(tmp_path / "p", 'ignore = ["LB1"]\n')
    assert found(doctor(root, ".")) == []
    everything = doctor(root, "--no-config", ".")
    assert sorted(found(everything)) == [("b.py", "LB105"), ("b.py", "LB109"), ("c.py", "LB102"), ("c.py", "LB104")]
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "b.py").write_text(B)
    assert sorted(found(doctor(bare, "."))) == [("b.py", "LB105"), ("b.py", "LB109")]


def test_the_nearest_pyproject_with_the_table_applies_to_each_file(tmp_path):
    root = project(tmp_path / "repo", 'ignore = ["LB105"]\n', {"b.py": B})
    project(root / "sub", 'ignore = ["LB109"]\n', {"b.py": B})
    (root / "other").mkdir()
    (root / "other" / "pyproject.toml").write_text("[project]\nname = 'other'\n")  # no table: passed over
    (root / "other" / "b.py").write_text(B)
    run = levelbench_cli("doctor", "--format", "json", "-v", ".", cwd=root)
    report = json.loads(run.stdout)
    by_file = {(f["path"], f["code"]) for f in report["findings"]}
    assert by_file == {("b.py", "LB109"), ("other/b.py", "LB109"), ("sub/b.py", "LB105")}
    # -v says which configuration applied to how many files
    assert f"{root / 'pyproject.toml'} [tool.levelbench.doctor] applies to 2 files" in run.stderr
    assert f"{root / 'sub' / 'pyproject.toml'} [tool.levelbench.doctor] applies to 1 file" in run.stderr
    # walking up also works from a file named inside the project, from anywhere
    outside = levelbench_cli("doctor", "--format", "json-lines", str(root / "sub" / "b.py"), cwd=tmp_path)
    assert found(outside) == [("b.py", "LB105")]


def test_command_line_options_override_the_file(tmp_path):
    root = project(tmp_path / "p", 'select = ["LB109"]\nignore = ["LB102"]\nfail-on = "error"\nexclude = ["c.py"]\n')
    assert found(doctor(root, ".")) == [("b.py", "LB109")]
    # --select replaces select and ignore (as in ruff); the file's exclude still applies
    assert found(doctor(root, "--select", "LB105,LB102", ".")) == [("b.py", "LB105")]
    # --exclude replaces the file's exclude
    assert sorted(found(doctor(root, "--select", "LB102", "--exclude", "b.py", "."))) == [("c.py", "LB102")]
    # --ignore adds to the file's ignore
    assert found(doctor(root, "--ignore", "LB109", ".")) == []
    # --fail-on replaces fail-on: LB105 is info
    assert doctor(root, "--select", "LB105", ".").returncode == 0
    assert doctor(root, "--select", "LB105", "--fail-on", "info", ".").returncode == 1


def test_per_file_ignores_and_exclude_globs(tmp_path):
    table = (
        'exclude = ["legacy", "notebooks/scratch/*"]\n'
        '[tool.levelbench.doctor.per-file-ignores]\n"tests/*" = ["LB104", "LB102"]\n"b.py" = ["LB105"]\n'
    )
    files = {"b.py": B, "tests/deep/c.py": C, "c.py": C, "legacy/c.py": C, "src/legacy/c.py": C,
             "notebooks/scratch/c.py": C, "notebooks/c.py": C, "src/b.py": B}
    root = project(tmp_path / "p", table, files)
    run = levelbench_cli("doctor", "--format", "json", ".", cwd=root)
    got = {(f["path"], f["code"]) for f in json.loads(run.stdout)["findings"]}
    assert got == {
        ("b.py", "LB109"), ("src/b.py", "LB109"),  # "b.py" (a bare name) matches b.py at any depth
        ("c.py", "LB102"), ("c.py", "LB104"), ("notebooks/c.py", "LB102"), ("notebooks/c.py", "LB104"),
    }
    assert json.loads(run.stdout)["files"] == ["b.py", "c.py", "notebooks/c.py", "src/b.py", "tests/deep/c.py"]
    # an excluded file is skipped even when named (as pre-commit names files)
    named = levelbench_cli("doctor", "legacy/c.py", "notebooks/scratch/c.py", cwd=root)
    assert named.returncode == 0 and "No findings in 0 files." in named.stdout


def test_double_star_slash_also_stands_for_no_directory(tmp_path):
    """Probe defect 35: ``sub/**/bench.py`` did not match ``sub/bench.py`` (as it does in gitignore and ruff)."""
    table = '[tool.levelbench.doctor.per-file-ignores]\n"sub/**/c.py" = ["LB104", "LB102"]\n'
    root = project(tmp_path / "p", table, {"sub/c.py": C, "sub/deep/er/c.py": C, "other/c.py": C})
    run = levelbench_cli("doctor", "--format", "json", ".", cwd=root)
    assert {f["path"] for f in json.loads(run.stdout)["findings"]} == {"other/c.py"}


def test_config_file_given_explicitly(tmp_path):
    root = project(tmp_path / "p", 'ignore = ["LB105"]\n')
    elsewhere = tmp_path / "ci.toml"
    elsewhere.write_text('[tool.levelbench.doctor]\nselect = ["LB105"]\n')
    assert found(doctor(root, "--config", str(elsewhere), ".")) == [("b.py", "LB105")]
    empty = tmp_path / "empty.toml"
    empty.write_text("[tool.other]\nx = 1\n")
    run = doctor(root, "--config", str(empty), ".")
    assert run.returncode == 2
    assert run.stderr.strip() == f"{empty}: expected a [tool.levelbench.doctor] table, got none: add one, or name another file"
    missing = doctor(root, "--config", str(tmp_path / "nope.toml"), ".")
    assert missing.returncode == 2 and "--config: no such file" in missing.stderr
    both = doctor(root, "--config", str(elsewhere), "--no-config", ".")
    assert both.returncode == 2 and "contradict" in both.stderr


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('selec = ["LB104"]\n', "unknown key 'selec': expected one of select, ignore, per-file-ignores, fail-on, "
                                "exclude; did you mean 'select'?"),
        ('per_file_ignores = {}\n', "did you mean 'per-file-ignores'?"),
        ('select = "LB104"\n', 'select: expected an array of strings, got a string \'LB104\': write select = ["LB104"]'),
        ('ignore = [104]\n', "ignore: expected an array of strings, got an array [104]"),
        ('ignore = ["LB999"]\n', "ignore: unknown rule code 'LB999': expected a code or prefix of LB100"),
        ('fail-on = "loud"\n', "fail-on: expected one of 'info', 'warning', 'error', got a string 'loud'"),
        ('per-file-ignores = ["x"]\n', "per-file-ignores: expected a table of glob = [codes], got an array ['x']"),
        ('[tool.levelbench.doctor.per-file-ignores]\n"t/*" = "LB104"\n',
         "per-file-ignores 't/*': expected an array of strings, got a string 'LB104'"),
        ('select = [\n', "not valid TOML"),
        # probe defect 35: an unclosed '[' was accepted and matched nothing
        ('[tool.levelbench.doctor.per-file-ignores]\n"[" = ["LB104"]\n', "'[' has a '[' that is never closed"),
        ('exclude = ["old[1"]\n', "exclude: 'old[1' has a '[' that is never closed"),
    ],
)
def test_a_bad_configuration_is_one_line_with_file_key_expected_got_and_exit_2(tmp_path, table, message):
    root = project(tmp_path / "p", table)
    run = levelbench_cli("doctor", ".", cwd=root)
    assert run.returncode == 2, run.stdout
    assert "Traceback" not in run.stderr and len(run.stderr.strip().splitlines()) == 1
    assert run.stderr.startswith(str(root / "pyproject.toml") + ":") and message in run.stderr, run.stderr
    assert levelbench_cli("doctor", "--no-config", ".", cwd=root).returncode == 1  # a way out without editing


def test_show_settings_says_which_file_and_what_each_path_gets(tmp_path):
    root = project(tmp_path / "p", 'ignore = ["LB1"]\nfail-on = "error"\n[tool.levelbench.doctor.per-file-ignores]\n'
                                   '"b.py" = ["LB105"]\n')
    run = levelbench_cli("doctor", "--show-settings", "--select", "LB105,LB109", "b.py", "c.py", cwd=root)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        "b.py:",
        f"  config = {str(root / 'pyproject.toml')!r}",
        "  select = ['LB100', 'LB109']",
        "  ignore = ['LB1']",
        "  per-file-ignores = {'b.py': ('LB105',)}",
        "  exclude = []",
        "  fail-on = 'error'",
        "  excluded = false",
        "c.py:",
        f"  config = {str(root / 'pyproject.toml')!r}",
        "  select = ['LB100', 'LB105', 'LB109']",
        "  ignore = ['LB1']",
        "  per-file-ignores = {'b.py': ('LB105',)}",
        "  exclude = []",
        "  fail-on = 'error'",
        "  excluded = false",
    ]
    none = levelbench_cli("doctor", "--show-settings", "--no-config", "b.py", cwd=root)
    assert "  config = none (defaults)" in none.stdout.splitlines()


def test_fix_follows_the_configuration(tmp_path):
    root = project(tmp_path / "p", '[tool.levelbench.doctor.per-file-ignores]\n"keep/*" = ["LB109"]\n',
                   {"b.py": B, "keep/b.py": B})
    run = levelbench_cli("doctor", "--fix", ".", cwd=root)
    assert "normal(size=(4, 4))" in (root / "b.py").read_text()
    assert "normal((4, 4))" in (root / "keep" / "b.py").read_text()  # LB109 is ignored there: not fixed either
    assert "perf_counter" in (root / "keep" / "b.py").read_text()  # LB105 is not ignored there
    assert run.returncode == 0, run.stderr


def test_the_library_reads_a_configuration_only_when_asked(tmp_path, monkeypatch):
    root = project(tmp_path / "p", 'ignore = ["LB109"]\nfail-on = "info"\n')
    monkeypatch.chdir(root)
    plain = lint_paths(["b.py"])
    assert [d.code for d in plain.diagnostics] == ["LB109", "LB105"] and plain.configs == ()
    configured = lint_paths(["b.py"], config=True)
    assert [d.code for d in configured.diagnostics] == ["LB105"]
    assert configured.configs == (("b.py", str(root / "pyproject.toml")),)
    assert configured.failing() == configured.diagnostics  # fail-on = "info" from the file
    assert lint_paths(["b.py"], config=True, fail_on="warning").failing() == ()
    assert plain.failing(Severity.ERROR) == plain.diagnostics[:1]
    assert fix_paths(["b.py"], config=True).remaining.diagnostics == ()  # LB105 fixed; LB109 ignored
    (root / "pyproject.toml").write_text("[tool.levelbench.doctor]\nfail-on = 3\n")
    with pytest.raises(ConfigError, match=r"fail-on: expected one of .* got an integer 3"):
        lint_paths(["b.py"], config=True)


def test_standard_input_gets_the_working_directorys_configuration_and_its_stdin_filename_globs(tmp_path):
    root = project(tmp_path / "p", 'ignore = ["LB105"]\n[tool.levelbench.doctor.per-file-ignores]\n"tests/*" = ["LB109"]\n')
    import subprocess
    import sys

    def stdin(*args: str) -> list[str]:
        run = subprocess.run([sys.executable, "-m", "levelbench", "doctor", "--format", "json-lines", *args, "-"],
                             input=B, capture_output=True, text=True, cwd=root, timeout=120)
        return [json.loads(line)["code"] for line in run.stdout.splitlines()]

    assert stdin() == ["LB109"]
    assert stdin("--stdin-filename", "tests/test_b.py") == []
    assert stdin("--no-config") == ["LB109", "LB105"]
