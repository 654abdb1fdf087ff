/* alltoall_common.h: what the conformance programs of tests/c share (header only, no library needed).
 *
 * Each case calls MPI_Alltoall (whatever defines it: MPI, or libtesearch_alltoall.so preloaded or linked) and
 * PMPI_Alltoall (the MPI library's own) on the same arguments and compares what they received, byte for byte, on
 * every rank.  Rank 0 prints "CASE name same" or "CASE name DIFFERS on K ranks", then "CHECKED n cases, m differ".
 * When the library is there (found with dlsym, so the program needs no link to it), a case may also say whether the
 * library ran it on its schedule: "SCHEDULE name yes|no on K ranks" (K: the ranks whose call ran on the schedule).
 */
#ifndef ALLTOALL_COMMON_H
#define ALLTOALL_COMMON_H

#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int me, ranks, cases, differ;

typedef void (*counts_fn)(long *calls, long *on_schedule, long *to_pmpi);

/* calls run on the schedule by this process so far; -1 without the library */
static long on_schedule_so_far(void) {
  counts_fn counts = (counts_fn)dlsym(RTLD_DEFAULT, "tesearch_alltoall_counts");
  long on = -1;
  if (counts) counts(NULL, &on, NULL);
  return on;
}

static unsigned char pattern(int origin, int destination, size_t i) {
  return (unsigned char)(origin * 131 + destination * 31 + i * 7 + (i >> 8));
}

static void *filled(size_t bytes, int salt) {
  unsigned char *b = malloc(bytes ? bytes : 1);
  for (size_t i = 0; i < bytes; i++) b[i] = pattern(me + salt, (int)(i % 977), i);
  return b;
}

/* one case over `world`: it differs on this rank when `mine` is nonzero; rank 0 says on how many ranks */
static void tally(MPI_Comm world, const char *name, int mine) {
  int count = 0, rank;
  mine = mine != 0;
  PMPI_Allreduce(&mine, &count, 1, MPI_INT, MPI_SUM, world);
  PMPI_Comm_rank(world, &rank);
  cases++;
  if (count) differ++;
  if (rank == 0) {
    if (count) printf("CASE %s DIFFERS on %d ranks\n", name, count);
    else printf("CASE %s same\n", name);
    fflush(stdout);
  }
}

/* one case: `library` and `reference` received by MPI_Alltoall and PMPI_Alltoall; compared over `world` */
static void verdict_on(MPI_Comm world, const char *name, const void *library, const void *reference, size_t bytes) {
  tally(world, name, memcmp(library, reference, bytes) != 0);
}

static void verdict(const char *name, const void *library, const void *reference, size_t bytes) {
  verdict_on(MPI_COMM_WORLD, name, library, reference, bytes);
}

/* "SCHEDULE name yes on K ranks": whether this process's calls since `before` ran on the schedule */
static void scheduled_on(const char *name, long before) {
  long now = on_schedule_so_far();
  int mine = before >= 0 && now > before, count = 0;
  PMPI_Allreduce(&mine, &count, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0 && before >= 0) {
    printf("SCHEDULE %s %s on %d ranks\n", name, count ? "yes" : "no", count);
    fflush(stdout);
  }
}

static int finish(void) {
  if (me == 0) {
    printf("CHECKED %d cases, %d differ\n", cases, differ);
    fflush(stdout);
  }
  MPI_Finalize();
  return differ ? 1 : 0;
}

#endif
