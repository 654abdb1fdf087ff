"""``tesearch simulate``: a network's schedules and the MPI_Alltoall algorithms, timed on SimGrid (SMPI).

* :mod:`~tesearch.schedules.simulate.platform`: the SimGrid platform of a network (one host per node, one link
  per directed edge, shortest-path routes);
* :mod:`~tesearch.schedules.simulate.lineup`: the contenders in four families (the table's executors, non-optimal
  tables, table-free schedules, MPI_Alltoall) and how each is run;
* :mod:`~tesearch.schedules.simulate.smpi`: finding smpicc/smpirun and running smpirun through the one process runner
  (:mod:`tesearch.running.processes`), reading what it printed;
* :mod:`~tesearch.schedules.simulate.study`: the check runs, the timed runs (cut once they cannot be their family's
  best), the link-time bound;
* :mod:`~tesearch.schedules.simulate.verdicts`: run statuses, family completeness, the attribution, the crossover;
* :mod:`~tesearch.schedules.simulate.report`: the text report;
* :mod:`~tesearch.schedules.simulate.trace`: the simulated run of the table as Chrome trace-event JSON;
* :mod:`~tesearch.schedules.simulate.userprogram`: ``--program``: a user's MPI program linked with the table's
  MPI_Alltoall library.

The executors are the C executor library of :mod:`tesearch.schedules.execute` (package data), built with smpicc.
"""
