/* te_main.c: one rank of a timed total exchange, under SimGrid (smpicc -DTE_SIMGRID) or real MPI (mpicc).
 *
 * Started by `tesearch simulate` (smpirun) and `tesearch run --mpi` (mpiexec) with key=value arguments:
 *   mode=alltoall            MPI_Alltoall (under SimGrid the algorithm is smpirun's --cfg choice)
 *   mode=run                 the schedule under one executor (te.h): executor=step|dataflow|combined|pipelined,
 *                            lookahead=K inflight=W (dataflow), pieces=BYTES (combined), split=P inflight=W
 *                            (pipelined: P pieces per hop, W pieces in flight per link)
 *   mode=check               the schedule in lockstep frames: its faults (te_check); with real MPI rank 0 also
 *                            prints the library (LIBRARY line)
 *   mode=idle                a barrier only (the simulator's memory without an exchange)
 *   mode=routes              every rank sends one byte to every other (the platform test reads the latencies)
 *   schedule=FILE            a tesearch-hops file (mode run and check)
 *   bytes=N                  bytes per block
 *   check=1                  real buffers, every delivered block compared with its origin's pattern (and, with
 *                            reference=1, with what MPI_Alltoall delivers from the same buffers); check=0 under
 *                            SimGrid: SMPI's shared allocations, no payload, no comparison
 *   repeat=R                 time the exchange R times (rank 0 prints every time)
 *   trace=DIR                each rank writes DIR/trace-R.txt: when it sent and received each hop
 *   label=NAME               the name printed on RESULT and TIMES lines
 *   progress=MS              under SimGrid, a CLOCK line every MS milliseconds of CPU (default 5000; 0: none)
 *   mode=dump rank=R         print rank R's program (HOP send|recv step letter neighbour origin destination cell):
 *                            how the tests hold the C side's group arithmetic to Python's, on one process
 * Output (stdout, each line whole): RESULT label bytes seconds checked mismatches skew held_bytes held_blocks
 * messages (rank 0; seconds = last end - first start; held = the most any rank held beyond its send and receive
 * buffers; messages = all ranks'), TIMES label s1 s2 ..., FAULT NAME rank step origin destination detail,
 * ROUTE receiver sender seconds, LIBRARY major.minor text (real MPI, mode=check: MPI_Get_version and the first line of
 * MPI_Get_library_version), and under SimGrid START ns and CLOCK ns finished (progress of a long run: while
 * fewer than all ranks have finished, its time is at least CLOCK - START).
 * No mutable globals but the progress counter and te_schedule.c's read-only cache: SimGrid runs it unprivatized.
 */
#include "te.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#ifdef TE_SIMGRID
#include <simgrid/engine.h>
#include <smpi/smpi.h>
#endif

#define MAX_FAULTS 20
size_t te_largest_bundle(const te_program *p);

static void die(const char *what, int rank) {
  fprintf(stderr, "te_main: rank %d: %s\n", rank, what);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 3);
  exit(3);
}

/* ------------------------------------------------------------------ progress under SimGrid */

#ifdef TE_SIMGRID
static volatile long finished_ranks = 0; /* shared by the ranks: the program runs unprivatized */

static void put_number(char *buf, int *at, long long v) {
  char digits[24];
  int n = 0;
  if (v < 0) {
    buf[(*at)++] = '-';
    v = -v;
  }
  do {
    digits[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v > 0);
  while (n > 0) buf[(*at)++] = digits[--n];
}

static void on_progress(int sig) { /* async-signal-safe: digits by hand, one write */
  (void)sig;
  char buf[80];
  int at = 6;
  memcpy(buf, "CLOCK ", 6);
  put_number(buf, &at, (long long)(simgrid_get_clock() * 1e9));
  buf[at++] = ' ';
  put_number(buf, &at, finished_ranks);
  buf[at++] = '\n';
  ssize_t ignored = write(1, buf, (size_t)at);
  (void)ignored;
}

static void start_progress(int me, long every_ms) {
  if (me != 0 || every_ms <= 0) return;
  printf("START %lld\n", (long long)(simgrid_get_clock() * 1e9));
  fflush(stdout);
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_progress;
  action.sa_flags = SA_RESTART;
  sigaction(SIGVTALRM, &action, NULL);
  struct itimerval every = {{every_ms / 1000, (every_ms % 1000) * 1000}, {every_ms / 1000, (every_ms % 1000) * 1000}};
  setitimer(ITIMER_VIRTUAL, &every, NULL);
}
static void finished(void) { finished_ranks++; }
#define BUFFER(bytes, check) ((check) ? calloc(1, (bytes) ? (bytes) : 1) : SMPI_SHARED_MALLOC((bytes) ? (bytes) : 1))
#define RELEASE(pointer, check) ((check) ? free(pointer) : SMPI_SHARED_FREE(pointer))
#else
static void start_progress(int me, long every_ms) {
  (void)me;
  (void)every_ms;
}
static void finished(void) {}
#define BUFFER(bytes, check) calloc(1, (bytes) ? (bytes) : 1)
#define RELEASE(pointer, check) free(pointer)
#endif

/* ------------------------------------------------------------------ arguments */

typedef struct {
  const char *mode, *schedule, *executor, *trace, *label;
  size_t bytes, pieces;
  int check, repeat, lookahead, inflight, reference, rank, split;
  long progress_ms;
} arguments;

static void parse(int argc, char **argv, arguments *a, int me) {
  *a = (arguments){"", NULL, "step", NULL, NULL, 8, 0, 1, 1, 1, 1, 0, 0, 1, 5000};
  for (int i = 1; i < argc; i++) {
    char *eq = strchr(argv[i], '=');
    if (!eq) die("arguments are key=value", me);
    *eq = 0;
    const char *key = argv[i], *value = eq + 1;
    if (!strcmp(key, "mode")) a->mode = value;
    else if (!strcmp(key, "schedule")) a->schedule = value;
    else if (!strcmp(key, "executor")) a->executor = value;
    else if (!strcmp(key, "trace")) a->trace = value;
    else if (!strcmp(key, "label")) a->label = value;
    else if (!strcmp(key, "bytes")) a->bytes = (size_t)strtoull(value, NULL, 10);
    else if (!strcmp(key, "pieces")) a->pieces = (size_t)strtoull(value, NULL, 10);
    else if (!strcmp(key, "check")) a->check = atoi(value);
    else if (!strcmp(key, "repeat")) a->repeat = atoi(value);
    else if (!strcmp(key, "lookahead")) a->lookahead = atoi(value);
    else if (!strcmp(key, "inflight")) a->inflight = atoi(value);
    else if (!strcmp(key, "reference")) a->reference = atoi(value);
    else if (!strcmp(key, "rank")) a->rank = atoi(value);
    else if (!strcmp(key, "split")) a->split = atoi(value);
    else if (!strcmp(key, "progress")) a->progress_ms = atol(value);
    else die("an argument te_main does not know", me);
  }
  if (a->bytes < 1 || a->bytes > 0x7fffffffu) die("bytes must be in 1..2^31 - 1", me);
  if (a->repeat < 1 || a->lookahead < 1 || a->inflight < 1 || a->split < 1)
    die("repeat, lookahead, inflight and split must be >= 1", me);
  if (!a->label) a->label = a->mode;
}

/* ------------------------------------------------------------------ reporting */

static void print_fault(te_fault_kind kind, int rank, int step, int origin, int destination, const char *detail) {
  printf("FAULT %s %d %d %d %d %s\n", te_fault_name(kind), rank, step, origin, destination, detail);
  fflush(stdout);
}

/* RESULT from rank 0, over all ranks */
static void report(const arguments *a, double start, double end, long mismatches, size_t held_bytes, long held_blocks,
                   long messages) {
  double first = 0, last = 0, latest_start = 0;
  long total = 0, sent = 0, blocks = 0;
  unsigned long long bytes_held = 0, mine = held_bytes;
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Reduce(&start, &first, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  MPI_Reduce(&start, &latest_start, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&end, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&mismatches, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&messages, &sent, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&held_blocks, &blocks, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&mine, &bytes_held, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
  if (me == 0) {
    printf("RESULT %s %zu %.12e %d %ld %.12e %llu %ld %ld\n", a->label, a->bytes, last - first, a->check, total,
           latest_start - first, bytes_held, blocks, sent);
    fflush(stdout);
  }
}

static void report_times(const arguments *a, const double *seconds) {
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me != 0) return;
  printf("TIMES %s", a->label);
  for (int i = 0; i < a->repeat; i++) printf(" %.9e", seconds[i]);
  printf("\n");
  fflush(stdout);
}

/* the slowest rank's time of one timed exchange */
static double slowest(double start, double end) {
  double mine = end - start, most = 0;
  MPI_Allreduce(&mine, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return most;
}

/* faults of the blocks rank `me` holds after an exchange: against its origins' patterns and, when given, against
 * what MPI_Alltoall delivered from the same send buffers */
static long compare(const unsigned char *recvbuf, const unsigned char *reference, int me, int ranks, size_t bytes,
                    long already) {
  long faults = 0;
  char detail[300];
  for (int o = 0; o < ranks; o++) {
    const unsigned char *block = recvbuf + (size_t)o * bytes;
    long at = te_differs(block, o, me, bytes);
    if (at < 0 && reference) {
      for (size_t i = 0; i < bytes; i++)
        if (block[i] != reference[(size_t)o * bytes + i]) {
          at = (long)i;
          break;
        }
      if (at >= 0) {
        snprintf(detail, sizeof detail, "rank %d's block from origin %d differs from MPI_Alltoall's at byte %ld", me,
                 o, at);
        if (already + faults++ < MAX_FAULTS) print_fault(TE_FAULT_BLOCK_DIFFERS, me, -1, o, me, detail);
        continue;
      }
    }
    if (at >= 0) {
      snprintf(detail, sizeof detail, "rank %d's block from origin %d differs from what its origin sent at byte %ld",
               me, o, at);
      if (already + faults++ < MAX_FAULTS) print_fault(TE_FAULT_BLOCK_DIFFERS, me, -1, o, me, detail);
    }
  }
  return faults;
}

/* ------------------------------------------------------------------ modes */

static void run_alltoall(const arguments *a, int me, int ranks) {
  size_t total = a->bytes * (size_t)ranks;
  unsigned char *send = BUFFER(total, a->check), *recv = BUFFER(total, a->check);
  if (!send || !recv) die("out of memory", me);
  if (a->check)
    for (int d = 0; d < ranks; d++) te_fill(send + (size_t)d * a->bytes, me, d, a->bytes);
  double *times = calloc((size_t)a->repeat, sizeof(double));
  double start = 0, end = 0;
  for (int i = 0; i < a->repeat; i++) {
    MPI_Barrier(MPI_COMM_WORLD);
    start = MPI_Wtime();
    if (i == 0) start_progress(me, a->progress_ms);
    MPI_Alltoall(send, (int)a->bytes, MPI_BYTE, recv, (int)a->bytes, MPI_BYTE, MPI_COMM_WORLD);
    end = MPI_Wtime();
    if (i == 0) finished();
    times[i] = slowest(start, end);
  }
  long faults = a->check ? compare(recv, NULL, me, ranks, a->bytes, 0) : 0;
  report(a, start, end, faults, 0, 0, 0);
  if (a->repeat > 1) report_times(a, times);
  free(times);
  RELEASE(send, a->check);
  RELEASE(recv, a->check);
}

static void write_trace(const char *dir, const te_program *p, const double *sent_at, const double *arrived_at) {
  char path[4096];
  snprintf(path, sizeof path, "%s/trace-%d.txt", dir, p->rank);
  FILE *fh = fopen(path, "w");
  if (!fh) die("cannot write its trace file", p->rank);
  for (int i = 0; i < p->nsends; i++) {
    const te_hop *h = &p->sends[i];
    fprintf(fh, "S %d %d %d %d %d %.12e\n", h->step, h->letter, h->neighbour, h->origin, h->destination, sent_at[i]);
  }
  for (int i = 0; i < p->nrecvs; i++) {
    const te_hop *h = &p->recvs[i];
    fprintf(fh, "R %d %d %d %d %d %.12e\n", h->step, h->letter, h->neighbour, h->origin, h->destination,
            arrived_at[i]);
  }
  fclose(fh);
}

static void run_schedule(const arguments *a, const te_program *p, int me, int ranks) {
  te_executor e = {TE_STEP, a->lookahead, a->inflight, a->pieces, a->split};
  if (!strcmp(a->executor, "dataflow")) e.kind = TE_DATAFLOW;
  else if (!strcmp(a->executor, "combined")) e.kind = TE_COMBINED;
  else if (!strcmp(a->executor, "pipelined")) e.kind = TE_PIPELINED;
  else if (strcmp(a->executor, "step") != 0) die("executor is step, dataflow, combined or pipelined", me);
  size_t total = a->bytes * (size_t)ranks;
  unsigned char *send = BUFFER(total, a->check), *recv = BUFFER(total, a->check), *reference = NULL;
  void *shared = NULL;
#ifdef TE_SIMGRID
  if (!a->check) shared = SMPI_SHARED_MALLOC(a->bytes * te_largest_bundle(p));
#endif
  if (!send || !recv) die("out of memory", me);
  if (a->check)
    for (int d = 0; d < ranks; d++) te_fill(send + (size_t)d * a->bytes, me, d, a->bytes);
  double *times = calloc((size_t)a->repeat, sizeof(double));
  double *reference_times = calloc((size_t)a->repeat, sizeof(double));
  if (a->reference && a->check) { /* what MPI_Alltoall delivers from the same buffers, timed as often */
    reference = malloc(total);
    if (!reference) die("out of memory", me);
    for (int i = 0; i < a->repeat; i++) {
      MPI_Barrier(MPI_COMM_WORLD);
      double begin = MPI_Wtime();
      MPI_Alltoall(send, (int)a->bytes, MPI_BYTE, reference, (int)a->bytes, MPI_BYTE, MPI_COMM_WORLD);
      reference_times[i] = slowest(begin, MPI_Wtime());
    }
  }
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  te_stats stats, first = {0};
  char why[300];
  long faults = 0;
  for (int i = 0; i < a->repeat; i++) {
    memset(&stats, 0, sizeof stats);
    if (i == 0 && a->trace) {
      stats.sent_at = calloc((size_t)p->nsends + 1, sizeof(double));
      stats.arrived_at = calloc((size_t)p->nrecvs + 1, sizeof(double));
    }
    if (a->check) memset(recv, 0, total);
    MPI_Barrier(comm);
    if (i == 0) start_progress(me, a->progress_ms);
    if (te_run(p, &e, send, recv, a->bytes, comm, shared, &stats, why, sizeof why) != 0) die(why, me);
    if (i == 0) finished();
    times[i] = slowest(stats.start, stats.end);
    if (i == 0) {
      first = stats;
      if (a->check) faults = compare(recv, reference, me, ranks, a->bytes, 0);
      if (a->trace) {
        write_trace(a->trace, p, stats.sent_at, stats.arrived_at);
        free(stats.sent_at);
        free(stats.arrived_at);
      }
    }
  }
  report(a, first.start, first.end, faults, first.peak_held_bytes, first.peak_held_blocks, first.messages);
  if (a->repeat > 1 || a->reference) report_times(a, times);
  if (reference) {
    arguments mpi = *a;
    mpi.label = "MPI_Alltoall";
    report_times(&mpi, reference_times);
  }
  MPI_Comm_free(&comm);
  free(times);
  free(reference_times);
  free(reference);
#ifdef TE_SIMGRID
  if (shared) SMPI_SHARED_FREE(shared);
#endif
  RELEASE(send, a->check);
  RELEASE(recv, a->check);
}

/* the MPI library, for run --mpi's report (rank 0; SimGrid's version is asked of smpirun instead) */
static void print_library(int me) {
#ifndef TE_SIMGRID
  if (me != 0) return;
  char text[MPI_MAX_LIBRARY_VERSION_STRING + 1];
  int length = 0, major = 0, minor = 0;
  MPI_Get_version(&major, &minor);
  MPI_Get_library_version(text, &length);
  text[length < 0 ? 0 : (length > MPI_MAX_LIBRARY_VERSION_STRING ? MPI_MAX_LIBRARY_VERSION_STRING : length)] = 0;
  char *newline = strchr(text, '\n');
  if (newline) *newline = 0;
  printf("LIBRARY %d.%d %s\n", major, minor, text);
  fflush(stdout);
#else
  (void)me;
#endif
}

static void run_check(const arguments *a, const te_program *p) {
  te_fault stored[MAX_FAULTS];
  te_faults found = {stored, MAX_FAULTS, 0};
  double start = 0, end = 0;
  if (te_check(p, a->bytes, MPI_COMM_WORLD, &found, &start, &end) != 0) die("out of memory in the check", p->rank);
  for (int i = 0; i < found.count && i < MAX_FAULTS; i++)
    print_fault(stored[i].kind, stored[i].rank, stored[i].step, stored[i].origin, stored[i].destination,
                stored[i].detail);
  arguments checked = *a;
  checked.check = 1;
  report(&checked, start, end, found.count, 0, 0, 0);
  print_library(p->rank);
}

static void run_routes(int me, int ranks) {
  /* each message carries its send time; a transfer starts when both sides are there, so the route's time is the
   * arrival less the later of the send and the posting of the receive (no barrier skew) */
  double *sent = calloc(1, sizeof(double)), *recv = calloc((size_t)ranks, sizeof(double));
  MPI_Request *requests = malloc(sizeof(MPI_Request) * (2 * (size_t)ranks));
  int *source = malloc(sizeof(int) * (2 * (size_t)ranks)), n = 0;
  if (!sent || !recv || !requests || !source) die("out of memory", me);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int o = 0; o < ranks; o++)
    if (o != me) {
      source[n] = o;
      MPI_Irecv(recv + o, 1, MPI_DOUBLE, o, 0, MPI_COMM_WORLD, &requests[n++]);
    }
  int receives = n;
  double posted = MPI_Wtime();
  *sent = posted;
  for (int d = 0; d < ranks; d++)
    if (d != me) {
      source[n] = -1;
      MPI_Isend(sent, 1, MPI_DOUBLE, d, 0, MPI_COMM_WORLD, &requests[n++]);
    }
  for (int left = n; left > 0; left--) {
    int index;
    MPI_Waitany(n, requests, &index, MPI_STATUS_IGNORE);
    if (index == MPI_UNDEFINED) break;
    if (index < receives)
      printf("ROUTE %d %d %.12e\n", me, source[index],
             MPI_Wtime() - (recv[source[index]] > posted ? recv[source[index]] : posted));
  }
  fflush(stdout);
  free(sent);
  free(recv);
  free(requests);
  free(source);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, ranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  arguments a;
  parse(argc, argv, &a, me);
  if (!strcmp(a.mode, "alltoall")) {
    run_alltoall(&a, me, ranks);
  } else if (!strcmp(a.mode, "routes")) {
    run_routes(me, ranks);
  } else if (!strcmp(a.mode, "idle")) {
    MPI_Barrier(MPI_COMM_WORLD);
    report(&a, 0, 0, 0, 0, 0, 0);
  } else if (!strcmp(a.mode, "dump")) {
    const te_schedule *s;
    te_program p;
    char why[300];
    if (!a.schedule) die("mode dump needs schedule=FILE", me);
    if (te_schedule_read(a.schedule, &s, why, sizeof why) != 0) die(why, me);
    if (me == 0) {
      if (te_program_of(s, a.rank, &p, why, sizeof why) != 0) die(why, me);
      for (int side = 0; side < 2; side++)
        for (int i = 0; i < (side ? p.nrecvs : p.nsends); i++) {
          const te_hop *h = side ? &p.recvs[i] : &p.sends[i];
          printf("HOP %s %d %d %d %d %d %d\n", side ? "recv" : "send", h->step, h->letter, h->neighbour, h->origin,
                 h->destination, h->cell);
        }
      te_program_free(&p);
    }
  } else if (!strcmp(a.mode, "run") || !strcmp(a.mode, "check")) {
    if (!a.schedule) die("mode run and check need schedule=FILE", me);
    const te_schedule *s;
    te_program p;
    char why[300];
    if (te_schedule_read(a.schedule, &s, why, sizeof why) != 0) die(why, me);
    if (te_schedule_ranks(s) != ranks) die("the schedule is for another number of ranks", me);
    if (te_program_of(s, me, &p, why, sizeof why) != 0) die(why, me);
    if (!strcmp(a.mode, "check")) run_check(&a, &p);
    else run_schedule(&a, &p, me, ranks);
    te_program_free(&p);
  } else {
    die("mode is alltoall, run, check, dump, idle or routes", me);
  }
  MPI_Finalize();
  return 0;
}
