"""Portfolio sweeps: many strategies, seeds and backends per network as Ray tasks (``tesearch sweep``).

:mod:`~tesearch.search.sweep.portfolio` chooses the entries per network and runs one
entry to a plain record (no ray); :mod:`~tesearch.search.sweep.driver` runs them as
Ray tasks, verifies every returned table itself, cancels the rest once a
network is won, and writes tables and the runs record (``docs/sweep.md``).
Importing this package does not import ray.
"""

from tesearch.search.sweep.portfolio import Entry, portfolio, run_entry

__all__ = ["Entry", "portfolio", "run_entry"]
