"""Per-rank programs of a table's schedule: rank numbering, the program function, export and traces.

Data flows one way: a table -> :func:`~tesearch.schedules.programs.schedule.compile_schedule` (the cells of
the table and the network's rank numbering) -> :func:`~tesearch.schedules.programs.schedule.program` (one
rank's sends and receives, a pure function of the table and the rank) -> the tesearch-programs
v1 writer (:mod:`~tesearch.schedules.programs.export`) or traces (:mod:`~tesearch.schedules.programs.traces`).  Schedules run on MPI
through the C executor library (:mod:`tesearch.schedules.execute`).  The replay simulator (:mod:`tesearch.checking.replay`) imports
nothing from here: it stays an independent check of the same tables.
"""
