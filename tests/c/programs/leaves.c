/* leaves.c: after one MPI_Alltoall, rank 2 leaves with exit status 0 without calling MPI_Finalize. */
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
  if (me == 2) exit(0);
  MPI_Finalize();
  return 0;
}
