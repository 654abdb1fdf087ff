/* te_pmpi.c: MPI_Alltoall through the PMPI profiling interface, on a schedule compiled into the library.
 *
 * `tesearch library TABLE -o DIR` compiles this file with the executor library (te_schedule.c, te_run.c,
 * te_layout.c) and a generated te_embedded.c (the table's schedule and its balanced superstep map as tesearch-hops
 * bytes, the size rules, a description) into libtesearch_alltoall.so.  An unmodified MPI program picks it up with
 * LD_PRELOAD, or by linking it before the MPI library; `tesearch simulate --program` links it into a program under
 * SimGrid.
 *
 * A call can use the schedule only on an intracommunicator of the schedule's size that is no thread communicator
 * (MPICH's MPIX_Threadcomm: one process holds several of its ranks); those tests are the same on every rank.  Then
 * each rank judges its own arguments (the verdict below: MPI_IN_PLACE, zero counts, arguments MPI must report as
 * errors, the size rules, the datatypes' layouts, sizes the executors cannot hold) and the ranks agree on one
 * verdict, the block size and the type signature with one PMPI_Allreduce on the library's own communicator: the
 * schedule runs only when every rank passes a block that is provably the same contiguous bytes (te_layout_of) of
 * the same signature and size.  Everything else goes to PMPI_Alltoall unchanged, on every rank, so MPI reports
 * its errors (aliased buffers, mismatched counts, bad handles) through the communicator's error handler as it would
 * without the library.
 *
 * The embedded schedules come from a verified table (checked again when the library is made); a schedule given with
 * TESEARCH_SCHEDULE is checked in lockstep frames (te_check) on each communicator before its first use, and is not
 * used when any rank finds a fault.
 *
 * Per communicator the library keeps, as an attribute, a private communicator of the same group (it never sends
 * on the user's communicator) and this rank's programs; the first call on a communicator makes them (a collective
 * PMPI_Comm_create, which copies none of the user's attributes), later calls only look them up; they are freed with the communicator, or at MPI_Finalize.
 * Threads (MPI_THREAD_MULTIPLE): the process-wide set-up runs once (pthread_once, no communication in it); the
 * state of a communicator belongs to it alone, made by the one thread that calls its collective (MPI forbids two
 * at once on one communicator); the list of states and the counts are guarded by a mutex or atomics, never held
 * across an MPI call, so concurrent MPI_Alltoall calls on different communicators are as independent as MPI makes
 * them.
 *
 * Environment (read at the first call; give every rank the same values): TESEARCH_ALLTOALL_EXECUTOR=pmpi|step|
 * dataflow|combined|pipelined (that executor at every size, instead of the size rules; pipelined with the size rule's
 * pieces and window, one piece and one in flight where the rule names another executor), TESEARCH_ALLTOALL_MIN_BYTES=N (blocks
 * below N bytes go to PMPI_Alltoall, blocks from N on to the rules' schedule executor, or the one named),
 * TESEARCH_ALLTOALL_DATAFLOW=K:W, TESEARCH_SCHEDULE=FILE (a tesearch-hops file run by every executor instead of
 * the embedded schedules), TESEARCH_ALLTOALL_MAX_HELD=N (most bytes an executor may hold beyond the user's buffers;
 * more: PMPI_Alltoall), TESEARCH_ALLTOALL_SAME_TYPES=1 (skip the agreement: every rank passes the same counts and
 * datatypes, a correct call), TESEARCH_ALLTOALL_STATS=1 (each process prints its counts at MPI_Finalize).
 */
#include "te.h"

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TE_EXPORT __attribute__((visibility("default")))
#define PREFIX "tesearch_alltoall: "

/* the run record (the delimited part at the end of this file) */
static void record_call(void);
static void record_scheduled(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, const void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm);
static void record_finalize(void);

/* a size rule: from `min_bytes` per block on (until the next rule), this executor (TE_PMPI: PMPI_Alltoall) */
typedef struct {
  unsigned long long min_bytes;
  int executor, lookahead, inflight, split; /* split: TE_PIPELINED's pieces per hop */
} te_size_rule;
#define TE_PMPI 0

/* te_embedded.c (written by tesearch/schedules/library.py) */
extern const unsigned char te_embedded_table[];
extern const unsigned long te_embedded_table_bytes;
extern const unsigned char te_embedded_supersteps[];
extern const unsigned long te_embedded_supersteps_bytes; /* 0: none */
extern const te_size_rule te_embedded_rules[];
extern const int te_embedded_rule_count;
extern const char te_embedded_description[];

/* why a call went to PMPI_Alltoall (0: it did not); when ranks judge differently, the agreement keeps the largest */
typedef enum {
  WHY_NONE, WHY_SIZE, WHY_IN_PLACE, WHY_INTER, WHY_ZERO, WHY_SMALL, WHY_TYPES, WHY_UNAVAILABLE, WHY_TOO_LARGE,
  WHY_THREADCOMM, WHY_ERRONEOUS, WHY_KINDS
} fallback;
static const char *fallback_names[WHY_KINDS] = {"", "another communicator size", "MPI_IN_PLACE",
                                                "an intercommunicator", "a zero count", "below the size rules",
                                                "datatypes or counts", "no usable schedule",
                                                "more than the executors hold", "a thread communicator",
                                                "arguments MPI reports as errors"};
#define DEFAULT_MAX_HELD (1ull << 30) /* bytes an executor may hold beyond the user's buffers */

typedef struct comm_state {
  MPI_Comm user, comm; /* the user's communicator (the attribute's owner) and the library's duplicate */
  int usable;
  te_program table, supersteps;
  int have_supersteps;
  unsigned long long held_blocks[TE_PIPELINED + 1]; /* per executor: most blocks it may allocate beyond the user's buffers */
  struct comm_state *next;
} comm_state;

/* one process's state (one rank's under SimGrid, whose programs run privatized): written once by settle() (under
 * pthread_once), then read-only, but for the list of states and the neighbours (under `lock`) and the counts
 * (atomic) */
static struct {
  int keyval, usable, external, ranks, same_types, stats, forced, lookahead, inflight;
  long long min_bytes;          /* -1: the rules' own */
  unsigned long long max_held;  /* bytes an executor may hold beyond the user's buffers */
  te_schedule *table, *supersteps;
  comm_state *states;
  long calls, scheduled[TE_PIPELINED + 1], fallbacks[WHY_KINDS];
  char neighbours[256];
} g = {MPI_KEYVAL_INVALID, 0, 0, 0, 0, 0, -1, 0, 0, -1, DEFAULT_MAX_HELD, NULL, NULL, NULL, 0, {0}, {0}, ""};
static pthread_once_t settled = PTHREAD_ONCE_INIT;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* g.states, g.neighbours; never held across an MPI call */
static int ready; /* settle() ran (read after pthread_once, or at MPI_Finalize) */

static void add(long *counter) { __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED); }
static long read_count(const long *counter) { return __atomic_load_n(counter, __ATOMIC_RELAXED); }

static void warn(const char *what) {
  int me = 0, up = 0;
  PMPI_Initialized(&up);
  if (up) PMPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me == 0) fprintf(stderr, PREFIX "%s\n", what);
}

static int executor_named(const char *name) {
  if (!strcmp(name, "pmpi")) return TE_PMPI;
  if (!strcmp(name, "step")) return TE_STEP;
  if (!strcmp(name, "dataflow")) return TE_DATAFLOW;
  if (!strcmp(name, "combined")) return TE_COMBINED;
  if (!strcmp(name, "pipelined")) return TE_PIPELINED;
  return -1;
}

static int delete_state(MPI_Comm comm, int keyval, void *value, void *extra) {
  (void)comm;
  (void)keyval;
  (void)extra;
  comm_state *st = value, **at;
  pthread_mutex_lock(&lock);
  for (at = &g.states; *at && *at != st;) at = &(*at)->next;
  if (*at) *at = st->next;
  pthread_mutex_unlock(&lock);
  te_program_free(&st->table);
  if (st->have_supersteps) te_program_free(&st->supersteps);
  if (st->comm != MPI_COMM_NULL) PMPI_Comm_free(&st->comm);
  free(st);
  return MPI_SUCCESS;
}

static void settle(void) { /* once per process (pthread_once): no communication here */
  ready = 1;
  char why[300] = "not a readable tesearch-hops file", text[400];
  const char *path = getenv("TESEARCH_SCHEDULE"), *value;
  struct stat info;
  if (path && *path && (stat(path, &info) != 0 || !S_ISREG(info.st_mode))) {
    snprintf(text, sizeof text, "TESEARCH_SCHEDULE=%.200s cannot be used (%s); every call goes to PMPI_Alltoall", path,
             stat(path, &info) != 0 ? "no such file" : S_ISDIR(info.st_mode) ? "a directory, not a file"
                                                                              : "not a regular file");
    warn(text);
  } else if (path && *path) {
    FILE *fh = fopen(path, "rb");
    unsigned char *bytes = NULL;
    long length = -1;
    if (fh && fseek(fh, 0, SEEK_END) == 0 && (length = ftell(fh)) >= 0 && fseek(fh, 0, SEEK_SET) == 0 &&
        (bytes = malloc(length > 0 ? (size_t)length : 1)) && fread(bytes, 1, (size_t)length, fh) == (size_t)length &&
        te_schedule_parse(bytes, (size_t)length, &g.table, why, sizeof why) == 0) {
      g.usable = g.external = 1;
    } else {
      snprintf(text, sizeof text, "TESEARCH_SCHEDULE=%s cannot be used (%s); every call goes to PMPI_Alltoall", path,
               fh ? (length < 0 ? "unreadable" : why) : "cannot open it");
      warn(text);
    }
    if (fh) fclose(fh);
    free(bytes);
  } else if (te_schedule_parse(te_embedded_table, te_embedded_table_bytes, &g.table, why, sizeof why) == 0 &&
             (te_embedded_supersteps_bytes == 0 ||
              te_schedule_parse(te_embedded_supersteps, te_embedded_supersteps_bytes, &g.supersteps, why,
                                sizeof why) == 0)) {
    g.usable = 1;
  } else {
    snprintf(text, sizeof text, "the embedded schedule cannot be used (%s); every call goes to PMPI_Alltoall", why);
    warn(text);
  }
  if (g.usable) g.ranks = te_schedule_ranks(g.table);
  if ((value = getenv("TESEARCH_ALLTOALL_EXECUTOR")) && *value) {
    g.forced = executor_named(value);
    if (g.forced < 0) {
      snprintf(text, sizeof text, "TESEARCH_ALLTOALL_EXECUTOR=%.80s is not pmpi, step, dataflow, combined or pipelined; ignored",
               value);
      warn(text);
    }
  }
  if ((value = getenv("TESEARCH_ALLTOALL_MIN_BYTES")) && *value) {
    char *end;
    long long n = strtoll(value, &end, 10);
    if (*end || n < 0) {
      snprintf(text, sizeof text, "TESEARCH_ALLTOALL_MIN_BYTES=%.80s is not a number of bytes; ignored", value);
      warn(text);
    } else {
      g.min_bytes = n;
    }
  }
  if ((value = getenv("TESEARCH_ALLTOALL_DATAFLOW")) && *value) {
    int k = 0, w = 0;
    char extra;
    if (sscanf(value, "%d:%d%c", &k, &w, &extra) == 2 && k >= 1 && w >= 1 && k + w <= 32767) {
      g.lookahead = k;
      g.inflight = w;
    } else {
      snprintf(text, sizeof text, "TESEARCH_ALLTOALL_DATAFLOW=%.80s is not K:W (K, W >= 1); ignored", value);
      warn(text);
    }
  }
  if ((value = getenv("TESEARCH_ALLTOALL_MAX_HELD")) && *value) {
    char *end;
    unsigned long long n = strtoull(value, &end, 10);
    if (*end || *value == '-') {
      snprintf(text, sizeof text, "TESEARCH_ALLTOALL_MAX_HELD=%.80s is not a number of bytes; ignored", value);
      warn(text);
    } else {
      g.max_held = n;
    }
  }
  g.same_types = (value = getenv("TESEARCH_ALLTOALL_SAME_TYPES")) && !strcmp(value, "1");
  g.stats = (value = getenv("TESEARCH_ALLTOALL_STATS")) && !strcmp(value, "1");
  PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_state, &g.keyval, NULL);
}

/* the executor for blocks of `bytes` (TE_PMPI for PMPI_Alltoall) */
static te_executor choose(unsigned long long bytes) {
  te_executor e = {TE_STEP, 1, 1, 0, 1};
  const te_size_rule *rule = &te_embedded_rules[0];
  for (int i = 1; i < te_embedded_rule_count; i++)
    if (te_embedded_rules[i].min_bytes <= bytes) rule = &te_embedded_rules[i];
  e.kind = (te_executor_kind)rule->executor;
  e.lookahead = rule->lookahead;
  e.inflight = rule->inflight;
  e.split = rule->split;
  if (g.forced >= 0) e.kind = (te_executor_kind)g.forced;
  if (g.min_bytes >= 0) {
    if (bytes < (unsigned long long)g.min_bytes) e.kind = (te_executor_kind)TE_PMPI;
    else if (g.forced < 0 && e.kind == (te_executor_kind)TE_PMPI) { /* the rules' first schedule executor (else
                                                                           combined), at any size from MIN_BYTES */
      e.kind = TE_COMBINED;
      for (int i = 0; i < te_embedded_rule_count; i++)
        if (te_embedded_rules[i].executor != TE_PMPI) {
          e.kind = (te_executor_kind)te_embedded_rules[i].executor;
          e.lookahead = te_embedded_rules[i].lookahead;
          e.inflight = te_embedded_rules[i].inflight;
          e.split = te_embedded_rules[i].split;
          break;
        }
    }
  }
  if (g.lookahead) {
    e.lookahead = g.lookahead;
    e.inflight = g.inflight;
  }
  return e;
}

size_t te_largest_bundle(const te_program *p); /* te_run.c: the most blocks of one combined message */

/* a private communicator with `comm`'s group and error handler (collective over `comm`).  Not PMPI_Comm_dup:
 * that copies the user's attributes, calling their copy callbacks from inside MPI_Alltoall, and a callback that
 * refuses the copy (returns an error, as MPI lets it) made MPI_Comm_dup fail and the program abort on a legal call.
 * PMPI_Comm_create copies no attributes. */
static int private_communicator(MPI_Comm comm, MPI_Comm *made) {
  MPI_Group group;
  MPI_Errhandler handler;
  int code = PMPI_Comm_group(comm, &group);
  if (code != MPI_SUCCESS) return code;
  code = PMPI_Comm_create(comm, group, made);
  PMPI_Group_free(&group);
  if (code != MPI_SUCCESS || *made == MPI_COMM_NULL) return code != MPI_SUCCESS ? code : MPI_ERR_COMM;
  if (PMPI_Comm_get_errhandler(comm, &handler) == MPI_SUCCESS) {
    PMPI_Comm_set_errhandler(*made, handler);
    PMPI_Errhandler_free(&handler);
  }
  return MPI_SUCCESS;
}

/* 1 when `type` is committed (or predefined): MPI_Alltoall on an uncommitted derived type is an error MPI reports
 * (MPI_ERR_TYPE), which the schedule, moving bytes, would not.  Asked with PMPI_Pack_size, which reports an
 * uncommitted type, on the library's own communicator with MPI_ERRORS_RETURN for the question (its error handler
 * put back after; no other thread uses it now: it serves one collective on the user's communicator at a time). */
static int committed(MPI_Datatype type, MPI_Comm own) {
  int ni = 0, na = 0, nd = 0, combiner = 0, bytes = 0;
#if MPI_VERSION >= 4
  MPI_Count i = 0, a = 0, large = 0, d = 0;
  if (PMPI_Type_get_envelope_c(type, &i, &a, &large, &d, &combiner) != MPI_SUCCESS) return 0;
  (void)ni; (void)na; (void)nd;
#else
  if (PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner) != MPI_SUCCESS) return 0;
#endif
  if (combiner == MPI_COMBINER_NAMED) return 1;
  MPI_Errhandler handler;
  if (PMPI_Comm_get_errhandler(own, &handler) != MPI_SUCCESS) return 0;
  PMPI_Comm_set_errhandler(own, MPI_ERRORS_RETURN);
  int code = PMPI_Pack_size(1, type, own, &bytes);
  PMPI_Comm_set_errhandler(own, handler);
  PMPI_Errhandler_free(&handler);
  return code == MPI_SUCCESS;
}

/* this communicator's state, made at its first call (collective: every rank of `comm` is here, in the same call;
 * MPI lets no other thread call a collective on `comm` meanwhile) */
static comm_state *state_of(MPI_Comm comm) {
  comm_state *st;
  int found = 0;
  if (PMPI_Comm_get_attr(comm, g.keyval, &st, &found) == MPI_SUCCESS && found) return st;
  st = calloc(1, sizeof *st);
  if (!st) return NULL;
  st->user = comm;
  st->comm = MPI_COMM_NULL;
  int me, dup = private_communicator(comm, &st->comm);
  char why[300];
  PMPI_Comm_rank(comm, &me);
  st->usable = dup == MPI_SUCCESS && te_program_of(g.table, me, &st->table, why, sizeof why) == 0;
  if (st->usable && g.supersteps) {
    st->have_supersteps = te_program_of(g.supersteps, me, &st->supersteps, why, sizeof why) == 0;
    st->usable = st->have_supersteps;
  }
  if (g.external && st->comm != MPI_COMM_NULL) { /* a schedule from TESEARCH_SCHEDULE is checked in lockstep
                                                    frames (te_check) before any use */
    te_fault first;
    te_faults found = {&first, 1, 0};
    double start, end;
    int faults = 0, mine = !st->usable || te_check(&st->table, 8, st->comm, &found, &start, &end) != 0 ? 1 : found.count;
    PMPI_Allreduce(&mine, &faults, 1, MPI_INT, MPI_SUM, st->comm);
    if (faults) {
      st->usable = 0;
      if (me == 0) {
        char text[500];
        snprintf(text, sizeof text, "TESEARCH_SCHEDULE's schedule fails its check (%d fault(s)%s%s); calls go to "
                 "PMPI_Alltoall", faults, found.count ? ", first: " : "", found.count ? first.detail : "");
        fprintf(stderr, PREFIX "%s\n", text);
      }
    }
  }
  if (st->usable) { /* what each executor may allocate beyond the user's buffers, in blocks (te_run.c) */
    const te_program *combined = st->have_supersteps ? &st->supersteps : &st->table;
    unsigned long long pool = ((unsigned long long)st->table.nrecvs + 63) / 64 * 64; /* transit blocks, 64 a chunk */
    st->held_blocks[TE_STEP] = st->held_blocks[TE_DATAFLOW] = pool;
    st->held_blocks[TE_PIPELINED] = pool + pool / 8 + 1; /* pieces of up to 9/8 of their mean length */
    st->held_blocks[TE_COMBINED] = 2ull * (unsigned long long)combined->letters * te_largest_bundle(combined) +
                                   ((unsigned long long)combined->nrecvs + 63) / 64 * 64;
  }
  char said[sizeof g.neighbours] = "";
  if (st->usable && !g.neighbours[0]) { /* in MPI_COMM_WORLD's ranks, as the stats line's own rank is */
    MPI_Group mine, world;
    int letters = st->table.letters, wme = MPI_UNDEFINED, *wn = calloc((size_t)(letters > 0 ? letters : 1), sizeof *wn);
    if (wn && PMPI_Comm_group(comm, &mine) == MPI_SUCCESS) {
      if (PMPI_Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS) {
        PMPI_Group_translate_ranks(mine, 1, &me, world, &wme);
        PMPI_Group_translate_ranks(mine, letters, st->table.neighbours, world, wn);
        PMPI_Group_free(&world);
      }
      PMPI_Group_free(&mine);
    }
    if (wn && wme != MPI_UNDEFINED) {
      int at = snprintf(said, sizeof said, "rank %d's neighbours", wme);
      for (int k = 0; k < letters && at < (int)sizeof said - 12; k++)
        at += snprintf(said + at, sizeof said - (size_t)at, " %d", wn[k]);
    }
    free(wn);
  }
  pthread_mutex_lock(&lock);
  if (said[0] && !g.neighbours[0]) memcpy(g.neighbours, said, sizeof said);
  st->next = g.states;
  g.states = st;
  pthread_mutex_unlock(&lock);
  PMPI_Comm_set_attr(comm, g.keyval, st);
  return st;
}

/* ------------------------------------------------------------------ a call's verdict */

/* MPICH's thread communicators (MPIX_Threadcomm): several ranks in one process share a communicator handle, so a
 * state per communicator cannot be a state per rank; such calls go to PMPI_Alltoall.  Weak: an MPICH without them
 * runs the library too. */
#ifdef MPICH_NUMVERSION
extern int PMPIX_Comm_test_threadcomm(MPI_Comm comm, int *flag) __attribute__((weak));
static int thread_communicator(MPI_Comm comm) {
  int flag = 0;
  return PMPIX_Comm_test_threadcomm && PMPIX_Comm_test_threadcomm(comm, &flag) == MPI_SUCCESS && flag;
}
#else
static int thread_communicator(MPI_Comm comm) {
  (void)comm;
  return 0;
}
#endif

typedef struct {
  const void *sendbuf;
  MPI_Count sendcount;
  MPI_Datatype sendtype;
  void *recvbuf;
  MPI_Count recvcount;
  MPI_Datatype recvtype;
  MPI_Comm comm;
} alltoall_call;

/* This rank's verdict on its own arguments (WHY_NONE: the schedule may run it), the block's bytes and signature.
 * Anything MPI must report as an error goes to PMPI_Alltoall, which reports it; the library calls no MPI function
 * on a handle before it knows the handle is not null. */
static fallback own_verdict(const alltoall_call *c, int ranks, te_layout *block) {
  memset(block, 0, sizeof *block);
  if (c->sendbuf == MPI_IN_PLACE) return WHY_IN_PLACE;
  if (c->sendcount < 0 || c->recvcount < 0 || c->sendtype == MPI_DATATYPE_NULL || c->recvtype == MPI_DATATYPE_NULL)
    return WHY_ERRONEOUS;
  if (c->sendcount == 0 || c->recvcount == 0) return WHY_ZERO;
  int send_size = 0, recv_size = 0;
  if (PMPI_Type_size(c->sendtype, &send_size) != MPI_SUCCESS || PMPI_Type_size(c->recvtype, &recv_size) != MPI_SUCCESS)
    return WHY_ERRONEOUS;
  if (send_size <= 0 || recv_size <= 0) return WHY_ZERO;
  unsigned long long bytes = (unsigned long long)c->sendcount * (unsigned long long)send_size;
  block->bytes = bytes;
  if (bytes != (unsigned long long)c->recvcount * (unsigned long long)recv_size) return WHY_TYPES;
  uintptr_t send = (uintptr_t)c->sendbuf, recv = (uintptr_t)c->recvbuf, span = (uintptr_t)(bytes * ranks);
  if (!c->sendbuf || !c->recvbuf || send == recv || (send < recv + span && recv < send + span)) return WHY_ERRONEOUS;
  if (choose(bytes).kind == (te_executor_kind)TE_PMPI) return WHY_SMALL;
  te_layout received;
  if (te_layout_of(c->sendtype, c->sendcount, block) != 0 || te_layout_of(c->recvtype, c->recvcount, &received) != 0 ||
      received.bytes != block->bytes || received.signature != block->signature)
    return WHY_TYPES;
  if (bytes > TE_MESSAGE_LIMIT) return WHY_TOO_LARGE;
  return WHY_NONE;
}

/* The verdict every rank of the communicator shares: the largest rank's reason, else WHY_TYPES when the ranks'
 * block sizes or signatures differ (one PMPI_Allreduce of the minima of each value and of its negation). */
static fallback agreed_verdict(fallback mine, const te_layout *block, MPI_Comm comm) {
  long long v[7], all[7];
  long long parts[3] = {(long long)block->bytes, (long long)(block->signature >> 32),
                        (long long)(block->signature & 0xffffffffu)};
  v[0] = -(long long)mine;
  for (int i = 0; i < 3; i++) {
    v[1 + 2 * i] = parts[i];
    v[2 + 2 * i] = -parts[i];
  }
  if (PMPI_Allreduce(v, all, 7, MPI_LONG_LONG, MPI_MIN, comm) != MPI_SUCCESS) return WHY_UNAVAILABLE;
  if (all[0] != 0) return (fallback)(-all[0]);
  for (int i = 0; i < 3; i++)
    if (all[1 + 2 * i] != -all[2 + 2 * i]) return WHY_TYPES;
  return WHY_NONE;
}

static int fall_back(fallback why) {
  add(&g.fallbacks[why]);
  return -1;
}

/* -1 when the caller must call PMPI_Alltoall, else the call's MPI return code (it ran on the schedule) */
static int scheduled(const alltoall_call *c) {
  pthread_once(&settled, settle);
  add(&g.calls);
  int inter = 0, size = 0;
  if (!g.usable) return fall_back(WHY_UNAVAILABLE);
  if (c->comm == MPI_COMM_NULL || PMPI_Comm_test_inter(c->comm, &inter) != MPI_SUCCESS) return fall_back(WHY_ERRONEOUS);
  if (inter) return fall_back(WHY_INTER);
  if (thread_communicator(c->comm)) return fall_back(WHY_THREADCOMM);
  if (PMPI_Comm_size(c->comm, &size) != MPI_SUCCESS) return fall_back(WHY_ERRONEOUS);
  if (size != g.ranks) return fall_back(WHY_SIZE);
  /* every test above is the same on every rank of the communicator; the rest is each rank's own, then agreed */
  te_layout block;
  fallback why = own_verdict(c, size, &block);
  if (g.same_types && why != WHY_NONE) return fall_back(why);
  comm_state *st = state_of(c->comm);
  te_executor e = choose(block.bytes);
  if (why == WHY_NONE && (!st || !st->usable || (int)e.kind > TE_PIPELINED)) why = WHY_UNAVAILABLE; /* the
                                                                  library's executors: held_blocks, scheduled */
  if (why == WHY_NONE && (unsigned long long)st->held_blocks[e.kind] > g.max_held / block.bytes) why = WHY_TOO_LARGE;
  if (why == WHY_NONE && (!committed(c->sendtype, st->comm) || !committed(c->recvtype, st->comm))) why = WHY_ERRONEOUS;
  if (!g.same_types)
    why = agreed_verdict(why, &block, st && st->comm != MPI_COMM_NULL ? st->comm : c->comm);
  if (why != WHY_NONE) return fall_back(why);
  const te_program *p = (e.kind == TE_COMBINED && st->have_supersteps) ? &st->supersteps : &st->table;
  te_stats stats;
  memset(&stats, 0, sizeof stats);
  char why_not[300];
  if (te_run(p, &e, c->sendbuf, c->recvbuf, (size_t)block.bytes, st->comm, NULL, &stats, why_not, sizeof why_not) != 0) {
    fprintf(stderr, PREFIX "MPI_Alltoall on the schedule failed: %s\n", why_not);
    PMPI_Comm_call_errhandler(c->comm, MPI_ERR_OTHER);
    return MPI_ERR_OTHER;
  }
  add(&g.scheduled[e.kind]);
  record_scheduled(c->sendbuf, c->sendcount, c->sendtype, c->recvbuf, c->recvcount, c->recvtype, c->comm);
  return MPI_SUCCESS;
}

TE_EXPORT int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm) {
  alltoall_call c = {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm};
  record_call();
  int code = scheduled(&c);
  return code >= 0 ? code : PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

#if MPI_VERSION >= 4
/* MPI 4's large-count MPI_Alltoall (mpi4py calls it whenever the library has it) */
TE_EXPORT int MPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  alltoall_call c = {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm};
  record_call();
  int code = scheduled(&c);
  return code >= 0 ? code : PMPI_Alltoall_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
#endif

TE_EXPORT int MPI_Finalize(void) {
  record_finalize();
  if (ready) {
    for (;;) { /* free what is left (deleting the attribute runs delete_state, which unlinks it) */
      pthread_mutex_lock(&lock);
      comm_state *head = g.states;
      pthread_mutex_unlock(&lock);
      if (!head) break;
      PMPI_Comm_delete_attr(head->user, g.keyval);
      pthread_mutex_lock(&lock);
      if (g.states == head) g.states = head->next; /* not deleted: let it go */
      pthread_mutex_unlock(&lock);
    }
    if (g.stats) {
      int me = 0;
      PMPI_Comm_rank(MPI_COMM_WORLD, &me);
      if (me == 0) fprintf(stderr, PREFIX "%s\n", te_embedded_description);
      long fell = 0;
      char reasons[600] = "";
      int at = 0;
      for (int i = 1; i < WHY_KINDS; i++) {
        fell += g.fallbacks[i];
        if (g.fallbacks[i] && at < (int)sizeof reasons - 80)
          at += snprintf(reasons + at, sizeof reasons - (size_t)at, "%s%s %ld", at ? ", " : "", fallback_names[i],
                         g.fallbacks[i]);
      }
      fprintf(stderr,
              PREFIX "rank %d: %ld MPI_Alltoall calls, %ld on the schedule (step %ld, dataflow %ld, combined %ld, "
                     "pipelined %ld), %ld to PMPI_Alltoall%s%s%s; %s\n",
              me, g.calls,
              g.scheduled[TE_STEP] + g.scheduled[TE_DATAFLOW] + g.scheduled[TE_COMBINED] + g.scheduled[TE_PIPELINED],
              g.scheduled[TE_STEP], g.scheduled[TE_DATAFLOW], g.scheduled[TE_COMBINED], g.scheduled[TE_PIPELINED],
              fell, fell ? " (" : "",
              reasons, fell ? ")" : "", g.neighbours[0] ? g.neighbours : "no schedule made");
      fflush(stderr);
    }
    if (g.keyval != MPI_KEYVAL_INVALID) PMPI_Comm_free_keyval(&g.keyval);
    te_schedule_free(g.table);
    te_schedule_free(g.supersteps);
  }
  return PMPI_Finalize();
}

/* what the library runs (the table, the network, the size rules and where they come from) */
TE_EXPORT const char *tesearch_alltoall_description(void) { return te_embedded_description; }

/* this process's counts so far: calls, calls on the schedule, calls sent to PMPI_Alltoall */
TE_EXPORT void tesearch_alltoall_counts(long *calls, long *on_schedule, long *to_pmpi) {
  long fell = 0;
  for (int i = 1; i < WHY_KINDS; i++) fell += read_count(&g.fallbacks[i]);
  if (calls) *calls = read_count(&g.calls);
  if (on_schedule)
    *on_schedule = read_count(&g.scheduled[TE_STEP]) + read_count(&g.scheduled[TE_DATAFLOW]) +
                   read_count(&g.scheduled[TE_COMBINED]) + read_count(&g.scheduled[TE_PIPELINED]);
  if (to_pmpi) *to_pmpi = fell;
}

/* ======================================= the run record (tesearch simulate --program) =======================================
 *
 * Evidence of what the library did, which `tesearch simulate --program` reads instead of anything the program prints.
 * With TESEARCH_ALLTOALL_RECORD=PATH and TESEARCH_ALLTOALL_NONCE=WORD (a fresh path in a private directory and a
 * random word per run), each process writes PATH.RANK (RANK: its rank in MPI_COMM_WORLD; created, never replaced) at
 * the start of MPI_Finalize, one line:
 *
 *   tesearch-record 1 NONCE rank R of N calls C scheduled S checked K mismatches M unchecked U wtime T
 *
 * C: MPI_Alltoall calls, S: those run on the schedule, T: PMPI_Wtime() there (simulated time under SMPI).  With
 * TESEARCH_ALLTOALL_CHECK=1 every call run on the schedule is run again with PMPI_Alltoall on the same send buffer
 * into a scratch buffer, and the two results are compared as packed data (K: calls compared, M: calls whose data
 * differ, each also said on stderr; U: calls that could not be compared: no memory, or counts past int).  A rank that
 * aborts, hangs or leaves without MPI_Finalize writes nothing, which is what the reader looks for.  The record keeps
 * honest output from passing for a result; a program that reads the library's environment could still write one.
 */
static struct {
  long calls, scheduled, checked, mismatches, unchecked;
  int check_read, check;
} rec = {0, 0, 0, 0, 0, 0, 0};

static void record_call(void) { __atomic_add_fetch(&rec.calls, 1, __ATOMIC_RELAXED); }

/* 1 when this call's result differs from PMPI_Alltoall's, 0 when equal, -1 when it could not be compared */
static int record_compare(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, const void *recvbuf,
                          MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  int ranks = 0;
  PMPI_Comm_size(comm, &ranks);
  if (sendcount > INT_MAX || recvcount > INT_MAX || recvcount * (MPI_Count)ranks > INT_MAX) return -1;
  int n = (int)recvcount * ranks, packed = 0;
  MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  PMPI_Type_get_extent(recvtype, &lb, &extent);
  PMPI_Type_get_true_extent(recvtype, &true_lb, &true_extent);
  if (extent < 0 || PMPI_Pack_size(n, recvtype, comm, &packed) != MPI_SUCCESS || packed < 0) return -1;
  size_t span = (size_t)true_extent + (size_t)(n - 1) * (size_t)extent;
  char *scratch = malloc(span ? span : 1), *mine = malloc(packed ? (size_t)packed : 1),
       *theirs = malloc(packed ? (size_t)packed : 1);
  int ok = scratch && mine && theirs, all = 0, differ = 0;
  PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm); /* PMPI_Alltoall below only when every rank takes part */
  if (all) {
    char *base = scratch - true_lb;
    int at_mine = 0, at_theirs = 0;
    PMPI_Alltoall(sendbuf, (int)sendcount, sendtype, base, (int)recvcount, recvtype, comm);
    PMPI_Pack(recvbuf, n, recvtype, mine, packed, &at_mine, comm);
    PMPI_Pack(base, n, recvtype, theirs, packed, &at_theirs, comm);
    differ = at_mine != at_theirs || memcmp(mine, theirs, (size_t)at_mine) != 0;
  }
  free(scratch);
  free(mine);
  free(theirs);
  return all ? differ : -1;
}

static void record_scheduled(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, const void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  __atomic_add_fetch(&rec.scheduled, 1, __ATOMIC_RELAXED);
  if (!rec.check_read) {
    const char *value = getenv("TESEARCH_ALLTOALL_CHECK");
    rec.check = value && !strcmp(value, "1");
    rec.check_read = 1;
  }
  if (!rec.check) return;
  int differ = record_compare(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  if (differ < 0) {
    __atomic_add_fetch(&rec.unchecked, 1, __ATOMIC_RELAXED);
    return;
  }
  __atomic_add_fetch(&rec.checked, 1, __ATOMIC_RELAXED);
  if (differ) {
    int me = 0;
    __atomic_add_fetch(&rec.mismatches, 1, __ATOMIC_RELAXED);
    PMPI_Comm_rank(comm, &me);
    fprintf(stderr, PREFIX "rank %d of its communicator: MPI_Alltoall call %ld on the schedule differs from "
            "PMPI_Alltoall\n", me, rec.calls);
  }
}

static void record_finalize(void) {
  const char *path = getenv("TESEARCH_ALLTOALL_RECORD"), *nonce = getenv("TESEARCH_ALLTOALL_NONCE");
  if (!path || !*path || !nonce || !*nonce) return;
  int me = 0, ranks = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &me);
  PMPI_Comm_size(MPI_COMM_WORLD, &ranks);
  double now = PMPI_Wtime();
  char name[4200], line[600];
  if (snprintf(name, sizeof name, "%s.%d", path, me) >= (int)sizeof name) return;
  int length = snprintf(line, sizeof line, "tesearch-record 1 %.64s rank %d of %d calls %ld scheduled %ld checked %ld "
                        "mismatches %ld unchecked %ld wtime %.17g\n", nonce, me, ranks, rec.calls, rec.scheduled,
                        rec.checked, rec.mismatches, rec.unchecked, now);
  FILE *fh = fopen(name, "wx"); /* created here, never replaced */
  if (!fh) return;
  fwrite(line, 1, (size_t)length, fh);
  fclose(fh);
}
/* ===================================== end of the run record ===================================== */
