/* te_pmpi.c: MPI_Alltoall through the PMPI profiling interface, on a schedule compiled into the library.
 *
 * `tesearch library TABLE -o DIR` compiles this file with the executor library (te_schedule.c, te_run.c) and a
 * generated te_embedded.c (the table's schedule and its balanced superstep map as tesearch-hops bytes, the size
 * rules, a description) into libtesearch_alltoall.so.  An unmodified MPI program picks it up with LD_PRELOAD, or by
 * linking it before the MPI library; `tesearch simulate --program` links it into a program under SimGrid.
 *
 * A call uses the schedule when the communicator is an intracommunicator of the schedule's size, the send buffer is
 * not MPI_IN_PLACE, the counts are not zero and the block (count x type size) is at least the size rules' first
 * schedule size; then every rank checks that its send and receive types are one contiguous type with equal counts,
 * and the ranks agree on that (one PMPI_Allreduce on the library's own communicator: a program may legally pass
 * different datatypes on different ranks).  Everything else goes to PMPI_Alltoall unchanged.
 *
 * The embedded schedules come from a verified table (checked again when the library is made); a schedule given with
 * TESEARCH_SCHEDULE is checked in lockstep frames (te_check) on each communicator before its first use, and is not
 * used when any rank finds a fault.
 *
 * Per communicator the library keeps, as an attribute, a private duplicate (it never sends on the user's
 * communicator) and this rank's programs; the first call on a communicator makes them (a collective
 * PMPI_Comm_dup), later calls only look them up; they are freed with the communicator, or at MPI_Finalize.
 *
 * Environment (read at the first call; give every rank the same values): TESEARCH_ALLTOALL_EXECUTOR=pmpi|step|
 * dataflow|combined (that executor at every size, instead of the size rules), TESEARCH_ALLTOALL_MIN_BYTES=N (blocks
 * below N bytes go to PMPI_Alltoall, blocks from N on to the rules' schedule executor, or the one named),
 * TESEARCH_ALLTOALL_DATAFLOW=K:W, TESEARCH_SCHEDULE=FILE (a tesearch-hops
 * file run by every executor instead of the embedded schedules), TESEARCH_ALLTOALL_SAME_TYPES=1 (skip the agreement:
 * every rank passes the same datatypes), TESEARCH_ALLTOALL_STATS=1 (each process prints its counts at MPI_Finalize).
 */
#include "te.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  int executor, lookahead, inflight;
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

typedef enum {
  WHY_SIZE, WHY_IN_PLACE, WHY_INTER, WHY_ZERO, WHY_SMALL, WHY_TYPES, WHY_UNAVAILABLE, WHY_KINDS
} fallback;
static const char *fallback_names[WHY_KINDS] = {"another communicator size", "MPI_IN_PLACE", "an intercommunicator",
                                                "a zero count", "below the size rules", "datatypes or counts",
                                                "no usable schedule"};

typedef struct comm_state {
  MPI_Comm user, comm; /* the user's communicator (the attribute's owner) and the library's duplicate */
  int usable;
  te_program table, supersteps;
  int have_supersteps;
  struct comm_state *next;
} comm_state;

/* one process's state (one rank's under SimGrid, whose programs run privatized) */
static struct {
  int ready, keyval, usable, external, ranks, same_types, stats, forced, lookahead, inflight;
  long long min_bytes; /* -1: the rules' own */
  te_schedule *table, *supersteps;
  comm_state *states;
  long calls, scheduled[4], fallbacks[WHY_KINDS];
  char neighbours[256];
} g = {0, MPI_KEYVAL_INVALID, 0, 0, 0, 0, 0, -1, 0, 0, -1, NULL, NULL, NULL, 0, {0}, {0}, ""};

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
  return -1;
}

static int delete_state(MPI_Comm comm, int keyval, void *value, void *extra) {
  (void)comm;
  (void)keyval;
  (void)extra;
  comm_state *st = value, **at = &g.states;
  while (*at && *at != st) at = &(*at)->next;
  if (*at) *at = st->next;
  te_program_free(&st->table);
  if (st->have_supersteps) te_program_free(&st->supersteps);
  if (st->comm != MPI_COMM_NULL) PMPI_Comm_free(&st->comm);
  free(st);
  return MPI_SUCCESS;
}

static void settle(void) {
  if (g.ready) return;
  g.ready = 1;
  char why[300], text[400];
  const char *path = getenv("TESEARCH_SCHEDULE"), *value;
  if (path && *path) {
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
      snprintf(text, sizeof text, "TESEARCH_ALLTOALL_EXECUTOR=%.80s is not pmpi, step, dataflow or combined; ignored",
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
  g.same_types = (value = getenv("TESEARCH_ALLTOALL_SAME_TYPES")) && !strcmp(value, "1");
  g.stats = (value = getenv("TESEARCH_ALLTOALL_STATS")) && !strcmp(value, "1");
  PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_state, &g.keyval, NULL);
}

/* the executor for blocks of `bytes` (TE_PMPI for PMPI_Alltoall) */
static te_executor choose(unsigned long long bytes) {
  te_executor e = {TE_STEP, 1, 1, 0};
  const te_size_rule *rule = &te_embedded_rules[0];
  for (int i = 1; i < te_embedded_rule_count; i++)
    if (te_embedded_rules[i].min_bytes <= bytes) rule = &te_embedded_rules[i];
  e.kind = (te_executor_kind)rule->executor;
  e.lookahead = rule->lookahead;
  e.inflight = rule->inflight;
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

static comm_state *state_of(MPI_Comm comm) {
  comm_state *st;
  int found = 0;
  PMPI_Comm_get_attr(comm, g.keyval, &st, &found);
  if (found) return st;
  st = calloc(1, sizeof *st);
  if (!st) return NULL;
  st->user = comm;
  st->comm = MPI_COMM_NULL;
  PMPI_Comm_dup(comm, &st->comm); /* collective: every rank of `comm` is here, in the same call */
  int me;
  char why[300];
  PMPI_Comm_rank(comm, &me);
  st->usable = te_program_of(g.table, me, &st->table, why, sizeof why) == 0;
  if (st->usable && g.supersteps) {
    st->have_supersteps = te_program_of(g.supersteps, me, &st->supersteps, why, sizeof why) == 0;
    st->usable = st->have_supersteps;
  }
  if (g.external) { /* a schedule from TESEARCH_SCHEDULE is checked in lockstep frames (te_check) before any use */
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
  if (st->usable && !g.neighbours[0]) {
    int at = snprintf(g.neighbours, sizeof g.neighbours, "rank %d's neighbours", me);
    for (int k = 0; k < st->table.letters && at < (int)sizeof g.neighbours - 12; k++)
      at += snprintf(g.neighbours + at, sizeof g.neighbours - (size_t)at, " %d", st->table.neighbours[k]);
  }
  st->next = g.states;
  g.states = st;
  PMPI_Comm_set_attr(comm, g.keyval, st);
  return st;
}

/* the one contiguous type of both sides, with equal counts, as bytes: what the schedule moves */
static int plain_blocks(MPI_Count sendcount, MPI_Datatype sendtype, MPI_Count recvcount, MPI_Datatype recvtype) {
  if (sendtype != recvtype || sendcount != recvcount) return 0;
  int size = 0;
  MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  PMPI_Type_size(sendtype, &size);
  PMPI_Type_get_extent(sendtype, &lb, &extent);
  PMPI_Type_get_true_extent(sendtype, &true_lb, &true_extent);
  return size > 0 && lb == 0 && true_lb == 0 && extent == size && true_extent == size;
}

static int fall_back(fallback why) {
  g.fallbacks[why]++;
  return 0;
}

/* 1 when this call ran on the schedule, 0 when the caller must call PMPI */
static int scheduled(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  settle();
  g.calls++;
  int inter = 0, size = 0, type_size = 0;
  if (!g.usable || comm == MPI_COMM_NULL) return fall_back(WHY_UNAVAILABLE);
  PMPI_Comm_test_inter(comm, &inter);
  if (inter) return fall_back(WHY_INTER);
  PMPI_Comm_size(comm, &size);
  if (size != g.ranks) return fall_back(WHY_SIZE);
  if (sendbuf == MPI_IN_PLACE) return fall_back(WHY_IN_PLACE);
  if (sendcount <= 0 || recvcount <= 0) return fall_back(WHY_ZERO);
  PMPI_Type_size(sendtype, &type_size);
  if (type_size <= 0) return fall_back(WHY_ZERO);
  unsigned long long bytes = (unsigned long long)sendcount * (unsigned long long)type_size;
  te_executor e = choose(bytes);
  if (e.kind == (te_executor_kind)TE_PMPI) return fall_back(WHY_SMALL);
  comm_state *st = state_of(comm); /* the same on every rank: every test above is */
  if (!st || !st->usable) return fall_back(WHY_UNAVAILABLE);
  int mine = bytes <= (unsigned long long)INT_MAX && plain_blocks(sendcount, sendtype, recvcount, recvtype), all = mine;
  if (!g.same_types) PMPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, st->comm);
  if (!all) return fall_back(WHY_TYPES);
  const te_program *p = (e.kind == TE_COMBINED && st->have_supersteps) ? &st->supersteps : &st->table;
  te_stats stats;
  memset(&stats, 0, sizeof stats);
  char why[300];
  if (te_run(p, &e, sendbuf, recvbuf, (size_t)bytes, st->comm, NULL, &stats, why, sizeof why) != 0) {
    fprintf(stderr, PREFIX "MPI_Alltoall on the schedule failed: %s\n", why);
    PMPI_Abort(comm, 1);
  }
  g.scheduled[e.kind]++;
  record_scheduled(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  return 1;
}

TE_EXPORT int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm) {
  record_call();
  if (scheduled(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm)) return MPI_SUCCESS;
  return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

#if MPI_VERSION >= 4
/* MPI 4's large-count MPI_Alltoall (mpi4py calls it whenever the library has it) */
TE_EXPORT int MPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  record_call();
  if (scheduled(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm)) return MPI_SUCCESS;
  return PMPI_Alltoall_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
#endif

TE_EXPORT int MPI_Finalize(void) {
  record_finalize();
  if (g.ready) {
    while (g.states) { /* free what is left (deleting the attribute runs delete_state, which unlinks it) */
      comm_state *head = g.states;
      if (PMPI_Comm_delete_attr(head->user, g.keyval) != MPI_SUCCESS || g.states == head) {
        g.states = head->next;
      }
    }
    if (g.stats) {
      int me = 0;
      PMPI_Comm_rank(MPI_COMM_WORLD, &me);
      if (me == 0) fprintf(stderr, PREFIX "%s\n", te_embedded_description);
      long fell = 0;
      char reasons[600] = "";
      int at = 0;
      for (int i = 0; i < WHY_KINDS; i++) {
        fell += g.fallbacks[i];
        if (g.fallbacks[i] && at < (int)sizeof reasons - 80)
          at += snprintf(reasons + at, sizeof reasons - (size_t)at, "%s%s %ld", at ? ", " : "", fallback_names[i],
                         g.fallbacks[i]);
      }
      fprintf(stderr,
              PREFIX "rank %d: %ld MPI_Alltoall calls, %ld on the schedule (step %ld, dataflow %ld, combined %ld), "
                     "%ld to PMPI_Alltoall%s%s%s; %s\n",
              me, g.calls, g.scheduled[TE_STEP] + g.scheduled[TE_DATAFLOW] + g.scheduled[TE_COMBINED],
              g.scheduled[TE_STEP], g.scheduled[TE_DATAFLOW], g.scheduled[TE_COMBINED], fell, fell ? " (" : "",
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
  for (int i = 0; i < WHY_KINDS; i++) fell += g.fallbacks[i];
  if (calls) *calls = g.calls;
  if (on_schedule) *on_schedule = g.scheduled[TE_STEP] + g.scheduled[TE_DATAFLOW] + g.scheduled[TE_COMBINED];
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
