/* alltoall_large.c: MPI 4's large-count MPI_Alltoall_c against PMPI_Alltoall_c at the block sizes given
 * (tests/c/alltoall_common.h prints the verdicts).
 *
 *   mpiexec -n N ./alltoall_large BYTES ...
 *
 * Each size: blocks of BYTES MPI_BYTE (an MPI_Count), then the same bytes as BYTES/8 elements of a contiguous type
 * of 8 MPI_BYTE; "SCHEDULE ..." says whether the library ran it on its schedule.  With the library built with a
 * small TE_MESSAGE_LIMIT, sizes around the limit exercise the bundles split into pieces and the blocks above it
 * sent to PMPI_Alltoall_c.  Exit status 1 when a case differs.
 */
#include "alltoall_common.h"

#if MPI_VERSION >= 4
static void large_case(MPI_Count bytes, MPI_Datatype type, MPI_Count count, const char *what) {
  char name[160];
  snprintf(name, sizeof name, "%lld B blocks as %s", (long long)bytes, what);
  size_t total = (size_t)bytes * (size_t)ranks;
  unsigned char *send = filled(total, 31), *a = filled(total, 32), *b = filled(total, 32);
  long before = on_schedule_so_far();
  MPI_Alltoall_c(send, count, type, a, count, type, MPI_COMM_WORLD);
  scheduled_on(name, before);
  PMPI_Alltoall_c(send, count, type, b, count, type, MPI_COMM_WORLD);
  verdict(name, a, b, total);
  free(send);
  free(a);
  free(b);
}
#endif

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
#if MPI_VERSION >= 4
  MPI_Datatype eight;
  MPI_Type_contiguous(8, MPI_BYTE, &eight);
  MPI_Type_commit(&eight);
  for (int i = 1; i < argc; i++) {
    MPI_Count bytes = strtoll(argv[i], NULL, 10);
    large_case(bytes, MPI_BYTE, bytes, "MPI_BYTE");
    if (bytes % 8 == 0) large_case(bytes, eight, bytes / 8, "8-byte contiguous elements");
  }
  MPI_Type_free(&eight);
#else
  if (me == 0) printf("SKIP no MPI_Alltoall_c (MPI %d)\n", MPI_VERSION);
#endif
  return finish();
}
