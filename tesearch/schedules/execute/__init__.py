"""Running schedules: the hop schedule every executor runs, its binary file, and the C executor library.

* :mod:`~tesearch.schedules.execute.hops`: :class:`~tesearch.schedules.execute.hops.HopSchedule`, node-invariant routes with the
  step of every hop (a table's timing, or supersteps);
* :mod:`~tesearch.schedules.execute.hopsfile`: the tesearch-hops v1 file the C side reads;
* :mod:`~tesearch.schedules.execute.faults`: the fault vocabulary, read from ``c/te_faults.def``;
* :mod:`~tesearch.schedules.execute.build`: the C library (``c/``) compiled with smpicc or the mpi extra's mpicc, cached;
* :mod:`~tesearch.schedules.execute.mpi`: ``tesearch run --mpi``: the check and the executors under mpiexec;
* :mod:`~tesearch.schedules.library`: ``tesearch library``: an MPI_Alltoall (PMPI) shared library with the schedule
  compiled in.
"""
