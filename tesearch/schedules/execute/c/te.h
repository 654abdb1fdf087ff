/* te.h: the tesearch executor library, one C source for SimGrid (smpicc) and real MPI (mpicc).
 *
 * A schedule (a tesearch-hops v1 file, docs/hops-format.md, written by tesearch/schedules/execute/hopsfile.py) says,
 * the same at every node, which block each node sends along which links at which step.  Each rank turns
 * it into its own program (te_program_of) and runs it under one executor (te_run), moving the blocks of an
 * MPI_Alltoall-shaped send buffer into an MPI_Alltoall-shaped receive buffer:
 *
 *   TE_STEP      step by step: post every hop of a step (one message per hop), wait for all of them;
 *   TE_DATAFLOW  out of order: each outgoing link may send any of its next `lookahead` unsent hops whose
 *                block is here, with at most `inflight` hops in flight on it; receives are posted ahead;
 *   TE_COMBINED   step by step with one message per link per step holding every hop of that step on that
 *                link (the combined executor of a superstep schedule), optionally sent as pieces of at most
 *                `piece_bytes` bytes (always in pieces of at most TE_MESSAGE_LIMIT bytes);
 *   TE_PIPELINED the table's order kept on every link, every hop cut into `split` pieces, each piece forwarded as
 *                soon as it is here, at most `inflight` pieces in flight per link, each sent with MPI_Issend (it
 *                completes only once its piece has crossed, so the window paces the link: a plain MPI_Isend of a
 *                piece below the eager threshold completes at once); a receive to forward is posted only within
 *                two blocks of pieces of its outgoing link's first unsent piece, so a table's run holds at most two
 *                blocks per link (te_run.c argues that it cannot deadlock).
 *
 * te_check runs a program in lockstep frames and names what is wrong with it (te_faults.def) without ever
 * hanging: the check every schedule passes before it is timed.
 *
 * Memory: te_run counts the bytes a rank holds beyond its send and receive buffers (blocks in transit and
 * staged bundles) and reports the peak.  No global state but a read-only cache of the last schedule read.
 */
#ifndef TESEARCH_TE_H
#define TESEARCH_TE_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#define TE_HOPS_MAGIC "TEHOPS01"
#define TE_HOPS_VERSION 1
#define TE_LAYOUT_ROUTES 1   /* node-invariant cells over the group's elements */
#define TE_LAYOUT_PROGRAMS 2 /* every rank's hops written out (any program, broken ones included) */
#define TE_KIND_TABLE 1      /* a table's timing: one hop per link per step, each block forwarded the next step */
#define TE_KIND_SUPERSTEPS 2 /* several hops per link per step; blocks may wait between hops */

typedef enum {
#define FAULT(name, words, meaning) TE_FAULT_##name,
#include "te_faults.def"
#undef FAULT
  TE_FAULT_KINDS
} te_fault_kind;

/* the NAME of a fault kind, as the executors print it ("LATE", "WRONG_NEIGHBOUR", ...) */
const char *te_fault_name(te_fault_kind kind);

typedef struct { /* one hop of one rank's program */
  int32_t step, letter, neighbour, origin, destination;
  int32_t cell; /* the hop's place in the schedule, the same at both ends of the link */
} te_hop;

typedef struct {
  int rank, ranks, steps, letters, kind;
  int nsends, nrecvs;
  te_hop *sends, *recvs;  /* sorted by (step, cell) */
  int32_t *neighbours;    /* the rank across each letter (the sender of a receive on letter s is across s^-1) */
  int32_t *from;          /* the rank each letter's receives come from */
} te_program;

typedef struct te_schedule te_schedule;

/* Read a tesearch-hops file, or parse one held in memory (the PMPI library's embedded schedule).  Return 0, or
 * -1 with a one-line reason in `why`. */
int te_schedule_read(const char *path, const te_schedule **out, char *why, size_t whylen);
int te_schedule_parse(const void *bytes, size_t length, te_schedule **out, char *why, size_t whylen);
void te_schedule_free(te_schedule *s);
int te_schedule_ranks(const te_schedule *s);
int te_schedule_steps(const te_schedule *s);
const char *te_schedule_name(const te_schedule *s);

/* Rank `rank`'s program; 0, or -1 with the reason. */
int te_program_of(const te_schedule *s, int rank, te_program *out, char *why, size_t whylen);
void te_program_free(te_program *p);

typedef enum { TE_STEP = 1, TE_DATAFLOW = 2, TE_COMBINED = 3, TE_PIPELINED = 4 } te_executor_kind;

typedef struct {
  te_executor_kind kind;
  int lookahead;      /* TE_DATAFLOW: K >= 1 (1: each link in strict schedule order) */
  int inflight;       /* TE_DATAFLOW: W >= 1 hops in flight per link; TE_PIPELINED: W >= 1 pieces in flight */
  size_t piece_bytes; /* TE_COMBINED: 0 = one message per link per step, else pieces of at most this many bytes */
  int split;          /* TE_PIPELINED: P >= 1 pieces per hop, each ceil(bytes / P) bytes (the last may be shorter) */
} te_executor;

typedef struct {
  double start, end;          /* MPI_Wtime just before the first hop and after the last */
  size_t peak_held_bytes;     /* most bytes held beyond the send and receive buffers: transit blocks, bundles */
  long peak_held_blocks;      /* most transit blocks held (allocated for a posted receive or waiting to leave);
                               * TE_PIPELINED holds pieces: the peak bytes in blocks, rounded up */
  long messages;              /* MPI messages sent */
  double *sent_at, *arrived_at; /* per send / receive hop, when not NULL (traces) */
} te_stats;

/* Run `p` under `e` on `comm` (a communicator of the schedule's ranks that no one else sends on while this runs).
 * sendbuf: ranks blocks of `bytes` (block d for rank d); recvbuf: block o from rank o (its own block copied).
 * `shared`: a transit buffer SMPI shares between all blocks (SimGrid without payload); NULL for real buffers.
 * Returns 0, or -1 with the reason (a program the executor cannot run: run te_check first). */
int te_run(const te_program *p, const te_executor *e, const void *sendbuf, void *recvbuf, size_t bytes,
           MPI_Comm comm, void *shared, te_stats *stats, char *why, size_t whylen);

/* What te_check found: at most `capacity` faults are kept (the count goes on). */
typedef struct {
  te_fault_kind kind;
  int rank, step, origin, destination;
  char detail[320];
} te_fault;

typedef struct {
  te_fault *faults;
  int capacity, count;
} te_faults;

/* Run `p` in lockstep frames with blocks of `bytes` filled by te_pattern; every rank exchanges one frame with
 * every neighbour at every step, so a broken program is named (faults), never hangs. */
int te_check(const te_program *p, size_t bytes, MPI_Comm comm, te_faults *found, double *start, double *end);

/* byte i of the block from origin to destination: what the content checks compare */
unsigned char te_pattern(int origin, int destination, size_t i);
void te_fill(unsigned char *block, int origin, int destination, size_t bytes);
long te_differs(const unsigned char *block, int origin, int destination, size_t bytes);

/* The largest message the executors send, in bytes: a bundle of the combined executor above it goes as pieces of
 * at most this many bytes, a block above it is refused (te_run) and left to PMPI_Alltoall (te_pmpi).  MPI counts
 * are ints; a build may lower it (-DTE_MESSAGE_LIMIT=N) to exercise the splitting with small blocks. */
#ifndef TE_MESSAGE_LIMIT
#define TE_MESSAGE_LIMIT 2147483647
#endif

/* te_layout.c: `count` elements of `type` as the schedule may move them.  0 when they are provably one contiguous
 * run of bytes in typemap order from the buffer's start (lower bound 0, extent = size, the flattened typemap's
 * basic elements tile [0, size) in increasing order), with `bytes` their size and `signature` a digest of their
 * type signature (equal for equal signatures however built: 2 MPI_INT, a contiguous pair, a struct of two ints
 * at {0,4}); -1 when not provable (the caller uses PMPI_Alltoall). */
typedef struct {
  unsigned long long bytes;
  uint64_t signature;
} te_layout;
int te_layout_of(MPI_Datatype type, MPI_Count count, te_layout *out);

#endif
