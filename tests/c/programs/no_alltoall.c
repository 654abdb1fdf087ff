/* no_alltoall.c: MPI_Init and MPI_Finalize, nothing between: the library has nothing to time. */
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Finalize();
  return 0;
}
