/* alltoall_threads.c: MPI_Alltoall against PMPI_Alltoall from several threads (tests/c/alltoall_common.h prints the
 * verdicts).
 *
 *   mpiexec -n N ./alltoall_threads            (MPI_THREAD_MULTIPLE; N ranks)
 *   mpiexec -n P ./alltoall_threads threadcomm T   (MPICH's thread communicators: P processes x T threads)
 *
 * Without arguments, REPEATS times: THREADS threads per process, each with its own fresh duplicate of MPI_COMM_WORLD,
 * make their first MPI_Alltoall at the same moment (a barrier between the threads of a process), then ROUNDS calls, each
 * call compared with PMPI_Alltoall on the same communicator; MPI allows concurrent collectives on different
 * communicators, so none of this may hang or differ.  With `threadcomm T`: a thread communicator of P x T ranks
 * (MPIX_Threadcomm_init), each thread a rank, the same comparison inside MPIX_Threadcomm_start/finish; when the MPI
 * library has no thread communicators it prints "SKIP no MPIX_Threadcomm_init" and exits 0.
 */
#include "alltoall_common.h"

#include <pthread.h>

#define THREADS 4
#define ROUNDS 4
#define REPEATS 2 /* fresh duplicates, each with its first calls at once */

typedef struct {
  MPI_Comm comm;
  int index, differs;
  pthread_barrier_t *start;
} worker;

/* ROUNDS calls on w->comm, each compared with PMPI_Alltoall; w->differs: the calls that differed on this rank */
static void *exchange(void *argument) {
  worker *w = argument;
  int n, rank;
  MPI_Comm_size(w->comm, &n);
  MPI_Comm_rank(w->comm, &rank);
  if (w->start) pthread_barrier_wait(w->start);
  for (int round = 0; round < ROUNDS; round++) {
    int count = 3 + round * 250 + w->index; /* 12 B to about 3 KiB blocks of MPI_INT */
    size_t total = sizeof(int) * (size_t)count * n;
    int *send = malloc(total), *a = calloc(1, total), *b = calloc(1, total);
    for (size_t i = 0; i < (size_t)count * n; i++) send[i] = rank * 1000003 + (int)i * 7 + w->index;
    MPI_Alltoall(send, count, MPI_INT, a, count, MPI_INT, w->comm);
    PMPI_Alltoall(send, count, MPI_INT, b, count, MPI_INT, w->comm);
    w->differs += memcmp(a, b, total) != 0;
    free(send);
    free(a);
    free(b);
  }
  return NULL;
}

static int concurrent_communicators(void) {
  worker workers[THREADS];
  pthread_t threads[THREADS];
  pthread_barrier_t start;
  pthread_barrier_init(&start, NULL, THREADS);
  int mine = 0, count = 0;
  for (int repeat = 0; repeat < REPEATS; repeat++) {
  for (int t = 0; t < THREADS; t++) {
    workers[t] = (worker){MPI_COMM_NULL, t, 0, &start};
    MPI_Comm_dup(MPI_COMM_WORLD, &workers[t].comm);
  }
  for (int t = 0; t < THREADS; t++) pthread_create(&threads[t], NULL, exchange, &workers[t]);
  for (int t = 0; t < THREADS; t++) {
    pthread_join(threads[t], NULL);
    mine += workers[t].differs;
    MPI_Comm_free(&workers[t].comm);
  }
  }
  pthread_barrier_destroy(&start);
  PMPI_Allreduce(&mine, &count, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  cases++;
  differ += count != 0;
  if (me == 0) printf("CASE %d threads, first calls on %d duplicates at once (%d times) %s\n", THREADS, THREADS,
                      REPEATS, count ? "DIFFERS" : "same");
  return count;
}

#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION >= 40200000
#pragma weak MPIX_Threadcomm_init
typedef struct {
  MPI_Comm comm;
  int differs;
} threadcomm_worker;

static void *threadcomm_rank(void *argument) {
  threadcomm_worker *w = argument;
  MPIX_Threadcomm_start(w->comm);
  worker mine = {w->comm, 0, 0, NULL};
  exchange(&mine);
  w->differs = mine.differs;
  MPIX_Threadcomm_finish(w->comm);
  return NULL;
}

static int thread_communicator(int threads) {
  if (!MPIX_Threadcomm_init) {
    if (me == 0) printf("SKIP no MPIX_Threadcomm_init\n");
    return 0;
  }
  MPI_Comm comm;
  if (MPIX_Threadcomm_init(MPI_COMM_WORLD, threads, &comm) != MPI_SUCCESS) {
    if (me == 0) printf("SKIP MPIX_Threadcomm_init failed\n");
    return 0;
  }
  threadcomm_worker *workers = calloc((size_t)threads, sizeof *workers);
  pthread_t *ids = calloc((size_t)threads, sizeof *ids);
  for (int t = 0; t < threads; t++) {
    workers[t].comm = comm;
    pthread_create(&ids[t], NULL, threadcomm_rank, &workers[t]);
  }
  int mine = 0, count = 0;
  for (int t = 0; t < threads; t++) {
    pthread_join(ids[t], NULL);
    mine += workers[t].differs;
  }
  MPIX_Threadcomm_free(&comm);
  PMPI_Allreduce(&mine, &count, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  cases++;
  differ += count != 0;
  if (me == 0) printf("CASE a thread communicator of %d x %d ranks %s\n", ranks, threads, count ? "DIFFERS" : "same");
  free(workers);
  free(ids);
  return count;
}
#else
static int thread_communicator(int threads) {
  (void)threads;
  if (me == 0) printf("SKIP no MPIX_Threadcomm_init\n");
  return 0;
}
#endif

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (provided < MPI_THREAD_MULTIPLE) {
    if (me == 0) printf("SKIP MPI_THREAD_MULTIPLE not provided\n");
    MPI_Finalize();
    return 0;
  }
  if (argc > 2 && !strcmp(argv[1], "threadcomm")) thread_communicator(atoi(argv[2]));
  else concurrent_communicators();
  return finish();
}
