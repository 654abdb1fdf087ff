"""``tesearch simulate``: a table's schedule and the MPI_Alltoall algorithms, timed on SimGrid (SMPI).

* :mod:`~tesearch.simulate.platform`: the SimGrid platform of a network (one host per node, one link
  per directed edge, shortest-path routes);
* :mod:`~tesearch.simulate.inputs`: every rank's program (from the tesearch-programs export) as the
  small text file the C executor reads;
* :mod:`~tesearch.simulate.smpi`: finding smpicc/smpirun, compiling the C executor once into a cache,
  running smpirun in its own session and reading what it printed;
* :mod:`~tesearch.simulate.study`: the contenders, sizes, the link-time bound, the crossover, the report;
* :mod:`~tesearch.simulate.trace`: the simulated run of the table as Chrome trace-event JSON.

The C program ``tesearch_simulate.c`` ships in this package (package data).
"""
