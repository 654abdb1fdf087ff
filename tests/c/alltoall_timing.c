/* alltoall_timing.c: an MPI program that times MPI_Alltoall at a few block sizes and checks what it received.
 *
 * What `tesearch simulate TABLE --program tests/c/alltoall_timing.c` runs (with the table's MPI_Alltoall linked in,
 * and plain on SMPI's algorithms), and what README.md's library example preloads.  Rank 0 prints, per block size,
 * "ALLTOALL <bytes> B: <seconds> s" (the slowest rank's mean over 3 calls after one warm-up call) and at the end
 * "BLOCKS ok" or "BLOCKS WRONG <n>" (blocks that differ from what their origins sent, over all ranks: exit 1).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define CALLS 3

static unsigned char expected(int origin, int destination, size_t i) {
  return (unsigned char)(origin * 7 + destination * 13 + i);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, ranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const size_t sizes[] = {8, 4096, 65536};
  long wrong = 0;
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    size_t block = sizes[k], total = block * (size_t)ranks;
    unsigned char *send = malloc(total), *recv = malloc(total);
    for (int d = 0; d < ranks; d++)
      for (size_t i = 0; i < block; i++) send[(size_t)d * block + i] = expected(me, d, i);
    MPI_Alltoall(send, (int)block, MPI_BYTE, recv, (int)block, MPI_BYTE, MPI_COMM_WORLD); /* warm-up */
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    for (int c = 0; c < CALLS; c++)
      MPI_Alltoall(send, (int)block, MPI_BYTE, recv, (int)block, MPI_BYTE, MPI_COMM_WORLD);
    double mine = (MPI_Wtime() - start) / CALLS, slowest = 0;
    MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    for (int o = 0; o < ranks; o++)
      for (size_t i = 0; i < block; i++)
        if (recv[(size_t)o * block + i] != expected(o, me, i)) {
          wrong++;
          break;
        }
    if (me == 0) printf("ALLTOALL %zu B: %.9e s\n", block, slowest);
    free(send);
    free(recv);
  }
  long all = 0;
  MPI_Reduce(&wrong, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) {
    if (all) printf("BLOCKS WRONG %ld\n", all);
    else printf("BLOCKS ok\n");
  }
  MPI_Bcast(&all, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return all ? 1 : 0;
}
