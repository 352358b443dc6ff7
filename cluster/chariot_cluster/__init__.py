"""chariot-cluster: Chariot's `datagen` and `match` fanned out over a Ray cluster.

The `chariot` binary stays the unit of work: each Ray task runs one `chariot datagen` shard
or one `chariot match --pairs A..B`; this package only schedules, checks, records and joins.
Statistics come from `chariot match --combine`, never from Python.
"""

__version__ = "0.1.0"
