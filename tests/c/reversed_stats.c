/* reversed_stats.c: one MPI_Alltoall on a communicator of every rank in reverse order (rank r there is world rank
 * size-1-r), so that the library's stats line, which names world ranks, must translate the schedule's neighbours
 * (tests/test_library_output.py). */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, ranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  MPI_Comm reversed;
  MPI_Comm_split(MPI_COMM_WORLD, 0, ranks - 1 - me, &reversed);
  int *send = malloc(sizeof(int) * 64 * (size_t)ranks), *recv = malloc(sizeof(int) * 64 * (size_t)ranks);
  for (int i = 0; i < 64 * ranks; i++) send[i] = i;
  MPI_Alltoall(send, 64, MPI_INT, recv, 64, MPI_INT, reversed);
  MPI_Comm_free(&reversed);
  free(send);
  free(recv);
  MPI_Finalize();
  return 0;
}
