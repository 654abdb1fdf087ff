/* one_link.c: one directed link carrying a stream of pieces in order, as the pipelined executor sends them
 * (benchmarks/executors.py --one-link builds and runs it under SimGrid's SMPI, 2 ranks on one link).
 *
 * Rank 0 sends `pieces` messages to rank 1 in order, at most `window` in flight, each with MPI_Issend (it completes
 * once its piece has been received: the window paces the link, as in te_run.c); rank 1 keeps `window` receives
 * posted from its first one not yet received.  With stagger=1 the lengths alternate 9/8 and 7/8 of `bytes` (pairs
 * of pieces keep the mean), as the executor's pieces do.  Rank 1 prints the simulated seconds from the first send
 * to the last arrival: "seconds=S".
 *
 * Arguments: pieces=N bytes=B window=W stagger=0|1 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long argument(int argc, char **argv, const char *name, long otherwise) {
  size_t n = strlen(name);
  for (int i = 1; i < argc; i++)
    if (strncmp(argv[i], name, n) == 0 && argv[i][n] == '=') return atol(argv[i] + n + 1);
  return otherwise;
}

static int length_of(long q, long bytes, int stagger) {
  if (!stagger) return (int)bytes;
  return (int)((q & 1) ? bytes - bytes / 8 : bytes + bytes / 8);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long pieces = argument(argc, argv, "pieces", 64), bytes = argument(argc, argv, "bytes", 65536);
  int window = (int)argument(argc, argv, "window", 1), stagger = (int)argument(argc, argv, "stagger", 0);
  if (pieces < 1 || bytes < 8 || window < 1) {
    if (rank == 0) fprintf(stderr, "one_link: pieces >= 1, bytes >= 8, window >= 1\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  char *buffer = SMPI_SHARED_MALLOC((size_t)bytes * 2);
  MPI_Request *requests = malloc(sizeof(MPI_Request) * (size_t)window);
  for (int i = 0; i < window; i++) requests[i] = MPI_REQUEST_NULL;
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  long next = 0, done = 0;
  while (done < pieces) {
    for (int i = 0; i < window && next < pieces; i++) {
      if (requests[i] != MPI_REQUEST_NULL) continue;
      int tag = (int)(next % 32000);
      if (rank == 0)
        MPI_Issend(buffer, length_of(next, bytes, stagger), MPI_BYTE, 1, tag, MPI_COMM_WORLD, &requests[i]);
      else
        MPI_Irecv(buffer, length_of(next, bytes, stagger), MPI_BYTE, 0, tag, MPI_COMM_WORLD, &requests[i]);
      next++;
    }
    int at;
    MPI_Waitany(window, requests, &at, MPI_STATUS_IGNORE);
    done++;
  }
  double end = MPI_Wtime();
  if (rank == 1) printf("seconds=%.9f\n", end - start);
  SMPI_SHARED_FREE(buffer);
  free(requests);
  MPI_Finalize();
  return 0;
}
