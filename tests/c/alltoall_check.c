/* alltoall_check.c: MPI_Alltoall (whatever defines it: MPI, or libtesearch_alltoall.so preloaded or linked) against
 * PMPI_Alltoall (the MPI library's own), on the same buffers in the same run, case by case.
 *
 *   mpiexec -n N ./alltoall_check [BYTES ...]      (default: 8 65536)
 *
 * Rank 0 prints "CASE name same" or "CASE name DIFFERS on K ranks" per case and "CHECKED n cases, m differ"; the
 * exit status is 1 when a case differs.  The cases: contiguous blocks of each BYTES (MPI_BYTE), MPI_INT blocks, a
 * repeated call, a duplicate of MPI_COMM_WORLD, send and receive types that differ but are the same contiguous
 * bytes (2 MPI_INT against one contiguous type of 2 MPI_INT), then what the library must leave to PMPI_Alltoall:
 * MPI_IN_PLACE, a non-contiguous derived type (a vector), one rank passing a vector where the others pass MPI_INT
 * (legal: the same type signature), a sub-communicator of another size, and zero counts.  Used by
 * tests/test_library.py; tests/c/alltoall_layouts.c, alltoall_errors.c and alltoall_threads.c go further.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int me, ranks, cases, differ;

static unsigned char pattern(int origin, int destination, size_t i) {
  return (unsigned char)(origin * 131 + destination * 31 + i * 7 + (i >> 8));
}

/* one case: `library` and `reference` received by MPI_Alltoall and PMPI_Alltoall; compared over all ranks */
static void verdict(const char *name, const void *library, const void *reference, size_t bytes) {
  int mine = memcmp(library, reference, bytes) != 0, count = 0;
  PMPI_Allreduce(&mine, &count, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  cases++;
  if (count) differ++;
  if (me == 0) {
    if (count) printf("CASE %s DIFFERS on %d ranks\n", name, count);
    else printf("CASE %s same\n", name);
    fflush(stdout);
  }
}

static void *filled(size_t bytes, int salt) {
  unsigned char *b = malloc(bytes ? bytes : 1);
  for (size_t i = 0; i < bytes; i++) b[i] = pattern(me + salt, (int)(i % 977), i);
  return b;
}

static void bytes_case(const char *name, MPI_Comm comm, size_t block) {
  int n;
  MPI_Comm_size(comm, &n);
  size_t total = block * (size_t)n;
  unsigned char *send = filled(total, 0), *a = calloc(1, total), *b = calloc(1, total);
  MPI_Alltoall(send, (int)block, MPI_BYTE, a, (int)block, MPI_BYTE, comm);
  PMPI_Alltoall(send, (int)block, MPI_BYTE, b, (int)block, MPI_BYTE, comm);
  verdict(name, a, b, total);
  free(send);
  free(a);
  free(b);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  char name[64];
  int given = argc > 1;
  for (int i = 1; i < (given ? argc : 3); i++) {
    size_t block = given ? (size_t)strtoull(argv[i], NULL, 10) : (i == 1 ? 8 : 65536);
    snprintf(name, sizeof name, "contiguous %zu B", block);
    bytes_case(name, MPI_COMM_WORLD, block);
  }
  { /* MPI_INT blocks of 3 */
    int *send = filled(sizeof(int) * 3 * ranks, 1), *a = calloc(3 * ranks, sizeof(int)), *b = calloc(3 * ranks, sizeof(int));
    MPI_Alltoall(send, 3, MPI_INT, a, 3, MPI_INT, MPI_COMM_WORLD);
    PMPI_Alltoall(send, 3, MPI_INT, b, 3, MPI_INT, MPI_COMM_WORLD);
    verdict("MPI_INT x 3", a, b, sizeof(int) * 3 * ranks);
    free(send);
    free(a);
    free(b);
  }
  for (int r = 0; r < 3; r++) { /* the cached communicator state, used again */
    snprintf(name, sizeof name, "repeated call %d", r + 1);
    bytes_case(name, MPI_COMM_WORLD, 16);
  }
  {
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    bytes_case("a duplicate of MPI_COMM_WORLD", dup, 24);
    MPI_Comm_free(&dup);
  }
  { /* MPI_IN_PLACE */
    size_t total = 8 * (size_t)ranks;
    unsigned char *a = filled(total, 2), *b = filled(total, 2);
    MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a, 8, MPI_BYTE, MPI_COMM_WORLD);
    PMPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, b, 8, MPI_BYTE, MPI_COMM_WORLD);
    verdict("MPI_IN_PLACE", a, b, total);
    free(a);
    free(b);
  }
  MPI_Datatype vector, pair;
  MPI_Type_vector(2, 1, 2, MPI_INT, &vector); /* ints 0 and 2 of 3: a hole, extent 3 ints */
  MPI_Type_commit(&vector);
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  { /* a non-contiguous derived type on every rank */
    size_t total = sizeof(int) * 3 * (size_t)ranks;
    int *send = filled(total, 3), *a = filled(total, 4), *b = filled(total, 4);
    MPI_Alltoall(send, 1, vector, a, 1, vector, MPI_COMM_WORLD);
    PMPI_Alltoall(send, 1, vector, b, 1, vector, MPI_COMM_WORLD);
    verdict("a non-contiguous vector type", a, b, total);
    free(send);
    free(a);
    free(b);
  }
  { /* send 2 MPI_INT, receive 1 pair: the same signature, other types and counts */
    size_t total = sizeof(int) * 2 * (size_t)ranks;
    int *send = filled(total, 5), *a = calloc(1, total), *b = calloc(1, total);
    MPI_Alltoall(send, 2, MPI_INT, a, 1, pair, MPI_COMM_WORLD);
    PMPI_Alltoall(send, 2, MPI_INT, b, 1, pair, MPI_COMM_WORLD);
    verdict("send and receive types that differ", a, b, total);
    free(send);
    free(a);
    free(b);
  }
  { /* rank 0 passes a vector, the others 2 MPI_INT: the ranks must agree to leave it to PMPI_Alltoall */
    size_t total = sizeof(int) * 3 * (size_t)ranks;
    int *send = filled(total, 6), *a = filled(total, 7), *b = filled(total, 7);
    MPI_Datatype type = me == 0 ? vector : MPI_INT;
    int count = me == 0 ? 1 : 2;
    if (me != 0) { /* the others' blocks are 2 ints, packed */
      total = sizeof(int) * 2 * (size_t)ranks;
    }
    MPI_Alltoall(send, count, type, a, count, type, MPI_COMM_WORLD);
    PMPI_Alltoall(send, count, type, b, count, type, MPI_COMM_WORLD);
    verdict("rank 0 alone with a non-contiguous type", a, b, total);
    free(send);
    free(a);
    free(b);
  }
  {
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half);
    bytes_case("a sub-communicator of another size", half, 8);
    MPI_Comm_free(&half);
  }
  { /* zero counts: nothing moves, the receive buffer stays as it was */
    unsigned char *send = filled(16, 8), *a = filled(16, 9), *b = filled(16, 9);
    MPI_Alltoall(send, 0, MPI_BYTE, a, 0, MPI_BYTE, MPI_COMM_WORLD);
    PMPI_Alltoall(send, 0, MPI_BYTE, b, 0, MPI_BYTE, MPI_COMM_WORLD);
    verdict("zero counts", a, b, 16);
    free(send);
    free(a);
    free(b);
  }
  MPI_Type_free(&vector);
  MPI_Type_free(&pair);
  if (me == 0) {
    printf("CHECKED %d cases, %d differ\n", cases, differ);
    fflush(stdout);
  }
  MPI_Finalize();
  return differ ? 1 : 0;
}
