/* tesearch_simulate.c: one rank of a total exchange under SimGrid's SMPI (started by `tesearch simulate`).
 *
 * Usage (under smpirun, one rank per network node):
 *   tesearch_simulate MODE DIR BYTES CHECK TRACE PARAM
 * MODE   alltoall  MPI_Alltoall (the algorithm is chosen by smpirun's --cfg=smpi/alltoall or coll-selector)
 *        step      the table's program, step by step: post every hop of a step, wait for all of them
 *        dataflow  the table's program as data flows: receives posted early, each forward sent as soon as
 *                  its incoming hop has arrived and the previous hop on its link has been sent
 *        combined  the table's paths with its hops bundled: DIR/combine-PARAM.txt maps each cell (step, letter) of
 *                  the table to a superstep (tesearch.simulate.combine); at each superstep every rank sends one message per neighbour holding
 *                  all the hops of that superstep on that link (in table order), then waits for all of them
 *        check     the table's program in lockstep with a frame to every neighbour at every step, each hop
 *                  carrying its origin and destination, so a broken program is named, never hangs
 *        routes    every rank sends one byte to every other at once (the platform test reads the latencies)
 * DIR    the directory of the per-rank files rank-R.txt (written by tesearch.simulate.inputs)
 * BYTES  bytes of each block (one block per origin and destination)
 * CHECK  1: real buffers, every delivered block is compared with the one its origin sent;
 *        0: SMPI shared allocations (no memory per rank for the payload, no content check)
 * TRACE  1: each rank writes DIR/trace-R.txt with the simulated time of every hop it sent and received (by the
 *        table's step of the hop, under every executor)
 * PARAM  dataflow: hops in flight at once on one outgoing link (1: a link sends its next hop when the
 *        previous one has completed; more lets the per-message latency of one hop overlap the transfer
 *        of the one before it); combined: the N of DIR/combine-N.txt (the superstep map to run)
 *
 * Output on stdout (each line whole):
 *   RESULT mode bytes seconds checked mismatches skew (rank 0; seconds = last end - first start, simulated;
 *                                                     skew = last start - first start: the barrier's release)
 *   FAULT kind rank step origin destination detail    (any rank; at most MAX_FAULTS per rank)
 *   ROUTE receiver sender seconds                     (mode routes)
 * No mutable globals: the program runs without SMPI's privatization.
 */
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FAULTS 20
#define WINDOW 4 /* receives posted ahead on each incoming link (dataflow) */

typedef struct {
  int step, letter, neighbour, origin, destination, index;
  int column; /* the table's step of the hop (combined: `step` is then its superstep) */
} Hop;

typedef struct {
  int rank, ranks, steps, degree, nsends, nrecvs;
  int *neighbours; /* by letter */
  Hop *sends, *recvs;
} Program;

typedef struct { /* open addressing map (origin, destination) -> value */
  int64_t *keys;
  int *values;
  int size;
} Map;

static void die(const char *what, int rank) {
  fprintf(stderr, "tesearch_simulate: rank %d: %s\n", rank, what);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 3);
  exit(3);
}

static void *must_alloc(size_t bytes, int rank) {
  void *p = calloc(1, bytes ? bytes : 1);
  if (!p) die("out of memory", rank);
  return p;
}

static void map_init(Map *m, int capacity, int rank) {
  m->size = 16;
  while (m->size < 2 * capacity + 2) m->size *= 2;
  m->keys = must_alloc(sizeof(int64_t) * (size_t)m->size, rank);
  m->values = must_alloc(sizeof(int) * (size_t)m->size, rank);
  for (int i = 0; i < m->size; i++) m->keys[i] = -1;
}

static int64_t key_of(int origin, int destination) { return ((int64_t)origin << 32) | (uint32_t)destination; }

static int map_slot(const Map *m, int64_t key) {
  uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ull;
  int i = (int)(h >> 40) & (m->size - 1);
  while (m->keys[i] != -1 && m->keys[i] != key) i = (i + 1) & (m->size - 1);
  return i;
}

static int map_get(const Map *m, int origin, int destination) {
  int i = map_slot(m, key_of(origin, destination));
  return m->keys[i] == -1 ? -1 : m->values[i];
}

static void map_put(Map *m, int origin, int destination, int value) {
  int i = map_slot(m, key_of(origin, destination));
  m->keys[i] = key_of(origin, destination);
  m->values[i] = value;
}

static void map_free(Map *m) {
  free(m->keys);
  free(m->values);
}

static int by_step(const void *a, const void *b) {
  const Hop *x = a, *y = b;
  if (x->step != y->step) return x->step < y->step ? -1 : 1;
  return x->index < y->index ? -1 : (x->index > y->index);
}

static void read_hops(FILE *fh, Hop *hops, int count, int rank) {
  for (int i = 0; i < count; i++) {
    Hop *h = &hops[i];
    if (fscanf(fh, "%d %d %d %d %d", &h->step, &h->letter, &h->neighbour, &h->origin, &h->destination) != 5)
      die("a hop line is: step letter neighbour origin destination", rank);
    h->index = i;
    h->column = h->step;
  }
  qsort(hops, (size_t)count, sizeof(Hop), by_step);
}

static void read_program(const char *dir, int rank, int ranks, Program *p) {
  char path[4096];
  snprintf(path, sizeof path, "%s/rank-%d.txt", dir, rank);
  FILE *fh = fopen(path, "r");
  if (!fh) die("cannot open its program file", rank);
  int version = 0;
  if (fscanf(fh, "tesearch-rank %d", &version) != 1 || version != 1) die("not a tesearch-rank 1 file", rank);
  if (fscanf(fh, " rank %d ranks %d steps %d", &p->rank, &p->ranks, &p->steps) != 3 || p->rank != rank ||
      p->ranks != ranks)
    die("the program file is for another rank or rank count", rank);
  if (fscanf(fh, " neighbours %d", &p->degree) != 1 || p->degree < 0) die("bad neighbours line", rank);
  p->neighbours = must_alloc(sizeof(int) * (size_t)(p->degree + 1), rank);
  for (int i = 0; i < p->degree; i++)
    if (fscanf(fh, "%d", &p->neighbours[i]) != 1) die("bad neighbour list", rank);
  if (fscanf(fh, " sends %d", &p->nsends) != 1 || p->nsends < 0) die("bad sends line", rank);
  p->sends = must_alloc(sizeof(Hop) * (size_t)(p->nsends + 1), rank);
  read_hops(fh, p->sends, p->nsends, rank);
  if (fscanf(fh, " receives %d", &p->nrecvs) != 1 || p->nrecvs < 0) die("bad receives line", rank);
  p->recvs = must_alloc(sizeof(Hop) * (size_t)(p->nrecvs + 1), rank);
  read_hops(fh, p->recvs, p->nrecvs, rank);
  fclose(fh);
}

/* byte i of the block from origin to destination (what the content check compares) */
static unsigned char pattern(int origin, int destination, size_t i) {
  uint64_t x = ((uint64_t)(uint32_t)origin << 40) ^ ((uint64_t)(uint32_t)destination << 20) ^ (uint64_t)i;
  x *= 0xD6E8FEB86659FD93ull;
  x ^= x >> 32;
  return (unsigned char)(x & 0xff);
}

static void fill_block(unsigned char *block, int origin, int destination, size_t bytes) {
  for (size_t i = 0; i < bytes; i++) block[i] = pattern(origin, destination, i);
}

static long block_differs(const unsigned char *block, int origin, int destination, size_t bytes) {
  for (size_t i = 0; i < bytes; i++)
    if (block[i] != pattern(origin, destination, i)) return (long)i;
  return -1;
}

static void fault(int *count, const char *kind, int rank, int step, int origin, int destination,
                  const char *detail) {
  if ((*count)++ < MAX_FAULTS) {
    printf("FAULT %s %d %d %d %d %s\n", kind, rank, step, origin, destination, detail);
    fflush(stdout);
  }
}

static void report_time(const char *mode, size_t bytes, double start, double end, int checked, int faults) {
  double first = 0, last = 0, latest_start = 0;
  int total = 0, me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Reduce(&start, &first, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  MPI_Reduce(&start, &latest_start, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&end, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&faults, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) {
    printf("RESULT %s %zu %.12e %d %d %.12e\n", mode, bytes, last - first, checked, total, latest_start - first);
    fflush(stdout);
  }
}

/* ------------------------------------------------------------------ MPI_Alltoall */

static void run_alltoall(int me, int ranks, size_t bytes, int check) {
  size_t total = bytes * (size_t)ranks;
  unsigned char *send = check ? must_alloc(total, me) : SMPI_SHARED_MALLOC(total);
  unsigned char *recv = check ? must_alloc(total, me) : SMPI_SHARED_MALLOC(total);
  if (check)
    for (int d = 0; d < ranks; d++) fill_block(send + (size_t)d * bytes, me, d, bytes);
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  MPI_Alltoall(send, (int)bytes, MPI_BYTE, recv, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
  double end = MPI_Wtime();
  int faults = 0;
  if (check)
    for (int o = 0; o < ranks; o++) {
      long at = block_differs(recv + (size_t)o * bytes, o, me, bytes);
      if (at >= 0) {
        char detail[200];
        snprintf(detail, sizeof detail, "MPI_Alltoall delivered a wrong block from origin %d at byte %ld", o, at);
        fault(&faults, "block-differs", me, -1, o, me, detail);
      }
    }
  report_time("alltoall", bytes, start, end, check, faults);
  if (check) {
    free(send);
    free(recv);
  } else {
    SMPI_SHARED_FREE(send);
    SMPI_SHARED_FREE(recv);
  }
}

/* ------------------------------------------------------------------ the table's program */

typedef struct {
  Program *p;
  size_t bytes;
  int check;
  unsigned char *sendbuf;   /* ranks blocks (check) */
  unsigned char *recvbuf;   /* ranks blocks (check) */
  unsigned char *transit;   /* one block per receive (check) */
  unsigned char *shared;    /* one shared block (no check) */
  int *source_of_send;      /* receive index whose block a forward sends, -1 for the rank's own block */
  double *sent_at, *arrived_at;
} Run;

static unsigned char *recv_buffer(Run *r, int i) {
  const Hop *h = &r->p->recvs[i];
  if (!r->check) return r->shared;
  if (h->destination == r->p->rank) return r->recvbuf + (size_t)h->origin * r->bytes;
  return r->transit + (size_t)i * r->bytes;
}

static unsigned char *send_buffer(Run *r, int i) {
  const Hop *h = &r->p->sends[i];
  if (!r->check) return r->shared;
  if (h->origin == r->p->rank) return r->sendbuf + (size_t)h->destination * r->bytes;
  return r->transit + (size_t)r->source_of_send[i] * r->bytes;
}

static void prepare(Run *r, Program *p, size_t bytes, int check) {
  memset(r, 0, sizeof *r);
  r->p = p;
  r->bytes = bytes;
  r->check = check;
  int me = p->rank;
  if (check) {
    r->sendbuf = must_alloc(bytes * (size_t)p->ranks, me);
    r->recvbuf = must_alloc(bytes * (size_t)p->ranks, me);
    r->transit = must_alloc(bytes * (size_t)(p->nrecvs + 1), me);
    for (int d = 0; d < p->ranks; d++) fill_block(r->sendbuf + (size_t)d * bytes, me, d, bytes);
  } else {
    r->shared = SMPI_SHARED_MALLOC(bytes);
  }
  Map arrived;
  map_init(&arrived, p->nrecvs, me);
  for (int i = 0; i < p->nrecvs; i++) map_put(&arrived, p->recvs[i].origin, p->recvs[i].destination, i);
  r->source_of_send = must_alloc(sizeof(int) * (size_t)(p->nsends + 1), me);
  for (int i = 0; i < p->nsends; i++) {
    const Hop *h = &p->sends[i];
    r->source_of_send[i] = h->origin == me ? -1 : map_get(&arrived, h->origin, h->destination);
    if (h->origin != me && r->source_of_send[i] < 0)
      die("a forward of a message the rank never receives (run the check mode first)", me);
  }
  map_free(&arrived);
  r->sent_at = must_alloc(sizeof(double) * (size_t)(p->nsends + 1), me);
  r->arrived_at = must_alloc(sizeof(double) * (size_t)(p->nrecvs + 1), me);
}

static int check_delivered(Run *r) {
  int faults = 0;
  if (!r->check) return 0;
  const Program *p = r->p;
  for (int i = 0; i < p->nrecvs; i++) {
    const Hop *h = &p->recvs[i];
    if (h->destination != p->rank) continue;
    long at = block_differs(recv_buffer(r, i), h->origin, p->rank, r->bytes);
    if (at >= 0) {
      char detail[300];
      snprintf(detail, sizeof detail,
               "rank %d's block from origin %d (arrived at step %d from rank %d) differs from what its origin "
               "sent at byte %ld", p->rank, h->origin, h->step, h->neighbour, at);
      fault(&faults, "block-differs", p->rank, h->step, h->origin, p->rank, detail);
    }
  }
  return faults;
}

static void write_trace(Run *r, const char *dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/trace-%d.txt", dir, r->p->rank);
  FILE *fh = fopen(path, "w");
  if (!fh) die("cannot write its trace file", r->p->rank);
  for (int i = 0; i < r->p->nsends; i++) {
    const Hop *h = &r->p->sends[i];
    fprintf(fh, "S %d %d %d %d %d %.12e\n", h->column, h->letter, h->neighbour, h->origin, h->destination,
            r->sent_at[i]);
  }
  for (int i = 0; i < r->p->nrecvs; i++) {
    const Hop *h = &r->p->recvs[i];
    fprintf(fh, "R %d %d %d %d %d %.12e\n", h->column, h->letter, h->neighbour, h->origin, h->destination,
            r->arrived_at[i]);
  }
  fclose(fh);
}

static void release(Run *r) {
  if (r->check) {
    free(r->sendbuf);
    free(r->recvbuf);
    free(r->transit);
  } else {
    SMPI_SHARED_FREE(r->shared);
  }
  free(r->source_of_send);
  free(r->sent_at);
  free(r->arrived_at);
}

static int tag_of(int step, int tag_ub) { return step % tag_ub; }

static void run_step(Run *r, int tag_ub) {
  Program *p = r->p;
  MPI_Request *requests = must_alloc(sizeof(MPI_Request) * (size_t)(p->nsends + p->nrecvs + 1), p->rank);
  int *which = must_alloc(sizeof(int) * (size_t)(p->nsends + p->nrecvs + 1), p->rank);
  int s = 0, v = 0;
  for (int step = 0; step < p->steps; step++) {
    int count = 0;
    int first_recv = v;
    for (; v < p->nrecvs && p->recvs[v].step == step; v++) {
      MPI_Irecv(recv_buffer(r, v), (int)r->bytes, MPI_BYTE, p->recvs[v].neighbour, tag_of(step, tag_ub),
                MPI_COMM_WORLD, &requests[count]);
      which[count++] = v;
    }
    double now = MPI_Wtime();
    for (; s < p->nsends && p->sends[s].step == step; s++) {
      r->sent_at[s] = now;
      MPI_Isend(send_buffer(r, s), (int)r->bytes, MPI_BYTE, p->sends[s].neighbour, tag_of(step, tag_ub),
                MPI_COMM_WORLD, &requests[count++]);
    }
    if (count == 0) continue;
    /* wait one by one to learn each arrival's time; the step ends when all its hops are done */
    int pending = count;
    while (pending > 0) {
      int index;
      MPI_Waitany(count, requests, &index, MPI_STATUS_IGNORE);
      if (index == MPI_UNDEFINED) break;
      if (index < v - first_recv) r->arrived_at[which[index]] = MPI_Wtime();
      pending--;
    }
  }
  free(requests);
  free(which);
}

typedef struct {
  int neighbour;
  int *hops; /* send or receive indices on this link, in step order */
  int count, next, busy;
} Link;

static Link *links_of(const Hop *hops, int count, int *nlinks, int rank) {
  Link *links = must_alloc(sizeof(Link) * (size_t)(count + 1), rank);
  int n = 0;
  for (int i = 0; i < count; i++) {
    int k = 0;
    while (k < n && links[k].neighbour != hops[i].neighbour) k++;
    if (k == n) {
      links[n].neighbour = hops[i].neighbour;
      links[n].hops = must_alloc(sizeof(int) * (size_t)(count + 1), rank);
      n++;
    }
    links[k].hops[links[k].count++] = i;
  }
  *nlinks = n;
  return links;
}

static void free_links(Link *links, int n) {
  for (int i = 0; i < n; i++) free(links[i].hops);
  free(links);
}

static void run_dataflow(Run *r, int tag_ub, int window) {
  Program *p = r->p;
  int me = p->rank, nout, nin;
  Link *out = links_of(p->sends, p->nsends, &nout, me);
  Link *in = links_of(p->recvs, p->nrecvs, &nin, me);
  /* request slots: `window` per outgoing link (its hops in flight), WINDOW per incoming link */
  int first_in = window * nout, slots = first_in + WINDOW * nin;
  MPI_Request *requests = must_alloc(sizeof(MPI_Request) * (size_t)(slots + 1), me);
  int *slot_hop = must_alloc(sizeof(int) * (size_t)(slots + 1), me);
  int *send_link = must_alloc(sizeof(int) * (size_t)(p->nsends + 1), me);
  int *forward_of = must_alloc(sizeof(int) * (size_t)(p->nrecvs + 1), me); /* receive -> send that forwards it */
  char *arrived = must_alloc((size_t)(p->nrecvs + 1), me);
  for (int i = 0; i < slots; i++) requests[i] = MPI_REQUEST_NULL;
  for (int i = 0; i < p->nrecvs; i++) forward_of[i] = -1;
  for (int k = 0; k < nout; k++)
    for (int j = 0; j < out[k].count; j++) send_link[out[k].hops[j]] = k;
  for (int i = 0; i < p->nsends; i++)
    if (r->source_of_send[i] >= 0) forward_of[r->source_of_send[i]] = i;
  int active = 0;
  for (int k = 0; k < nin; k++)
    for (int w = 0; w < WINDOW && in[k].next < in[k].count; w++) {
      int v = in[k].hops[in[k].next++], slot = first_in + k * WINDOW + w;
      MPI_Irecv(recv_buffer(r, v), (int)r->bytes, MPI_BYTE, in[k].neighbour, tag_of(p->recvs[v].step, tag_ub),
                MPI_COMM_WORLD, &requests[slot]);
      slot_hop[slot] = v;
      active++;
    }
  /* start the next hops of outgoing link k, in step order, while fewer than `window` are in flight on it
   * and the next hop's block is here */
#define TRY_START(k)                                                                                  \
  do {                                                                                                \
    Link *L = &out[(k)];                                                                              \
    while (L->busy < window && L->next < L->count) {                                                  \
      int s_ = L->hops[L->next];                                                                      \
      int src_ = r->source_of_send[s_];                                                               \
      if (src_ >= 0 && !arrived[src_]) break;                                                         \
      int slot_ = (k) * window;                                                                       \
      while (requests[slot_] != MPI_REQUEST_NULL) slot_++;                                            \
      L->next++;                                                                                      \
      L->busy++;                                                                                      \
      r->sent_at[s_] = MPI_Wtime();                                                                   \
      MPI_Isend(send_buffer(r, s_), (int)r->bytes, MPI_BYTE, L->neighbour,                            \
                tag_of(p->sends[s_].step, tag_ub), MPI_COMM_WORLD, &requests[slot_]);                 \
      slot_hop[slot_] = s_;                                                                           \
      active++;                                                                                       \
    }                                                                                                 \
  } while (0)
  for (int k = 0; k < nout; k++) TRY_START(k);
  while (active > 0) {
    int slot;
    MPI_Waitany(slots, requests, &slot, MPI_STATUS_IGNORE);
    if (slot == MPI_UNDEFINED) break;
    active--;
    if (slot < first_in) { /* a send finished: its link has room */
      int k = slot / window;
      out[k].busy--;
      TRY_START(k);
    } else { /* a receive arrived: repost on its link, start the forward if its link has room */
      int v = slot_hop[slot], k = (slot - first_in) / WINDOW;
      arrived[v] = 1;
      r->arrived_at[v] = MPI_Wtime();
      if (in[k].next < in[k].count) {
        int w = in[k].hops[in[k].next++];
        MPI_Irecv(recv_buffer(r, w), (int)r->bytes, MPI_BYTE, in[k].neighbour, tag_of(p->recvs[w].step, tag_ub),
                  MPI_COMM_WORLD, &requests[slot]);
        slot_hop[slot] = w;
        active++;
      }
      if (forward_of[v] >= 0) TRY_START(send_link[forward_of[v]]);
    }
  }
#undef TRY_START
  for (int k = 0; k < nout; k++)
    if (out[k].next < out[k].count) die("dataflow: a hop was never sent (a broken program?)", me);
  free(requests);
  free(slot_hop);
  free(send_link);
  free(forward_of);
  free(arrived);
  free_links(out, nout);
  free_links(in, nin);
}

/* ------------------------------------------------------------------ combined: several steps in one message */

static int by_superstep(const void *a, const void *b) {
  const Hop *x = a, *y = b;
  if (x->step != y->step) return x->step < y->step ? -1 : 1;
  if (x->column != y->column) return x->column < y->column ? -1 : 1;
  if (x->letter != y->letter) return x->letter < y->letter ? -1 : 1;
  return x->index < y->index ? -1 : (x->index > y->index);
}

static void to_supersteps(Hop *hops, int count, const int *map, int steps, int letters, int supersteps, int rank) {
  for (int i = 0; i < count; i++) {
    Hop *h = &hops[i];
    if (h->column < 0 || h->column >= steps || h->letter < 0 || h->letter >= letters)
      die("combined: a hop outside the combine map's steps and letters", rank);
    int s = map[(size_t)h->column * (size_t)letters + (size_t)h->letter];
    if (s < 0 || s >= supersteps) die("combined: a hop in a cell the combine map leaves blank", rank);
    h->step = s;
  }
  qsort(hops, (size_t)count, sizeof(Hop), by_superstep);
}

/* read DIR/combine-N.txt and move every hop of the program to its superstep */
static void read_combine_map(const char *dir, int k, Program *p) {
  char path[4096];
  int me = p->rank, version = 0, steps = 0, letters = 0, supersteps = 0;
  snprintf(path, sizeof path, "%s/combine-%d.txt", dir, k);
  FILE *fh = fopen(path, "r");
  if (!fh) die("combined: cannot open the combine map", me);
  if (fscanf(fh, "tesearch-combine %d", &version) != 1 || version != 1) die("not a tesearch-combine 1 file", me);
  if (fscanf(fh, " steps %d letters %d supersteps %d", &steps, &letters, &supersteps) != 3 || steps != p->steps ||
      letters < 1 || supersteps < 1)
    die("combined: the combine map is for another table", me);
  int *map = must_alloc(sizeof(int) * (size_t)steps * (size_t)letters, me);
  for (size_t i = 0; i < (size_t)steps * (size_t)letters; i++)
    if (fscanf(fh, "%d", &map[i]) != 1) die("combined: a short combine map", me);
  fclose(fh);
  to_supersteps(p->sends, p->nsends, map, steps, letters, supersteps, me);
  to_supersteps(p->recvs, p->nrecvs, map, steps, letters, supersteps, me);
  p->steps = supersteps;
  free(map);
}

static int link_index(const Link *links, int n, int neighbour) {
  for (int k = 0; k < n; k++)
    if (links[k].neighbour == neighbour) return k;
  return -1;
}

/* superstep by superstep: one message per link holding every hop of the superstep on it, packed in table order
 * (column, letter) on both sides; wait for all of them, then unpack */
static void run_combined(Run *r, int tag_ub) {
  Program *p = r->p;
  int me = p->rank, nout, nin;
  Link *out = links_of(p->sends, p->nsends, &nout, me);
  Link *in = links_of(p->recvs, p->nrecvs, &nin, me);
  int *send_link = must_alloc(sizeof(int) * (size_t)(p->nsends + 1), me);
  int *recv_link = must_alloc(sizeof(int) * (size_t)(p->nrecvs + 1), me);
  int *out_count = must_alloc(sizeof(int) * (size_t)(nout + 1), me);
  int *in_count = must_alloc(sizeof(int) * (size_t)(nin + 1), me);
  for (int i = 0; i < p->nsends; i++) send_link[i] = link_index(out, nout, p->sends[i].neighbour);
  for (int i = 0; i < p->nrecvs; i++) recv_link[i] = link_index(in, nin, p->recvs[i].neighbour);
  /* the largest bundle any link carries in one superstep, to size the staging buffers */
  int largest = 1;
  for (int lo = 0, hi = 0; lo < p->nsends; lo = hi) {
    memset(out_count, 0, sizeof(int) * (size_t)(nout + 1));
    for (hi = lo; hi < p->nsends && p->sends[hi].step == p->sends[lo].step; hi++)
      if (++out_count[send_link[hi]] > largest) largest = out_count[send_link[hi]];
  }
  for (int lo = 0, hi = 0; lo < p->nrecvs; lo = hi) {
    memset(in_count, 0, sizeof(int) * (size_t)(nin + 1));
    for (hi = lo; hi < p->nrecvs && p->recvs[hi].step == p->recvs[lo].step; hi++)
      if (++in_count[recv_link[hi]] > largest) largest = in_count[recv_link[hi]];
  }
  size_t bundle = r->bytes * (size_t)largest;
  if (bundle > (size_t)1 << 31) die("combined: a bundle of more than 2 GiB", me);
  unsigned char *out_stage = NULL, *in_stage = NULL, *shared = NULL;
  if (r->check) {
    out_stage = must_alloc(bundle * (size_t)(nout + 1), me);
    in_stage = must_alloc(bundle * (size_t)(nin + 1), me);
  } else {
    shared = SMPI_SHARED_MALLOC(bundle);
  }
  MPI_Request *requests = must_alloc(sizeof(MPI_Request) * (size_t)(nout + nin + 1), me);
  int s = 0, v = 0;
  for (int step = 0; step < p->steps; step++) {
    int count = 0, first_recv = v;
    memset(in_count, 0, sizeof(int) * (size_t)(nin + 1));
    memset(out_count, 0, sizeof(int) * (size_t)(nout + 1));
    for (; v < p->nrecvs && p->recvs[v].step == step; v++) in_count[recv_link[v]]++;
    for (int k = 0; k < nin; k++)
      if (in_count[k] > 0)
        MPI_Irecv(r->check ? in_stage + (size_t)k * bundle : shared, (int)(r->bytes * (size_t)in_count[k]), MPI_BYTE,
                  in[k].neighbour, tag_of(step, tag_ub), MPI_COMM_WORLD, &requests[count++]);
    double now = MPI_Wtime();
    for (; s < p->nsends && p->sends[s].step == step; s++) {
      int k = send_link[s];
      if (r->check)
        memcpy(out_stage + (size_t)k * bundle + (size_t)out_count[k] * r->bytes, send_buffer(r, s), r->bytes);
      out_count[k]++;
      r->sent_at[s] = now;
    }
    for (int k = 0; k < nout; k++)
      if (out_count[k] > 0)
        MPI_Isend(r->check ? out_stage + (size_t)k * bundle : shared, (int)(r->bytes * (size_t)out_count[k]),
                  MPI_BYTE, out[k].neighbour, tag_of(step, tag_ub), MPI_COMM_WORLD, &requests[count++]);
    if (count == 0) continue;
    MPI_Waitall(count, requests, MPI_STATUSES_IGNORE);
    now = MPI_Wtime();
    memset(in_count, 0, sizeof(int) * (size_t)(nin + 1));
    for (int i = first_recv; i < v; i++) {
      int k = recv_link[i];
      if (r->check)
        memcpy(recv_buffer(r, i), in_stage + (size_t)k * bundle + (size_t)in_count[k] * r->bytes, r->bytes);
      in_count[k]++;
      r->arrived_at[i] = now;
    }
  }
  if (r->check) {
    free(out_stage);
    free(in_stage);
  } else {
    SMPI_SHARED_FREE(shared);
  }
  free(requests);
  free(send_link);
  free(recv_link);
  free(out_count);
  free(in_count);
  free_links(out, nout);
  free_links(in, nin);
}

/* ------------------------------------------------------------------ check: lockstep frames */

typedef struct {
  int origin, destination, sender, step;
} Arrival;

static void run_check(Program *p, size_t bytes) {
  int me = p->rank, faults = 0;
  char detail[400];
  /* distinct neighbours */
  int *links = must_alloc(sizeof(int) * (size_t)(p->degree + 1), me), nlinks = 0;
  for (int i = 0; i < p->degree; i++) {
    int k = 0;
    while (k < nlinks && links[k] != p->neighbours[i]) k++;
    if (k == nlinks && p->neighbours[i] != me) links[nlinks++] = p->neighbours[i];
  }
  size_t item = 2 * sizeof(int) + bytes;
  /* a frame holds at most `cap` hops: a table sends one hop per letter per step, so a link carries at most as
   * many as the letters that lead to its neighbour; twice the degree leaves room for a late or misrouted hop.
   * A fixed bound lets every frame be received into a posted buffer (no MPI_Probe, whose polling costs
   * SimGrid a simulated sleep and a mailbox scan per try: 4x the table's own run on 1024 ranks). */
  int cap = 2 * p->degree + 2;
  size_t frame_bytes = sizeof(int) + item * (size_t)cap;
  unsigned char **frames = must_alloc(sizeof(unsigned char *) * (size_t)(nlinks + 1), me);
  unsigned char **inboxes = must_alloc(sizeof(unsigned char *) * (size_t)(nlinks + 1), me);
  int *frame_count = must_alloc(sizeof(int) * (size_t)(nlinks + 1), me);
  for (int k = 0; k < nlinks; k++) {
    frames[k] = must_alloc(frame_bytes, me);
    inboxes[k] = must_alloc(frame_bytes, me);
  }
  /* slots that arrived at the previous step and at this one: only those can be held too long now */
  int *arrived_before = must_alloc(sizeof(int) * (size_t)(nlinks * cap + 1), me), narrived_before = 0;
  int *arrived_now = must_alloc(sizeof(int) * (size_t)(nlinks * cap + 1), me), narrived_now = 0;
  /* held messages: (origin, destination) -> slot; slot holds the block and the arrival step */
  int hold_cap = p->nrecvs + 1;
  Map held;
  map_init(&held, hold_cap * 2, me);
  unsigned char *hold = must_alloc(bytes * (size_t)hold_cap, me);
  int *hold_step = must_alloc(sizeof(int) * (size_t)hold_cap, me);
  char *hold_used = must_alloc((size_t)hold_cap, me);
  char *hold_reported = must_alloc((size_t)hold_cap, me);
  int hold_next = 0;
  char *delivered = must_alloc((size_t)p->ranks, me);
  Arrival *unexpected = must_alloc(sizeof(Arrival) * (size_t)(p->nrecvs + 64), me);
  int nunexpected = 0, unexpected_cap = p->nrecvs + 64;
  Arrival *missing = must_alloc(sizeof(Arrival) * (size_t)(p->nrecvs + 1), me);
  int nmissing = 0;
  char *matched = must_alloc((size_t)(p->nrecvs + 1), me);
  unsigned char *own = must_alloc(bytes, me);
  MPI_Request *requests = must_alloc(sizeof(MPI_Request) * (size_t)(2 * nlinks + 1), me);
  MPI_Request *receiving = requests + nlinks;
  int s = 0, v = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  for (int step = 0; step < p->steps; step++) {
    for (int k = 0; k < nlinks; k++) {
      frame_count[k] = 0;
      MPI_Irecv(inboxes[k], (int)frame_bytes, MPI_BYTE, links[k], step, MPI_COMM_WORLD, &receiving[k]);
    }
    for (; s < p->nsends && p->sends[s].step == step; s++) {
      const Hop *h = &p->sends[s];
      int k = 0;
      while (k < nlinks && links[k] != h->neighbour) k++;
      if (k == nlinks) {
        snprintf(detail, sizeof detail, "rank %d's program sends message %d->%d at step %d to rank %d, which is not "
                 "a network neighbour", me, h->origin, h->destination, step, h->neighbour);
        fault(&faults, "not-a-neighbour", me, step, h->origin, h->destination, detail);
        continue;
      }
      if (frame_count[k] == cap) {
        snprintf(detail, sizeof detail, "rank %d's program sends more than %d hops to rank %d at step %d (message "
                 "%d->%d is one too many; a table sends one hop per letter and step)", me, cap, h->neighbour, step,
                 h->origin, h->destination);
        fault(&faults, "link-overloaded", me, step, h->origin, h->destination, detail);
        continue;
      }
      const unsigned char *payload;
      if (h->origin == me) {
        fill_block(own, me, h->destination, bytes);
        payload = own;
      } else {
        int slot = map_get(&held, h->origin, h->destination);
        if (slot < 0 || !hold_used[slot]) {
          snprintf(detail, sizeof detail, "rank %d's program forwards message %d->%d at step %d, but rank %d does not "
                   "hold it", me, h->origin, h->destination, step, me);
          fault(&faults, "not-held", me, step, h->origin, h->destination, detail);
          continue;
        }
        hold_used[slot] = 0;
        payload = hold + (size_t)slot * bytes;
      }
      unsigned char *at = frames[k] + sizeof(int) + item * (size_t)frame_count[k]++;
      int pair[2] = {h->origin, h->destination};
      memcpy(at, pair, sizeof pair);
      memcpy(at + sizeof pair, payload, bytes);
    }
    for (int a = 0; a < narrived_before; a++) {
      int slot = arrived_before[a];
      if (hold_used[slot] && hold_step[slot] < step && !hold_reported[slot]) {
        hold_reported[slot] = 1;
        int o = -1, d = -1; /* the message of the slot */
        for (int i = 0; i < held.size; i++)
          if (held.keys[i] != -1 && held.values[i] == slot) {
            o = (int)(held.keys[i] >> 32);
            d = (int)(uint32_t)held.keys[i];
          }
        snprintf(detail, sizeof detail, "rank %d holds message %d->%d past step %d (it arrived at step %d and was not "
                 "sent on at step %d)", me, o, d, step, hold_step[slot], hold_step[slot] + 1);
        fault(&faults, "held-too-long", me, step, o, d, detail);
      }
    }
    for (int k = 0; k < nlinks; k++) {
      memcpy(frames[k], &frame_count[k], sizeof(int));
      MPI_Isend(frames[k], (int)(sizeof(int) + item * (size_t)frame_count[k]), MPI_BYTE, links[k], step,
                MPI_COMM_WORLD, &requests[k]);
    }
    int first = v;
    for (; v < p->nrecvs && p->recvs[v].step == step; v++) matched[v] = 0;
    MPI_Waitall(nlinks, receiving, MPI_STATUSES_IGNORE);
    narrived_now = 0;
    for (int k = 0; k < nlinks; k++) {
      const unsigned char *inbox = inboxes[k];
      int count;
      memcpy(&count, inbox, sizeof(int));
      if (count < 0 || count > cap) die("check: a frame with more hops than a link carries", me);
      for (int i = 0; i < count; i++) {
        const unsigned char *at = inbox + sizeof(int) + item * (size_t)i;
        int pair[2];
        memcpy(pair, at, sizeof pair);
        int o = pair[0], d = pair[1], found = 0;
        for (int j = first; j < v; j++)
          if (!matched[j] && p->recvs[j].origin == o && p->recvs[j].destination == d &&
              p->recvs[j].neighbour == links[k]) {
            matched[j] = 1;
            found = 1;
            break;
          }
        if (!found) {
          if (nunexpected == unexpected_cap) {
            unexpected_cap *= 2;
            unexpected = realloc(unexpected, sizeof(Arrival) * (size_t)unexpected_cap);
            if (!unexpected) die("out of memory", me);
          }
          unexpected[nunexpected++] = (Arrival){o, d, links[k], step};
        }
        if (d == me) {
          if (o >= 0 && o < p->ranks && delivered[o]) {
            snprintf(detail, sizeof detail, "message %d->%d reached rank %d a second time at step %d (from rank %d)",
                     o, d, me, step, links[k]);
            fault(&faults, "duplicate", links[k], step, o, d, detail);
          }
          if (o >= 0 && o < p->ranks) delivered[o] = 1;
          long wrong = block_differs(at + sizeof pair, o, me, bytes);
          if (wrong >= 0) {
            snprintf(detail, sizeof detail, "rank %d's block from origin %d (arrived at step %d from rank %d) differs "
                     "from what its origin sent at byte %ld", me, o, step, links[k], wrong);
            fault(&faults, "block-differs", me, step, o, me, detail);
          }
        } else {
          int slot = map_get(&held, o, d);
          if (slot < 0) {
            if (hold_next == hold_cap) { /* a broken program may hold more than it receives */
              die("check: more messages in transit than the program receives", me);
            }
            slot = hold_next++;
            map_put(&held, o, d, slot);
          }
          hold_used[slot] = 1;
          hold_reported[slot] = 0;
          hold_step[slot] = step;
          arrived_now[narrived_now++] = slot;
          memcpy(hold + (size_t)slot * bytes, at + sizeof pair, bytes);
        }
      }
    }
    for (int j = first; j < v; j++)
      if (!matched[j]) missing[nmissing++] = (Arrival){p->recvs[j].origin, p->recvs[j].destination,
                                                       p->recvs[j].neighbour, step};
    MPI_Waitall(nlinks, requests, MPI_STATUSES_IGNORE);
    int *swap = arrived_before;
    arrived_before = arrived_now;
    arrived_now = swap;
    narrived_before = narrived_now;
  }
  double end = MPI_Wtime();
  /* name what arrived unexpectedly and what never came (late, early, wrong neighbour, dropped) */
  for (int i = 0; i < nunexpected; i++) {
    Arrival *u = &unexpected[i];
    int due = -1;
    for (int j = 0; j < nmissing; j++)
      if (missing[j].origin == u->origin && missing[j].destination == u->destination && missing[j].sender >= 0) {
        due = j;
        break;
      }
    if (due >= 0 && missing[due].sender == u->sender) {
      int lateness = u->step - missing[due].step;
      snprintf(detail, sizeof detail, "rank %d sent message %d->%d %d step(s) %s: rank %d expected it at step %d, it "
               "arrived at step %d", u->sender, u->origin, u->destination, lateness > 0 ? lateness : -lateness,
               lateness > 0 ? "late" : "early", me, missing[due].step, u->step);
      fault(&faults, lateness > 0 ? "late" : "early", u->sender, u->step, u->origin, u->destination, detail);
      missing[due].sender = -1;
      continue;
    }
    char expected[120] = "";
    if (due >= 0)
      snprintf(expected, sizeof expected, " (rank %d expected it from rank %d at step %d)", me, missing[due].sender,
               missing[due].step);
    snprintf(detail, sizeof detail, "rank %d sent message %d->%d to the wrong neighbour at step %d: rank %d is not "
             "next on its path%s", u->sender, u->origin, u->destination, u->step, me, expected);
    fault(&faults, "wrong-neighbour", u->sender, u->step, u->origin, u->destination, detail);
  }
  for (int j = 0; j < nmissing; j++)
    if (missing[j].sender >= 0) {
      snprintf(detail, sizeof detail, "message %d->%d was dropped: rank %d expected it from rank %d at step %d and it "
               "never arrived", missing[j].origin, missing[j].destination, me, missing[j].sender, missing[j].step);
      fault(&faults, "dropped", missing[j].sender, missing[j].step, missing[j].origin, missing[j].destination, detail);
    }
  for (int o = 0; o < p->ranks; o++)
    if (o != me && !delivered[o]) {
      snprintf(detail, sizeof detail, "rank %d never received the block from origin %d", me, o);
      fault(&faults, "block-missing", me, p->steps, o, me, detail);
    }
  report_time("check", bytes, start, end, 1, faults);
  for (int k = 0; k < nlinks; k++) {
    free(frames[k]);
    free(inboxes[k]);
  }
  free(frames);
  free(inboxes);
  free(arrived_before);
  free(arrived_now);
  free(frame_count);
  free(links);
  map_free(&held);
  free(hold);
  free(hold_step);
  free(hold_used);
  free(hold_reported);
  free(delivered);
  free(unexpected);
  free(missing);
  free(matched);
  free(own);
  free(requests);
}

/* ------------------------------------------------------------------ routes */

static void run_routes(int me, int ranks) {
  /* each message carries its send time; a transfer starts when both sides are there, so the route's time
   * is the arrival less the later of the send and the posting of the receive (no barrier skew) */
  double *sent = must_alloc(sizeof(double), me), *recv = must_alloc(sizeof(double) * (size_t)ranks, me);
  MPI_Request *requests = must_alloc(sizeof(MPI_Request) * (size_t)(2 * ranks), me);
  int *source = must_alloc(sizeof(int) * (size_t)(2 * ranks), me), n = 0;
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
  if (argc != 7) die("usage: tesearch_simulate MODE DIR BYTES CHECK TRACE PARAM", me);
  const char *mode = argv[1], *dir = argv[2];
  size_t bytes = (size_t)strtoull(argv[3], NULL, 10);
  int check = atoi(argv[4]), trace = atoi(argv[5]), window = atoi(argv[6]);
  if (window < 1) die("PARAM must be at least 1", me);
  if (bytes < 1 || bytes > (size_t)1 << 31) die("BYTES must be in 1..2^31", me);
  int *tag_attr, flag = 0, tag_ub = 32767;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_attr, &flag);
  if (flag && *tag_attr > 0) tag_ub = *tag_attr;
  if (strcmp(mode, "alltoall") == 0) {
    run_alltoall(me, ranks, bytes, check);
  } else if (strcmp(mode, "routes") == 0) {
    run_routes(me, ranks);
  } else {
    Program p;
    read_program(dir, me, ranks, &p);
    if (strcmp(mode, "check") == 0) {
      run_check(&p, bytes);
    } else if (strcmp(mode, "step") == 0 || strcmp(mode, "dataflow") == 0 || strcmp(mode, "combined") == 0) {
      Run r;
      if (mode[0] == 'c') read_combine_map(dir, window, &p);
      prepare(&r, &p, bytes, check);
      MPI_Barrier(MPI_COMM_WORLD);
      double start = MPI_Wtime();
      if (mode[0] == 's')
        run_step(&r, tag_ub);
      else if (mode[0] == 'c')
        run_combined(&r, tag_ub);
      else
        run_dataflow(&r, tag_ub, window);
      double end = MPI_Wtime();
      int faults = check_delivered(&r);
      report_time(mode, bytes, start, end, check, faults);
      if (trace) write_trace(&r, dir);
      release(&r);
    } else {
      die("MODE is alltoall, step, dataflow, combined, check or routes", me);
    }
    free(p.neighbours);
    free(p.sends);
    free(p.recvs);
  }
  MPI_Finalize();
  return 0;
}
