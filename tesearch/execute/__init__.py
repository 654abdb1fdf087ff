"""Running schedules: the hop schedule every executor runs, its binary file, and the C executor library.

* :mod:`~tesearch.execute.hops`: :class:`~tesearch.execute.hops.HopSchedule`, node-invariant routes with the
  step of every hop (a table's timing, or supersteps);
"""
