/* aborts.c: rank 1 calls MPI_Abort after one MPI_Alltoall; smpirun has been seen to exit 0 on it. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define BLOCK 64

static void one_alltoall(void) {
  int ranks;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  unsigned char *send = malloc((size_t)BLOCK * ranks), *recv = malloc((size_t)BLOCK * ranks);
  for (int i = 0; i < BLOCK * ranks; i++) send[i] = (unsigned char)i;
  MPI_Alltoall(send, BLOCK, MPI_BYTE, recv, BLOCK, MPI_BYTE, MPI_COMM_WORLD);
  free(send);
  free(recv);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  one_alltoall();
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me == 1) MPI_Abort(MPI_COMM_WORLD, 3);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
