"""`levelbench run --cluster ray` on a real local Ray cluster (a head and a second node on this machine),
and `levelbench merge`."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from conftest import levelbench_argv, levelbench_cli
from levelbench.cluster import NODE_RESOURCE, ClusterError, Node, select_nodes
from levelbench.store import open_store

# `make test` runs the suite on every core (pytest-xdist, --dist loadgroup): the tests that start a local Ray
# cluster share one worker, so that two clusters never start at once.
pytestmark = pytest.mark.xdist_group("ray")

HERE = Path(__file__).resolve().parent
SLEEPY = str(HERE / "workloads" / "simple.py") + ":SLEEPY"


# -- choosing nodes (no cluster needed) ------------------------------------------------------------
def _node(i: int, cpu: str, accelerator: str = "") -> Node:
    return Node(id=f"{i:056x}", name=f"n{i}", hostname=f"host{i}", cpu=cpu, cpus=2, accelerator=accelerator)


def test_one_kind_is_used_whole_and_several_kinds_need_a_choice():
    epyc, xeon, gpu = _node(1, "AMD EPYC"), _node(2, "Intel Xeon"), _node(3, "Intel Xeon", "H100")
    assert select_nodes([epyc, _node(4, "AMD EPYC")], None, False) == {"AMD EPYC": [epyc, _node(4, "AMD EPYC")]}
    with pytest.raises(ClusterError, match="3 kinds of node.*--on KIND, or --every-kind"):
        select_nodes([epyc, xeon, gpu], None, False)
    assert select_nodes([epyc, xeon, gpu], "epyc", False) == {"AMD EPYC": [epyc]}
    assert select_nodes([epyc, xeon, gpu], "h100", False) == {"Intel Xeon + H100": [gpu]}
    with pytest.raises(ClusterError, match="matches 2 kinds"):
        select_nodes([epyc, xeon, gpu], "xeon", False)
    assert set(select_nodes([epyc, xeon, gpu], None, True)) == {"AMD EPYC", "Intel Xeon", "Intel Xeon + H100"}
    with pytest.raises(ClusterError, match="no node of kind 'arm'.*AMD EPYC"):
        select_nodes([epyc], "arm", False)
    with pytest.raises(ClusterError, match=f"no node advertises the '{NODE_RESOURCE}' resource"):
        select_nodes([], None, False)


def test_cluster_options_without_a_cluster_are_refused():
    r = levelbench_cli("run", "-w", SLEEPY, "--on", "epyc", "--no-save")
    assert r.returncode == 2 and "add --cluster ray" in r.stderr


def test_an_address_nobody_answers_is_refused_at_once():
    pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'levelbench[ray]'")
    r = levelbench_cli("run", "-w", SLEEPY, "--cluster", "ray", "--address", "127.0.0.1:9", "--no-save", timeout=60)
    assert r.returncode == 2, r.stderr
    assert "cannot reach a Ray cluster at 127.0.0.1:9" in r.stderr and "ray start --head" in r.stderr


@pytest.mark.parametrize("address", [None, "", "auto"], ids=["no-address", "empty", "auto"])
def test_a_dead_head_named_by_the_last_ray_start_is_refused_at_once_too(tmp_path, address):
    # A crashed Ray session leaves ray_current_cluster behind, naming its head; Ray would retry it for
    # minutes, deaf to SIGTERM. Ray reads it from $RAY_TMPDIR/ray/: a folder of the test's, not /tmp/ray.
    pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'levelbench[ray]'")
    (tmp_path / "ray").mkdir()
    (tmp_path / "ray" / "ray_current_cluster").write_text("127.0.0.1:9\n")
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    given = [] if address is None else ["--address", address]
    r = subprocess.run([*levelbench_argv("run"), "-w", SLEEPY, "--cluster", "ray", *given, "--no-save"],
                       capture_output=True, text=True, timeout=60, env={**env, "RAY_TMPDIR": str(tmp_path)})
    assert r.returncode == 2, r.stderr
    assert "cannot reach a Ray cluster at 127.0.0.1:9" in r.stderr and "ray_current_cluster" in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr


@pytest.mark.slow
def test_sigterm_is_heard_while_ray_waits_for_an_address_that_is_no_ray_head(tmp_path):
    # the port accepts connections (so the pre-check passes), but no Ray head answers there: ray.init
    # waits inside Ray's C++ core for minutes, where Python's signal handlers never ran
    pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'levelbench[ray]'")
    import socket

    with socket.create_server(("", 0)) as server:  # every interface: Ray dials this host's address, not 127.0.0.1
        server.settimeout(120)
        address = f"127.0.0.1:{server.getsockname()[1]}"
        proc = subprocess.Popen([*levelbench_argv("run"), "-w", SLEEPY, "--cluster", "ray", "--address", address,
                                 "--no-save"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        held = []
        try:
            held += [server.accept()[0], server.accept()[0]]  # levelbench's pre-check, then Ray's own
            proc.send_signal(signal.SIGTERM)
            out, err = proc.communicate(timeout=30)
        finally:
            proc.kill()
            for conn in held:
                conn.close()
    assert proc.returncode == 130, out + err
    assert "levelbench run: interrupted (SIGTERM) while connecting to the cluster; nothing was recorded" in err
    assert "Traceback" not in out + err


# -- a real local cluster --------------------------------------------------------------------------
def _cluster():
    pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'levelbench[ray]'")
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "resources": {NODE_RESOURCE: 1},
                                                            "include_dashboard": False})
    second = cluster.add_node(num_cpus=1, resources={NODE_RESOURCE: 1})
    cluster.wait_for_nodes()
    return cluster, second


@pytest.mark.slow
def test_a_sweep_runs_every_unit_once_one_unit_per_node_at_a_time(tmp_path):
    cluster, _ = _cluster()
    try:
        db = tmp_path / "results.db"
        r = levelbench_cli("run", "-w", SLEEPY, "--ms", "1,2,3,4", "--budget", "0.3", "--no-diagnose",
                           "--cluster", "ray", "--address", cluster.address, "--db", str(db), timeout=600)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "4 unit(s) x 1 kind(s) on 2 node(s)" in r.stderr
        with open_store(db) as store:
            run = store.run("latest")
        assert sorted(res.params["ms"] for res in run.results) == [1.0, 2.0, 3.0, 4.0]
        assert all(res.status == "ok" for res in run.results)
        nodes = [res.node for res in run.results]
        assert {n["hostname"] for n in nodes} == {run.environment["cluster"]["nodes"][0]["hostname"]}
        by_node: dict[str, list[tuple[float, float]]] = {}
        for n in nodes:
            by_node.setdefault(n["id"], []).append((n["started"], n["ended"]))
        assert len(by_node) == 2  # two nodes free at the start: both got a unit
        for spans in by_node.values():
            spans.sort()
            assert all(end <= next_start for (_, end), (next_start, _) in zip(spans, spans[1:])), spans
        history = json.loads(levelbench_cli("history", "--json", "--db", str(db)).stdout)
        assert history[-1]["machine"].startswith("2 node(s): ")
    finally:
        cluster.shutdown()


@pytest.mark.slow
def test_a_unit_whose_node_dies_is_retried_on_the_other_node():
    import ray

    from levelbench.cluster import connect, discover_nodes, run_on_ray
    from levelbench.workloads.run import Job

    cluster, second = _cluster()
    try:
        ray_module = connect(cluster.address)
        nodes = discover_nodes(ray_module)
        groups = select_nodes(nodes, None, False)
        doomed = next(n for n in nodes if n.id == second.node_id)
        events = []

        def on_event(event):
            events.append((event.what, event.node.id))
            if event.what == "started" and event.node.id == doomed.id and ("retried", doomed.id) not in events:
                cluster.remove_node(second)  # stop the node (its raylet and workers) under the running unit

        jobs = [Job(SLEEPY, {"ms": ms, "seed": 0}, budget=2.0, diagnose=False) for ms in (1.0, 2.0)]
        results = list(run_on_ray(ray_module, jobs, groups, timeout=120, on_event=on_event))
        assert [r.status for r in results] == ["ok", "ok"], [r.error for r in results]
        assert ("retried", doomed.id) in events
        assert {r.comparison.environment["node"]["id"] for r in results} == {n.id for n in nodes} - {doomed.id}
    finally:
        ray.shutdown()
        cluster.shutdown()


@pytest.mark.slow
def test_ctrl_c_cancels_the_running_units_keeps_the_finished_ones_and_exits_130(tmp_path):
    import signal
    import subprocess
    import time

    cluster, _ = _cluster()
    try:
        db = tmp_path / "results.db"
        proc = subprocess.Popen([*levelbench_argv("run"), "-w", SLEEPY, "--ms", "1,2,3,4,5,6",
                                 "--budget", "1.5", "--no-diagnose", "--cluster", "ray", "--address", cluster.address,
                                 "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and _stored(db) < 1:
            time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 130, out + err
        with open_store(db) as store:
            run = store.run("latest")
        statuses = [r.status for r in run.results]
        assert run.status == "interrupted" and len(statuses) == 6, statuses  # every unit accounted for
        assert statuses.count("ok") >= 1 and "interrupted" in statuses and "skipped" in statuses, statuses
        assert sorted(r.params["ms"] for r in run.results) == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
        assert "interrupted" in err + out
        # the units' tasks stop with the driver, and their levelbench worker processes with them
        deadline = time.monotonic() + 30
        while _unit_workers() and time.monotonic() < deadline:
            time.sleep(0.5)
        assert _unit_workers() == []
    finally:
        cluster.shutdown()


def _unit_workers() -> list[int]:
    """Live levelbench worker processes timing the SLEEPY test workload (only this test starts them now)."""
    found = []
    for status in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            cmd = status.read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if b"levelbench._measuring.worker" in cmd:
            found.append(int(status.parent.name))
    return found


def _stored(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db) as conn:
            return conn.execute("SELECT COUNT(*) FROM results WHERE status = 'ok'").fetchone()[0]
    except sqlite3.Error:
        return 0


# -- merge -----------------------------------------------------------------------------------------
def _record(path: Path, workloads: list[str]) -> None:
    from levelbench._results.workload import WorkloadResult

    with open_store(path) as store:
        with store.recording(kind="run", argv=["run"], environment={"hostname": path.stem}) as run_id:
            for w in workloads:
                store.add_result(run_id, WorkloadResult(w, {"n": 1}, "failed", error="deliberate"))


def test_merge_renumbers_runs_and_skips_what_is_already_there(tmp_path):
    a, b, out = tmp_path / "a.db", tmp_path / "b.db", tmp_path / "all.db"
    _record(a, ["matmul"])
    _record(a, ["gru", "matmul"])
    _record(b, ["gru"])
    r = levelbench_cli("merge", str(a), str(b), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert f"{a}: 2 run(s), 3 result(s) merged" in r.stdout and f"{b}: 1 run(s), 1 result(s) merged" in r.stdout
    again = levelbench_cli("merge", str(b), "-o", str(out))
    assert again.returncode == 0 and "0 run(s), 0 result(s) merged, 1 already there" in again.stdout
    with open_store(out) as store:
        runs = store.runs()
        assert [r.id for r in runs] == [1, 2, 3]
        assert [r.environment["hostname"] for r in runs] == ["a", "a", "b"]
        assert sum(len(store.run(r.id).results) for r in runs) == 4


def test_merge_refuses_other_schema_versions_and_leaves_everything_untouched(tmp_path):
    a, old, out = tmp_path / "a.db", tmp_path / "old.db", tmp_path / "all.db"
    _record(a, ["matmul"])
    _record(old, ["gru"])
    with sqlite3.connect(old) as conn:
        conn.execute("PRAGMA user_version = 1")
    before = old.read_bytes()
    r = levelbench_cli("merge", str(a), str(old), "-o", str(out))
    assert r.returncode == 2
    assert f"{old} has schema version 1" in r.stderr and "migrate it first" in r.stderr
    assert old.read_bytes() == before
    assert not out.exists()  # every source is checked before anything is written, the output included
    newer = tmp_path / "newer.db"
    _record(newer, ["gru"])
    with sqlite3.connect(newer) as conn:
        conn.execute("PRAGMA user_version = 99")
    r = levelbench_cli("merge", str(newer), "-o", str(out))
    assert r.returncode == 2 and "newer than this levelbench's" in r.stderr
    r = levelbench_cli("merge", str(tmp_path / "missing.db"), "-o", str(out))
    assert r.returncode == 2 and "no results database at" in r.stderr


# -- relative paths, signals and a lost head, on a cluster whose head runs in a folder of its own ---
UNIT_FILE = """
import time
import numpy as np
import levelbench
from levelbench.workloads import Param, Workload


def _build(seed, flag=""):
    if flag != "none":  # says that the unit runs, then hangs
        open(flag, "w").close()
        time.sleep(3600)
    x = np.arange(8.0)
    return {"from_{where}": levelbench.Candidate(lambda x: x * 2, (x,)),
            "also_{where}": levelbench.Candidate(lambda x: x + x, (x,))}


W = Workload("w", "two tiny numpy calls", _build, params=[Param("flag", "none", str, "a file to create, then hang")])
"""


def _unit_file(folder: Path, where: str) -> None:
    (folder / "w").mkdir(parents=True)
    (folder / "w" / "cwdtest.py").write_text(UNIT_FILE.replace("{where}", where))


def _head_in(folder: Path):
    """A one-node cluster whose processes run in ``folder`` (as after `cd folder; ray start --head`)."""
    from ray.cluster_utils import Cluster

    here = os.getcwd()
    os.chdir(folder)
    try:
        return Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "resources": {NODE_RESOURCE: 1},
                                                             "include_dashboard": False})
    finally:
        os.chdir(here)


@pytest.fixture(scope="module")
def head(tmp_path_factory):
    """One head for the tests that leave it running, started in a folder holding w/cwdtest.py ("from_head")."""
    pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'levelbench[ray]'")
    folder = tmp_path_factory.mktemp("head")
    _unit_file(folder, "head")
    cluster = _head_in(folder)
    try:
        yield cluster
    finally:
        cluster.shutdown()


@pytest.mark.slow
def test_a_relative_workload_path_names_the_file_in_the_drivers_folder_not_the_nodes(tmp_path, head):
    # before, the node read w/cwdtest.py in the folder its Ray worker ran in: the head's file was timed
    # and recorded under the name given
    _unit_file(tmp_path, "driver")
    db = tmp_path / "r.db"
    r = subprocess.run([*levelbench_argv("run"), "-w", "w/cwdtest.py:W", "--budget", "0.2", "--no-diagnose",
                        "--cluster", "ray", "--address", head.address, "--db", str(db)],
                       capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    with open_store(db) as store:
        (result,) = store.run("latest").results
    assert result.workload == "w/cwdtest.py:W"  # recorded as given
    assert set(result.comparison.measurements) == {"from_driver", "also_driver"}


def test_a_node_that_sees_another_file_or_none_refuses_the_unit_with_the_reason(tmp_path):
    from levelbench.workloads.run import Job, located

    _unit_file(tmp_path, "driver")
    path = tmp_path / "w" / "cwdtest.py"
    source, digest = located(f"{path}:W")
    job = Job("w/cwdtest.py:W", {}, 0.1, source=source, digest=digest)
    assert source == f"{path}:W" and job.source_problem() == ""
    path.write_text(path.read_text() + "# edited\n")
    assert "is not the one levelbench run was given" in job.source_problem()
    path.unlink()
    assert f"the workload file {path} cannot be read here" in job.source_problem()
    assert "put it at the same path on every node" in job.source_problem()
    assert located("matmul") == ("", "")


def _start_hanging(tmp_path: Path, address: str) -> tuple[subprocess.Popen, Path]:
    _unit_file(tmp_path, "driver")
    flag = tmp_path / "running"
    proc = subprocess.Popen([*levelbench_argv("run"), "-w", "w/cwdtest.py:W", "--flag", f"none,{flag}",
                             "--budget", "0.2", "--no-diagnose", "--timeout", "600", "--cluster", "ray",
                             "--address", address, "--db", str(tmp_path / "r.db")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    deadline = time.monotonic() + 240
    while not flag.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
    if not flag.exists():
        proc.kill()
        pytest.fail("the hanging unit never started: " + "".join(proc.communicate()))
    return proc, tmp_path / "r.db"


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=lambda s: s.name)
def test_sigterm_and_sighup_stop_a_cluster_run_as_ctrl_c_does_and_say_which_came(tmp_path, head, sig):
    # before: SIGTERM exited 1 saying nothing, and the run was recorded ok with the unit "not run";
    # SIGHUP said "interrupted (Ctrl-C)"
    proc, db = _start_hanging(tmp_path, head.address)
    try:
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 130, out + err
    assert "Traceback" not in out + err
    with open_store(db) as store:
        run = store.run("latest")
    assert run.status == "interrupted" and f"interrupted ({sig.name})" in run.error, run.error
    assert [r.status for r in run.results] == ["ok", "interrupted"], [r.error for r in run.results]
    assert f"interrupted ({sig.name}); the unit was stopped on its node" in run.results[1].error
    deadline = time.monotonic() + 30  # the head is free again for the next test
    while _unit_workers() and time.monotonic() < deadline:
        time.sleep(0.5)


@pytest.mark.slow
def test_a_head_that_dies_under_a_unit_fails_it_with_the_reason_and_ends_the_run(tmp_path):
    # before: a minute's wait, then Ray's core ended the process ("Failed to connect to GCS within 60
    # seconds"), the run left abandoned, the unit never recorded
    pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'levelbench[ray]'")
    (tmp_path / "head").mkdir()
    cluster = _head_in(tmp_path / "head")
    address = cluster.address
    try:
        proc, db = _start_hanging(tmp_path, address)
        try:
            cluster.head_node.kill_all_processes(check_alive=False, allow_graceful=False)
            started = time.monotonic()
            out, err = proc.communicate(timeout=50)  # Ray's own end would come at 60 s
            took = time.monotonic() - started
        finally:
            proc.kill()
    finally:
        cluster.shutdown()
    assert proc.returncode == 1, out + err
    assert "Traceback" not in out + err
    lines = err.strip().splitlines()
    assert f"the cluster's head at {address} stopped answering" in lines[-1], err
    assert took < 45, f"the lost head was noticed after {took:.0f} s"  # generous: Ray's own end comes at 60 s
    with open_store(db) as store:
        run = store.run("latest")
    assert run.status in ("failed", "partial") and "stopped answering" in run.error, run.error
    statuses = [(r.status, r.error) for r in run.results]
    assert statuses[0][0] == "ok" and statuses[1][0] == "failed", statuses
    assert f"the cluster's head at {address} stopped answering" in statuses[1][1]
