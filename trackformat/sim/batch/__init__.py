"""Many races: test drives, what they count, race logs, and batches on a cluster.

- ``testdrive``: a batch of seeded races cut into chunks, raced here, in worker processes or
  elsewhere, merged into one report that the seed alone decides; raced on the compiled kernel
  by default, or on the readable engine (the same races either way).
- ``chunks``: how a batch is cut into chunks (worked out as they are raced, never listed) and
  merged back in order.
- ``stats``: the counts of a batch (per corner, per car, per driver), which merge exactly.
- ``compare``: two reports side by side, the rates that moved beyond their 95% intervals.
- ``racelog``: one race as JSON lines, and replaying a log to check it event for event.
- ``cluster``: the same batch on a Dask cluster; needs the ``cluster`` extra, so nothing imports
  it until a batch asks for a scheduler.

May import: core, move, race, drivers, kernel.
"""
