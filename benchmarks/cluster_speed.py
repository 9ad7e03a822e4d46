"""How fast test drives run on a Dask cluster: races per second with 1 and 2 workers of a local
cluster against one process, and what the cluster costs per chunk.

Prints a table, no assertions. The cluster is a ``LocalCluster`` of worker processes with one
thread each (as ``dask worker --nthreads 1`` starts them), on this machine: it measures what
the cluster machinery costs, not a network. Times are wall-clock (the work is in other
processes), so a busy machine shows in them: run it on a quiet one, and more than once.

    python benchmarks/cluster_speed.py                     # Monaco, 6 random cars, 60 races
    python benchmarks/cluster_speed.py --races 200 --bot cautious --workers 1 2 4
    python benchmarks/cluster_speed.py --track ring        # the test ring: small, fast races

Rows:

- ``one process``: :func:`run_batch` in this process, the yardstick;
- ``cluster, N workers``: :func:`run_on_cluster` on a local cluster of N workers, after a warm-up
  batch that starts the workers' imports (each batch still builds its board once per worker);
- ``added per chunk``: (1-worker cluster time - one process time) / chunks: what running a
  chunk on the cluster adds to racing it, all costs included (sending it, the result back,
  merging, building the board once);
- ``empty task round trip``: tasks that do nothing, through a window of the same size: the
  least a chunk can cost on this scheduler.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from distributed import Client, LocalCluster, as_completed  # noqa: E402

from trackformat.io import load_track  # noqa: E402
from trackformat.model import Track  # noqa: E402
from trackformat.rules import load_ruleset  # noqa: E402
from trackformat.sim.batch.cluster import WINDOW_PER_THREAD, run_on_cluster  # noqa: E402
from trackformat.sim.batch.testdrive import DriveSpec, plan_chunks, prepare, run_batch  # noqa: E402


def track_of(name: str) -> tuple[Track, str]:
    """Monaco from its file (the ring when it is missing), or the factory ring."""
    path = ROOT / "tracks" / "monaco.json"
    if name == "monaco" and path.exists():
        return load_track(path), "Monaco (tracks/monaco.json)"
    from tests.factories import ring

    return ring(lanes=3, per_lane=40), "the factory ring (3 lanes of 40)"


def empty_round_trip(client: Client, tasks: int, window: int) -> float:
    """Seconds per task for ``tasks`` tasks that do nothing, ``window`` at a time."""
    started = time.perf_counter()
    done = as_completed(loop=client.loop)
    submitted = 0

    def top_up() -> None:
        nonlocal submitted
        while submitted < tasks and done.count() < window:
            done.add(client.submit(abs, -submitted, pure=False))
            submitted += 1

    top_up()
    for future in done:
        future.result()
        future.release()
        top_up()
    return (time.perf_counter() - started) / tasks


def on_cluster(spec: DriveSpec, races: int, workers: int,
               warmup: int) -> tuple[float, float]:
    """(seconds for the batch, seconds per empty task) on a local cluster of ``workers``."""
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, \
            Client(cluster, set_as_default=False) as client:
        client.wait_for_workers(workers)
        run_on_cluster(client, spec, warmup)
        started = time.perf_counter()
        run_on_cluster(client, spec, races)
        spent = time.perf_counter() - started
        empty = empty_round_trip(client, 200, WINDOW_PER_THREAD * workers)
    return spent, empty


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--track", choices=["monaco", "ring"], default="monaco")
    parser.add_argument("--races", type=int, default=60)
    parser.add_argument("--cars", type=int, default=6)
    parser.add_argument("--bot", default="random")
    parser.add_argument("--laps", type=int, default=1)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--warmup", type=int, default=4, help="races of the warm-up batch")
    args = parser.parse_args(argv)
    track, name = track_of(args.track)
    spec = DriveSpec.of(track, load_ruleset("formula-d"), (args.bot,) * args.cars, seed=1,
                        laps=args.laps)
    context = prepare(spec)
    chunks = len(plan_chunks(args.races))
    print(f"track: {name}; {args.races} races of {args.cars} {args.bot} cars, {args.laps} "
          f"lap(s), {chunks} chunks of up to {len(plan_chunks(args.races)[0].races)} races")
    print("wall-clock times on this machine, which other work may share")
    started = time.perf_counter()
    run_batch(spec, args.races, context=context)
    alone = time.perf_counter() - started
    print(f"{'run':<22}{'seconds':>9}{'races/s':>10}{'speed-up':>10}")
    print(f"{'one process':<22}{alone:>9.2f}{args.races / alone:>10.1f}{1.0:>10.2f}")
    empties: dict[int, float] = {}
    spent_with: dict[int, float] = {}
    for workers in args.workers:
        spent, empties[workers] = on_cluster(spec, args.races, workers, args.warmup)
        spent_with[workers] = spent
        label = f"cluster, {workers} worker{'s' if workers > 1 else ''}"
        print(f"{label:<22}{spent:>9.2f}{args.races / spent:>10.1f}{alone / spent:>10.2f}")
    if 1 in spent_with:
        added = (spent_with[1] - alone) / chunks
        print(f"added per chunk (1 worker): {added * 1000:.1f} ms "
              f"(a chunk takes {alone / chunks * 1000:.1f} ms to race)")
    for workers, empty in empties.items():
        print(f"empty task round trip ({workers} worker{'s' if workers > 1 else ''}): "
              f"{empty * 1000:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
