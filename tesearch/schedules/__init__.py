"""A table as a schedule that runs: per-rank programs, hop schedules and the C executors, the MPI_Alltoall
library, the contenders beside the table, simulated time on SimGrid, traces, the single-port schedules and the
comparison with what users would run without tesearch."""
