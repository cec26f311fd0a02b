"""`levelbench run` as a library call (`levelbench.run_workloads`, `levelbench._runs`): plan, record, outcome, with no
command line; the CLI is this plus rendering (its own tests are in test_run_cli.py)."""

from pathlib import Path

import pytest

from levelbench._results.workload import WorkloadResult
from levelbench.store import open_store
from levelbench import run_workloads
from levelbench._runs import record_run
from levelbench.workloads.plan import plan_run
from levelbench.workloads.run import PlanError

SIMPLE = Path(__file__).parent / "workloads" / "simple.py"


def test_run_workloads_runs_records_and_reports_each_result(tmp_path):
    seen = []
    db = tmp_path / "r.db"
    outcome = run_workloads([f"{SIMPLE}:SLEEPY"], {"ms": [1, 2]}, budget=0.2, in_process=True, db=str(db),
                            on_result=seen.append)
    assert outcome.status == "ok" and outcome.error == "" and not outcome.crashed and outcome.not_run == []
    assert [r.params["ms"] for r in outcome.results] == [1.0, 2.0] and seen == outcome.results
    run = open_store(db).run(outcome.run_id)
    assert run.status == "ok" and len(run.results) == 2 and outcome.store_path == db


def test_a_wrong_workload_or_parameter_is_a_plan_error_before_anything_runs(tmp_path):
    with pytest.raises(PlanError, match="unknown workload 'nope': expected one of"):
        run_workloads(["nope"], save=False)
    with pytest.raises(PlanError, match="no such option: --bogus"):
        plan_run(["matmul"], {"bogus": ["3"]})
    with pytest.raises(PlanError, match="--n needs a value"):
        plan_run(["matmul"], {"n": None})
    assert not (tmp_path / "r.db").exists()


def _job_results(jobs, then):
    for job in jobs[:1]:
        yield WorkloadResult(job.workload, job.params, "ok")
    raise then


def test_ctrl_c_keeps_what_finished_and_records_the_rest_as_not_run(tmp_path):
    jobs, _ = plan_run([f"{SIMPLE}:SLEEPY"], {"ms": ["1", "2", "3"]})
    store = open_store(tmp_path / "r.db")
    run_id = store.begin_run(kind="run", argv=["test"])
    outcome = record_run(_job_results(jobs, KeyboardInterrupt("SIGTERM")), jobs, store, run_id)
    assert outcome.status == "interrupted" and outcome.error == "interrupted (SIGTERM)"
    assert len(outcome.results) == 1 and [j.params["ms"] for j in outcome.not_run] == [2.0, 3.0]
    run = store.run(run_id)
    assert run.status == "interrupted"
    assert sorted(r.status for r in run.results) == ["ok", "skipped", "skipped"]


def test_an_exception_while_recording_ends_the_run_failed_never_ok(tmp_path):
    jobs, _ = plan_run([f"{SIMPLE}:SLEEPY"], {"ms": ["1", "2"]})
    outcome = record_run(_job_results(jobs, OSError(28, "No space left on device")), jobs)
    assert outcome.status == "failed" and outcome.crashed and not outcome.store_error
    assert outcome.error == "OSError: [Errno 28] No space left on device" and len(outcome.not_run) == 1


@pytest.mark.slow
@pytest.mark.xdist_group("ray")  # one local Ray cluster at a time under `make test` (pytest-xdist)
def test_run_workloads_runs_a_sweep_on_the_nodes_choose_nodes_chose(tmp_path):
    """``levelbench run --cluster ray`` from Python: nothing about a cluster run is the command line's alone."""
    pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'levelbench[ray]'")
    from ray.cluster_utils import Cluster

    from levelbench import choose_nodes
    from levelbench.cluster import NODE_RESOURCE

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "resources": {NODE_RESOURCE: 1},
                                                            "include_dashboard": False})
    try:
        nodes = choose_nodes(cluster.address)
        assert len(nodes.nodes) == 1 and nodes.facts["address"] == cluster.address
        with pytest.raises(ValueError, match="in_process=True runs here; it cannot be combined with cluster="):
            run_workloads([f"{SIMPLE}:SLEEPY"], cluster=nodes, in_process=True, save=False)
        events = []
        outcome = run_workloads([f"{SIMPLE}:SLEEPY"], {"ms": [1, 2]}, budget=0.2, diagnose=False,
                                db=str(tmp_path / "r.db"), cluster=nodes, on_event=lambda e: events.append(e.what))
        assert outcome.status == "ok", outcome.error
        assert sorted(r.params["ms"] for r in outcome.results) == [1.0, 2.0]
        assert all(r.node is not None for r in open_store(tmp_path / "r.db").run(outcome.run_id).results)
        assert open_store(tmp_path / "r.db").run(outcome.run_id).environment["cluster"] == nodes.facts
        assert events.count("finished") == 2
    finally:
        cluster.shutdown()


def test_choose_nodes_closes_the_connection_when_no_node_can_be_used(monkeypatch):
    import levelbench._runs as runs
    from levelbench.cluster import ClusterError

    class Connected:
        closed = False

        def shutdown(self):
            self.closed = True

    ray = Connected()
    monkeypatch.setattr(runs, "connect", lambda address: ray)
    monkeypatch.setattr(runs, "discover_nodes", lambda connected: [])
    with pytest.raises(ClusterError):
        runs.choose_nodes("10.0.0.5:6379")
    assert ray.closed
