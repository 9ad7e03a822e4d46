"""Test drives on a Dask cluster: the same report as one process, chunks merged exactly once
even when a worker dies mid-batch, and clear messages when the cluster cannot be used.

The clusters are local (worker processes on this machine, talking over the loopback), small
and short-lived; the batches are small races of random bots on the factory ring.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

distributed = pytest.importorskip("distributed")

from tests.factories import ring  # noqa: E402
from tests.sim.helpers import rules  # noqa: E402
from trackformat import cli  # noqa: E402
from trackformat.io import dumps_document, save_track  # noqa: E402
from trackformat.sim.batch import cluster  # noqa: E402
from trackformat.sim.batch.report import batch_report  # noqa: E402
from trackformat.sim.batch.testdrive import (  # noqa: E402
    Chunk,
    ChunkMerger,
    DriveContext,
    DriveSpec,
    plan_chunks,
    prepare,
    run_batch,
    run_chunk,
)


def local_cluster(workers: int) -> Any:
    """Worker processes on this machine, one thread each, as `dask worker --nthreads 1`."""
    return distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                    dashboard_address=":0")


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with local_cluster(2) as two, distributed.Client(two, set_as_default=False) as connected:
        yield connected


@cache
def ring_context(lanes: int = 2, per_lane: int = 24, seed: int = 11) -> DriveContext:
    return prepare(DriveSpec.of(ring(lanes=lanes, per_lane=per_lane), rules(), ("random",) * 3,
                                seed=seed, laps=1))


def report_alone(context: DriveContext, races: int) -> str:
    """The JSON report of the batch raced in this process alone."""
    return dumps_document(batch_report(run_batch(context.spec, races, context=context), context))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(["testdrive", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# -- merging ------------------------------------------------------------------------------------


def test_chunks_are_merged_in_order_each_once_however_they_come_back() -> None:
    context = ring_context()
    chunks = [Chunk(index, 2 * index, 2 * index + 2) for index in range(6)]
    results = [run_chunk(context, chunk) for chunk in chunks]
    seen: list[tuple[int, int]] = []
    merger = ChunkMerger(chunks, lambda done, total: seen.append((done, total)))
    order = [3, 1, 1, 0, 3, 2, 4, 5, 5]  # late, early and twice
    taken = [merger.add(chunks[i], results[i]) for i in order]
    assert taken == [True, True, False, True, False, True, True, True, False]
    assert seen == [(2, 12), (4, 12), (6, 12), (8, 12), (10, 12), (12, 12)]
    assert merger.complete and merger.waiting == 0
    assert merger.total == run_chunk(context, Chunk(0, 0, 12))
    assert merger.total.races == 12
    with pytest.raises(ValueError, match="not a chunk of this batch"):
        merger.add(Chunk(0, 0, 5), results[0])


# -- on a cluster -------------------------------------------------------------------------------


def test_the_command_gives_the_same_json_on_a_cluster_as_in_one_process(
    client: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    track = tmp_path / "ring.json"
    save_track(ring(lanes=2, per_lane=24), track)
    common = [str(track), "--races", "40", "--cars", "3", "--bot", "random", "--seed", "7"]
    alone, spread = tmp_path / "alone.json", tmp_path / "cluster.json"
    code, _, err = run(capsys, *common, "--json", str(alone))
    assert code == 0, err
    code, out, err = run(capsys, *common, "--scheduler", client.scheduler.address,
                         "--json", str(spread))
    assert code == 0, err
    assert f"the Dask cluster at {client.scheduler.address}: 2 workers, 2 threads" in out
    assert spread.read_bytes() == alone.read_bytes()
    assert json.loads(spread.read_text(encoding="utf-8"))["races"] == 40


def test_each_worker_builds_the_board_once_and_drops_it_after_the_batch(client: Any) -> None:
    context = ring_context(seed=12)
    before = client.run(cluster.worker_report)
    during: list[dict[str, dict[str, int]]] = []
    stats = cluster.run_on_cluster(
        client, context.spec, 60,
        progress=lambda done, total: during.append(client.run(cluster.worker_report)))
    after = client.run(cluster.worker_report)
    assert len(plan_chunks(60)) == 60, "many more chunks than workers"
    built = [after[w]["boards_built"] - before[w]["boards_built"] for w in after]
    assert sorted(built) == [1, 1], "one board per worker, not one per chunk"
    assert all(report["batches"] == 1 for report in during[0].values())
    assert all(report["batches"] == 0 for report in after.values())
    assert dumps_document(batch_report(stats, context)) == report_alone(context, 60)


class CountingClient:
    """A client that counts the chunks submitted and not yet merged."""

    def __init__(self, client: Any) -> None:
        self.client, self.submitted, self.merged, self.most = client, 0, 0, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.client, name)

    def submit(self, *args: Any, **kwargs: Any) -> Any:
        self.submitted += 1
        self.most = max(self.most, self.submitted - self.merged)
        return self.client.submit(*args, **kwargs)

    def merged_one(self, done: int, total: int) -> None:
        self.merged += 1


def test_the_client_holds_a_bounded_number_of_chunks_whatever_the_batch(client: Any) -> None:
    context = ring_context(seed=13)
    counting = CountingClient(client)
    stats = cluster.run_on_cluster(counting, context.spec, 60,  # type: ignore[arg-type]
                                   progress=counting.merged_one, window=2)
    assert counting.submitted == counting.merged == len(plan_chunks(60)) == 60
    assert 2 <= counting.most <= 2 * (1 + cluster.HELD_PER_WINDOW) < 60
    assert dumps_document(batch_report(stats, context)) == report_alone(context, 60)


def test_a_worker_lost_mid_batch_loses_no_race_and_counts_none_twice() -> None:
    context = ring_context(lanes=3, per_lane=40, seed=14)
    races = 160
    expected = report_alone(context, races)
    killed: list[tuple[str, tuple[str, ...]]] = []
    with local_cluster(2) as two, distributed.Client(two, set_as_default=False) as connected:
        pids = connected.run(os.getpid)

        def kill_a_busy_worker(done: int, total: int) -> None:
            if killed:
                return
            busy = {w: keys for w, keys in connected.processing().items() if keys}
            if not busy:  # every chunk out is back already: wait for the next merge
                return
            victim = sorted(busy)[0]
            os.kill(pids[victim], signal.SIGKILL)
            killed.append((victim, tuple(busy[victim])))

        with distributed.get_task_stream(client=connected) as tasks:
            stats = cluster.run_on_cluster(connected, context.spec, races,
                                           progress=kill_a_busy_worker)
        after = connected.run(os.getpid)
    assert killed, "a worker was killed mid-batch"
    victim, lost = killed[0]
    assert pids[victim] not in after.values(), "that worker process is gone"
    raced_by: dict[str, set[str]] = {}
    for task in tasks.data:
        raced_by.setdefault(task["key"], set()).add(task["worker"])
    assert all(raced_by[key] - {victim} for key in lost), "its chunks were raced again"
    assert stats.races == races
    assert dumps_document(batch_report(stats, context)) == expected


def test_a_worker_running_other_code_is_refused() -> None:
    with pytest.raises(cluster.ClusterError, match="other trackformat code than the client"):
        cluster.race_chunk("any batch", Chunk(0, 0, 1), "not this code")


# -- a cluster that cannot be used --------------------------------------------------------------


def closed_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("nonsense", "'nonsense' is not the address of a Dask scheduler (missing port number"),
        ("tcp://:8786", "(no host); give tcp://HOST:PORT"),
        ("ftp://host:21", "unknown address scheme 'ftp'"),
        ("tcp://127.0.0.1:{closed}", "cannot reach a Dask scheduler at 'tcp://127.0.0.1:"),
    ],
)
def test_a_bad_scheduler_address_exits_2_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    address: str, message: str,
) -> None:
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1.0)
    track = tmp_path / "ring.json"
    save_track(ring(lanes=2, per_lane=24), track)
    code, out, err = run(capsys, str(track), "--races", "2", "--cars", "2",
                         "--scheduler", address.format(closed=closed_port()))
    assert code == 2
    assert message in err
    assert "Traceback" not in err and out == ""


def test_a_scheduler_without_workers_is_reported() -> None:
    expected = r"has no workers after 0.5 s; start some with `dask worker tcp://127\.0\.0\.1:"
    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp",
                                  dashboard_address=":0") as empty, \
            pytest.raises(cluster.ClusterError, match=expected):
        cluster.connect(empty.scheduler_address, timeout=0.5)


def test_workers_and_a_scheduler_are_one_or_the_other(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "ring.json", "--workers", "2", "--scheduler", "tcp://host:8786")
    assert code == 2
    assert "--scheduler: not allowed with argument --workers" in err


def test_without_dask_the_command_says_how_to_install_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # importing it now fails
    monkeypatch.delitem(sys.modules, "trackformat.sim.batch.cluster")
    monkeypatch.delattr("trackformat.sim.batch.cluster")
    track = tmp_path / "ring.json"
    save_track(ring(lanes=2, per_lane=24), track)
    code, out, err = run(capsys, str(track), "--races", "2", "--scheduler", "tcp://host:8786")
    assert code == 2
    assert "--scheduler needs dask.distributed" in err and '".[cluster]"' in err
    assert "Traceback" not in err and out == ""
