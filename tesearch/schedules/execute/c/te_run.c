/* te_run.c: the executors of te.h (step, dataflow, combined, pipelined) over MPI-shaped buffers, with their memory. */
#include "te.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ (origin, destination) -> index */

typedef struct {
  int64_t *keys;
  int *values;
  size_t size;
} pairmap;

static int pairmap_init(pairmap *m, size_t capacity) {
  m->size = 16;
  while (m->size < 2 * capacity + 2) m->size *= 2;
  m->keys = malloc(sizeof(int64_t) * m->size);
  m->values = malloc(sizeof(int) * m->size);
  if (!m->keys || !m->values) return -1;
  for (size_t i = 0; i < m->size; i++) m->keys[i] = -1;
  return 0;
}

static size_t pairmap_slot(const pairmap *m, int64_t key) {
  uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ull;
  size_t i = (size_t)(h >> 40) & (m->size - 1);
  while (m->keys[i] != -1 && m->keys[i] != key) i = (i + 1) & (m->size - 1);
  return i;
}

static int64_t pair_key(int origin, int destination) { return ((int64_t)origin << 32) | (uint32_t)destination; }

static void pairmap_put(pairmap *m, int origin, int destination, int value) {
  size_t i = pairmap_slot(m, pair_key(origin, destination));
  m->keys[i] = pair_key(origin, destination);
  m->values[i] = value;
}

static int pairmap_get(const pairmap *m, int origin, int destination) {
  size_t i = pairmap_slot(m, pair_key(origin, destination));
  return m->keys[i] == -1 ? -1 : m->values[i];
}

static void pairmap_free(pairmap *m) {
  free(m->keys);
  free(m->values);
}

/* ------------------------------------------------------------------ transit blocks and the memory meter */

#define CHUNK 64

typedef struct {
  size_t bytes;
  unsigned char *shared; /* every block is this one buffer (SimGrid without payload) */
  unsigned char **chunks;
  int nchunks;
  int *free_slots, nfree, capacity;
  long in_use, peak_blocks;
  size_t staged, peak_bytes; /* bytes in bundles being packed, sent or received */
} pool;

static int pool_init(pool *p, size_t bytes, unsigned char *shared, int most) {
  memset(p, 0, sizeof *p);
  p->bytes = bytes;
  p->shared = shared;
  int chunks = most / CHUNK + 2;
  p->chunks = calloc((size_t)chunks, sizeof(unsigned char *));
  p->free_slots = malloc(sizeof(int) * ((size_t)chunks * CHUNK));
  return (p->chunks && p->free_slots) ? 0 : -1;
}

static void meter(pool *p) {
  size_t now = (size_t)p->in_use * p->bytes + p->staged;
  if (now > p->peak_bytes) p->peak_bytes = now;
  if (p->in_use > p->peak_blocks) p->peak_blocks = p->in_use;
}

static int pool_get(pool *p) {
  if (p->nfree == 0) {
    if (!p->shared) {
      p->chunks[p->nchunks] = malloc(p->bytes * CHUNK);
      if (!p->chunks[p->nchunks]) return -1;
    }
    for (int i = CHUNK - 1; i >= 0; i--) p->free_slots[p->nfree++] = p->nchunks * CHUNK + i;
    p->nchunks++;
  }
  p->in_use++;
  meter(p);
  return p->free_slots[--p->nfree];
}

static unsigned char *pool_at(const pool *p, int slot) {
  return p->shared ? p->shared : p->chunks[slot / CHUNK] + (size_t)(slot % CHUNK) * p->bytes;
}

static void pool_put(pool *p, int slot) {
  p->free_slots[p->nfree++] = slot;
  p->in_use--;
}

static void pool_free(pool *p) {
  for (int i = 0; i < p->nchunks; i++)
    if (!p->shared) free(p->chunks[i]);
  free(p->chunks);
  free(p->free_slots);
}

/* ------------------------------------------------------------------ what every executor shares */

typedef struct {
  const te_program *p;
  const unsigned char *sendbuf;
  unsigned char *recvbuf;
  size_t bytes;
  MPI_Comm comm;
  int tag_ub;
  pool blocks;
  int *source;   /* per send: the receive whose block it forwards, -1 for the rank's own block */
  int *forward;  /* per receive: the send that forwards it, -1 for a block for this rank */
  int *slot;     /* per receive: its transit block, -1 when none */
  te_stats *stats;
} run;

static int fail(char *why, size_t whylen, const char *what) {
  if (why && whylen) snprintf(why, whylen, "%s", what);
  return -1;
}

static int setup(run *r, const te_program *p, const void *sendbuf, void *recvbuf, size_t bytes, MPI_Comm comm,
                 void *shared, te_stats *stats, char *why, size_t whylen) {
  memset(r, 0, sizeof *r);
  r->p = p;
  r->sendbuf = sendbuf;
  r->recvbuf = recvbuf;
  r->bytes = bytes;
  r->comm = comm;
  r->stats = stats;
  int *attribute, flag = 0;
  MPI_Comm_get_attr(comm, MPI_TAG_UB, &attribute, &flag);
  r->tag_ub = (flag && *attribute > 0) ? *attribute : 32767;
  r->source = malloc(sizeof(int) * ((size_t)p->nsends + 1));
  r->forward = malloc(sizeof(int) * ((size_t)p->nrecvs + 1));
  r->slot = malloc(sizeof(int) * ((size_t)p->nrecvs + 1));
  if (!r->source || !r->forward || !r->slot || pool_init(&r->blocks, bytes, shared, p->nrecvs) != 0)
    return fail(why, whylen, "out of memory preparing a run");
  pairmap arrived;
  if (pairmap_init(&arrived, (size_t)p->nrecvs) != 0) return fail(why, whylen, "out of memory preparing a run");
  for (int v = 0; v < p->nrecvs; v++) {
    r->forward[v] = -1;
    r->slot[v] = -1;
    if (p->recvs[v].destination != p->rank) pairmap_put(&arrived, p->recvs[v].origin, p->recvs[v].destination, v);
  }
  int status = 0;
  for (int s = 0; s < p->nsends; s++) {
    const te_hop *h = &p->sends[s];
    r->source[s] = -1;
    if (h->origin == p->rank) continue;
    int v = pairmap_get(&arrived, h->origin, h->destination);
    if (v < 0 || r->forward[v] >= 0) {
      status = fail(why, whylen, "a program forwards a message it never receives, or twice (run the check first)");
      break;
    }
    r->source[s] = v;
    r->forward[v] = s;
  }
  pairmap_free(&arrived);
  if (status == 0) /* the rank's own block stays in place, as MPI_Alltoall leaves it */
    memcpy(r->recvbuf + (size_t)p->rank * bytes, r->sendbuf + (size_t)p->rank * bytes, shared ? 0 : bytes);
  return status;
}

static void teardown(run *r) {
  pool_free(&r->blocks);
  free(r->source);
  free(r->forward);
  free(r->slot);
}

/* where a receive lands: the receive buffer for this rank's own blocks, else a transit block */
static unsigned char *landing(run *r, int v) {
  const te_hop *h = &r->p->recvs[v];
  if (h->destination == r->p->rank)
    return r->blocks.shared ? r->blocks.shared : r->recvbuf + (size_t)h->origin * r->bytes;
  if (r->slot[v] < 0) r->slot[v] = pool_get(&r->blocks);
  return r->slot[v] < 0 ? NULL : pool_at(&r->blocks, r->slot[v]);
}

static const unsigned char *payload(run *r, int s) {
  const te_hop *h = &r->p->sends[s];
  if (h->origin == r->p->rank)
    return r->blocks.shared ? r->blocks.shared : r->sendbuf + (size_t)h->destination * r->bytes;
  return pool_at(&r->blocks, r->slot[r->source[s]]);
}

static void forwarded(run *r, int s) { /* a forward's send completed: its transit block is free */
  int v = r->source[s];
  if (v >= 0 && r->slot[v] >= 0) {
    pool_put(&r->blocks, r->slot[v]);
    r->slot[v] = -1;
  }
}

static int count_fits(size_t bytes) { return bytes <= (size_t)TE_MESSAGE_LIMIT; }

/* ------------------------------------------------------------------ step: one message per hop, step by step */

static int run_step(run *r, char *why, size_t whylen) {
  const te_program *p = r->p;
  MPI_Request *requests = malloc(sizeof(MPI_Request) * ((size_t)p->nsends + p->nrecvs + 1));
  int *which = malloc(sizeof(int) * ((size_t)p->nsends + p->nrecvs + 1));
  if (!requests || !which) {
    free(requests);
    free(which);
    return fail(why, whylen, "out of memory in the step executor");
  }
  int s = 0, v = 0;
  while (s < p->nsends || v < p->nrecvs) {
    int step = INT_MAX;
    if (s < p->nsends) step = p->sends[s].step;
    if (v < p->nrecvs && p->recvs[v].step < step) step = p->recvs[v].step;
    int count = 0, first_send = s;
    for (; v < p->nrecvs && p->recvs[v].step == step; v++) {
      unsigned char *into = landing(r, v);
      if (!into) {
        free(requests);
        free(which);
        return fail(why, whylen, "out of memory for a block in transit");
      }
      MPI_Irecv(into, (int)r->bytes, MPI_BYTE, p->recvs[v].neighbour, step % r->tag_ub, r->comm, &requests[count]);
      which[count++] = v;
    }
    int receives = count;
    double now = MPI_Wtime();
    for (; s < p->nsends && p->sends[s].step == step; s++) {
      if (r->stats->sent_at) r->stats->sent_at[s] = now;
      MPI_Isend((void *)payload(r, s), (int)r->bytes, MPI_BYTE, p->sends[s].neighbour, step % r->tag_ub, r->comm,
                &requests[count]);
      which[count++] = s;
      r->stats->messages++;
    }
    if (r->stats->arrived_at) {
      for (int left = count; left > 0; left--) {
        int index;
        MPI_Waitany(count, requests, &index, MPI_STATUS_IGNORE);
        if (index == MPI_UNDEFINED) break;
        if (index < receives) r->stats->arrived_at[which[index]] = MPI_Wtime();
      }
    } else {
      MPI_Waitall(count, requests, MPI_STATUSES_IGNORE);
    }
    for (int i = first_send; i < s; i++) forwarded(r, i);
  }
  free(requests);
  free(which);
  return 0;
}

/* ------------------------------------------------------------------ dataflow: out of order within a lookahead
 *
 * Each outgoing link sends, among the `lookahead` positions of its lane starting at its first unsent hop, any
 * unsent hop whose block is here, with at most `inflight` sends in flight; each incoming link keeps receives
 * posted for the `lookahead + inflight` positions starting at its first hop not yet received (a tag per lane
 * position).  No deadlock: a send in flight whose receive is not posted has a position at least
 * first-unreceived + lookahead + inflight, so more than `inflight` positions before it are sent and not seen
 * received; one of them is not in flight, so its send completed and its receive (posted: it is in the window)
 * completes without the sender, and the window moves. */

typedef struct {
  int *hops;  /* send (out) or receive (in) indices on this link, in schedule order */
  int count;
  int first;  /* out: first unsent; in: first unreceived */
  int posted; /* in: receives posted up to this position */
  int busy;   /* out: hops in flight */
} lane;

static lane *lanes_of(const te_hop *hops, int count, int letters) {
  lane *lanes = calloc((size_t)letters, sizeof(lane));
  if (!lanes) return NULL;
  for (int i = 0; i < count; i++) lanes[hops[i].letter].count++;
  for (int k = 0; k < letters; k++) {
    lanes[k].hops = malloc(sizeof(int) * ((size_t)lanes[k].count + 1));
    if (!lanes[k].hops) return NULL;
    lanes[k].count = 0;
  }
  for (int i = 0; i < count; i++) {
    lane *l = &lanes[hops[i].letter];
    l->hops[l->count++] = i;
  }
  return lanes;
}

static void lanes_free(lane *lanes, int letters) {
  if (!lanes) return;
  for (int k = 0; k < letters; k++) free(lanes[k].hops);
  free(lanes);
}

static int run_dataflow(run *r, int lookahead, int inflight, char *why, size_t whylen) {
  const te_program *p = r->p;
  int L = p->letters;
  if (lookahead < 1 || inflight < 1) return fail(why, whylen, "dataflow: lookahead and in-flight must be >= 1");
  if (lookahead + inflight > r->tag_ub) return fail(why, whylen, "dataflow: lookahead + in-flight exceed MPI's tags");
  lane *out = lanes_of(p->sends, p->nsends, L), *in = lanes_of(p->recvs, p->nrecvs, L);
  int window = lookahead + inflight; /* receives posted ahead on each incoming link */
  int out_slots = inflight * L, slots = out_slots + window * L;
  MPI_Request *requests = malloc(sizeof(MPI_Request) * ((size_t)slots + 1));
  int *slot_hop = malloc(sizeof(int) * ((size_t)slots + 1));
  int *indices = malloc(sizeof(int) * ((size_t)slots + 1));
  char *arrived = calloc((size_t)p->nrecvs + 1, 1), *sent = calloc((size_t)p->nsends + 1, 1);
  int *position = malloc(sizeof(int) * ((size_t)p->nsends + 1)); /* a send's place in its lane */
  int status = 0;
  if (!out || !in || !requests || !slot_hop || !indices || !arrived || !sent || !position) {
    status = fail(why, whylen, "out of memory in the dataflow executor");
    goto done;
  }
  for (int i = 0; i < slots; i++) requests[i] = MPI_REQUEST_NULL;
  for (int k = 0; k < L; k++)
    for (int j = 0; j < out[k].count; j++) position[out[k].hops[j]] = j;
  int active = 0;
#define POST_RECEIVES(k)                                                                                   \
  do {                                                                                                     \
    lane *l_ = &in[(k)];                                                                                   \
    while (l_->posted < l_->count && l_->posted < l_->first + window) {                                    \
      int v_ = l_->hops[l_->posted];                                                                       \
      int at_ = out_slots + (k) * window;                                                                  \
      while (requests[at_] != MPI_REQUEST_NULL) at_++;                                                     \
      unsigned char *into_ = landing(r, v_);                                                               \
      if (!into_) {                                                                                        \
        status = fail(why, whylen, "out of memory for a block in transit");                                \
        goto done;                                                                                         \
      }                                                                                                    \
      MPI_Irecv(into_, (int)r->bytes, MPI_BYTE, p->recvs[v_].neighbour, l_->posted % r->tag_ub, r->comm,   \
                &requests[at_]);                                                                           \
      slot_hop[at_] = v_;                                                                                  \
      l_->posted++;                                                                                        \
      active++;                                                                                            \
    }                                                                                                      \
  } while (0)
#define TRY_SEND(k)                                                                                        \
  do {                                                                                                     \
    lane *l_ = &out[(k)];                                                                                  \
    while (l_->first < l_->count && sent[l_->hops[l_->first]]) l_->first++;                                \
    for (int j_ = l_->first; l_->busy < inflight && j_ < l_->count && j_ < l_->first + lookahead; j_++) {   \
      int s_ = l_->hops[j_];                                                                               \
      if (sent[s_] || (r->source[s_] >= 0 && !arrived[r->source[s_]])) continue;                           \
      int at_ = (k) * inflight;                                                                            \
      while (requests[at_] != MPI_REQUEST_NULL) at_++;                                                     \
      sent[s_] = 1;                                                                                        \
      l_->busy++;                                                                                          \
      if (r->stats->sent_at) r->stats->sent_at[s_] = MPI_Wtime();                                          \
      MPI_Isend((void *)payload(r, s_), (int)r->bytes, MPI_BYTE, p->sends[s_].neighbour,                   \
                position[s_] % r->tag_ub, r->comm, &requests[at_]);                                        \
      r->stats->messages++;                                                                                \
      slot_hop[at_] = s_;                                                                                  \
      active++;                                                                                            \
    }                                                                                                      \
  } while (0)
  for (int k = 0; k < L; k++) POST_RECEIVES(k);
  for (int k = 0; k < L; k++) TRY_SEND(k);
  while (active > 0) { /* MPI_Waitany, not Waitsome: SMPI's Waitsome tests every request, each test a simulated pause */
    int at;
    MPI_Waitany(slots, requests, &at, MPI_STATUS_IGNORE);
    if (at == MPI_UNDEFINED) break;
    {
      active--;
      if (at < out_slots) {
        int k = at / inflight, s = slot_hop[at];
        out[k].busy--;
        forwarded(r, s);
        TRY_SEND(k);
      } else {
        int k = (at - out_slots) / window, v = slot_hop[at];
        arrived[v] = 1;
        if (r->stats->arrived_at) r->stats->arrived_at[v] = MPI_Wtime();
        while (in[k].first < in[k].count && arrived[in[k].hops[in[k].first]]) in[k].first++;
        POST_RECEIVES(k);
        if (r->forward[v] >= 0) TRY_SEND(p->sends[r->forward[v]].letter);
      }
    }
  }
#undef TRY_SEND
#undef POST_RECEIVES
  for (int k = 0; k < L; k++)
    if (out[k].first < out[k].count && !sent[out[k].hops[out[k].first]]) {
      status = fail(why, whylen, "dataflow: a hop was never sent (a broken program?)");
      break;
    }
done:
  lanes_free(out, L);
  lanes_free(in, L);
  free(requests);
  free(slot_hop);
  free(indices);
  free(arrived);
  free(sent);
  free(position);
  return status;
}

/* ------------------------------------------------------------------ combined: one message per link per step */

size_t te_largest_bundle(const te_program *p); /* blocks (te_driver.c sizes SMPI's shared buffer with it) */

size_t te_largest_bundle(const te_program *p) {
  size_t largest = 1;
  int *count = calloc((size_t)p->letters + 1, sizeof(int));
  if (!count) return (size_t)p->nsends + p->nrecvs + 1;
  for (int side = 0; side < 2; side++) {
    const te_hop *hops = side ? p->recvs : p->sends;
    int n = side ? p->nrecvs : p->nsends;
    for (int lo = 0, hi = 0; lo < n; lo = hi) {
      memset(count, 0, sizeof(int) * ((size_t)p->letters + 1));
      for (hi = lo; hi < n && hops[hi].step == hops[lo].step; hi++)
        if ((size_t)++count[hops[hi].letter] > largest) largest = (size_t)count[hops[hi].letter];
    }
  }
  free(count);
  return largest;
}

static int run_combined(run *r, size_t piece_bytes, char *why, size_t whylen) {
  const te_program *p = r->p;
  int L = p->letters;
  size_t largest = te_largest_bundle(p) * r->bytes;
  if (piece_bytes == 0 || piece_bytes > largest) piece_bytes = largest;
  if (!count_fits(piece_bytes)) piece_bytes = TE_MESSAGE_LIMIT; /* a bundle above one message goes in pieces */
  size_t pieces_most = (largest + piece_bytes - 1) / piece_bytes;
  int *out_count = calloc((size_t)L, sizeof(int)), *in_count = calloc((size_t)L, sizeof(int));
  unsigned char *out_stage = NULL, *in_stage = NULL;
  if (!r->blocks.shared) {
    out_stage = malloc(largest * (size_t)L);
    in_stage = malloc(largest * (size_t)L);
  }
  MPI_Request *requests = malloc(sizeof(MPI_Request) * (2 * (size_t)L * pieces_most + 1));
  int status = 0;
  if (!out_count || !in_count || !requests || (!r->blocks.shared && (!out_stage || !in_stage))) {
    status = fail(why, whylen, "out of memory in the combined executor");
    goto done;
  }
  int s = 0, v = 0;
  while (s < p->nsends || v < p->nrecvs) {
    int step = INT_MAX;
    if (s < p->nsends) step = p->sends[s].step;
    if (v < p->nrecvs && p->recvs[v].step < step) step = p->recvs[v].step;
    int tag = step % r->tag_ub, count = 0, first_send = s, first_recv = v;
    memset(out_count, 0, sizeof(int) * (size_t)L);
    memset(in_count, 0, sizeof(int) * (size_t)L);
    for (; v < p->nrecvs && p->recvs[v].step == step; v++) in_count[p->recvs[v].letter]++;
    for (; s < p->nsends && p->sends[s].step == step; s++) out_count[p->sends[s].letter]++;
    size_t staged = 0;
    for (int k = 0; k < L; k++) staged += ((size_t)in_count[k] + out_count[k]) * r->bytes;
    r->blocks.staged = staged;
    for (int k = 0; k < L; k++) /* receives first */
      for (size_t off = 0, total = (size_t)in_count[k] * r->bytes; off < total; off += piece_bytes) {
        size_t n = total - off < piece_bytes ? total - off : piece_bytes;
        void *into = r->blocks.shared ? (void *)r->blocks.shared : (void *)(in_stage + (size_t)k * largest + off);
        MPI_Irecv(into, (int)n, MPI_BYTE, p->from[k], tag, r->comm, &requests[count++]);
      }
    memset(out_count, 0, sizeof(int) * (size_t)L); /* pack in schedule order; a forwarded block is free once packed */
    double now = MPI_Wtime();
    for (int i = first_send; i < s; i++) {
      int k = p->sends[i].letter;
      if (!r->blocks.shared)
        memcpy(out_stage + (size_t)k * largest + (size_t)out_count[k] * r->bytes, payload(r, i), r->bytes);
      out_count[k]++;
      if (r->stats->sent_at) r->stats->sent_at[i] = now;
    }
    meter(&r->blocks);
    for (int i = first_send; i < s; i++) forwarded(r, i);
    for (int k = 0; k < L; k++)
      for (size_t off = 0, total = (size_t)out_count[k] * r->bytes; off < total; off += piece_bytes) {
        size_t n = total - off < piece_bytes ? total - off : piece_bytes;
        void *from = r->blocks.shared ? (void *)r->blocks.shared : (void *)(out_stage + (size_t)k * largest + off);
        MPI_Isend(from, (int)n, MPI_BYTE, p->neighbours[k], tag, r->comm, &requests[count++]);
        r->stats->messages++;
      }
    MPI_Waitall(count, requests, MPI_STATUSES_IGNORE);
    now = MPI_Wtime();
    memset(in_count, 0, sizeof(int) * (size_t)L);
    for (int i = first_recv; i < v; i++) {
      int k = p->recvs[i].letter;
      unsigned char *into = landing(r, i);
      if (!into) {
        status = fail(why, whylen, "out of memory for a block in transit");
        goto done;
      }
      if (!r->blocks.shared) memcpy(into, in_stage + (size_t)k * largest + (size_t)in_count[k] * r->bytes, r->bytes);
      in_count[k]++;
      if (r->stats->arrived_at) r->stats->arrived_at[i] = now;
    }
    r->blocks.staged = 0;
  }
done:
  free(out_count);
  free(in_count);
  free(out_stage);
  free(in_stage);
  free(requests);
  return status;
}

/* ------------------------------------------------------------------ pipelined: the table's order, in pieces
 *
 * Every hop is cut into `split` pieces; a link's units are its hops' pieces in schedule order (unit j * pieces + q:
 * piece q of the link's j-th hop), and each outgoing link sends its units strictly in that order, a piece as soon as
 * it is here (its own block, or that piece of the block it forwards has arrived), with at most `inflight` pieces in
 * flight.  A piece goes by MPI_Issend: a synchronous send completes only once its piece has been received, so the
 * window paces the link (under SMPI a plain MPI_Isend below the eager threshold, 64 KiB, completes at once and
 * would let every piece of the link loose together; MPI_Ssend would block the rank's other links).
 *
 * Receives.  Each incoming link posts its units' receives in the link's order (a tag per unit), at most `inflight`
 * from its first one not yet received, and stops at a unit it may not post yet: a piece to forward takes a buffer,
 * and it may be posted only while its forward lies among the first `cap` units of its outgoing link that have not
 * completed (done: the link's units before it have all completed).  A piece's buffer is taken when its receive is
 * posted and given back when its forward has completed, so the pieces an outgoing link's forwards hold are among
 * `cap` consecutive units of that link; with cap = 2 x pieces that is two blocks (any 2P consecutive pieces of the
 * link: a hop's pieces from q on, one whole hop, the next hop's pieces before q), so a rank holds at most two
 * blocks per outgoing link, by construction.  The rank's own blocks leave from the send buffer and its blocks land
 * in the receive buffer: they hold nothing.
 *
 * No deadlock.  Order all units of all links by (step, cell, piece): a link sends in that order (its hops are
 * sorted by (step, cell)) and a piece is forwarded at a later step than it arrived.  Take the least unit u, over
 * every link, not yet received, on a link from x to y.  (1) x has its piece: its own block, or a piece that came
 * by a lesser unit, received.  (2) x sends it: every earlier unit of the link is lesser, received, so the window
 * is empty.  (3) y posts its receive: every earlier unit of the link is received, so u is the first the link lacks,
 * and if y forwards it as unit u' of its link n, the units of n before u' that have not completed are not less
 * than u: those of n's hops whose (step, cell) lies between u's hop and u''s (H of them, H <= 1 for a table: one
 * hop per link per step, forwarded the next step) and u''s own pieces before it, at most H x P + P - 1.  So with
 * cap = (H + 1) x P, taking the largest H of the link's forwards (pipelined_caps: 2P for a table), u' lies within
 * the cap and u is posted.  Both ends wait in MPI_Waitany, which returns at every completion and posts again.
 * So u is received; by induction on the order, every unit is. */

/* Pieces of alternating lengths, 9/8 and 7/8 of the mean (the last one takes what is left), where the mean is at
 * least STAGGER_FROM_BYTES: under SimGrid's fair sharing, pieces of one length started together on a link finish
 * together, so the next ones all start their latency at once and the link idles through it (a one-link measurement:
 * 64 pieces of 8 KiB, 4 in flight, CM02: 68.5 us against 52.4 us on the wire; alternating lengths: 54.3 us).
 * The lengths stay within SimGrid's SMPI factor band of 5776 to 9375 bytes for 8 KiB pieces. */
#define STAGGER_FROM_BYTES 64
static size_t piece_offset(size_t bytes, long pieces, long q, int staggered) {
  if (q >= pieces) return bytes;
  return (size_t)(((uint64_t)q * bytes * 8 + (uint64_t)(staggered && (q & 1)) * bytes) / ((uint64_t)pieces * 8));
}

typedef struct {
  int *hops;  /* send (out) or receive (in) indices on this link, in schedule order */
  long units; /* hops x pieces */
  long next;  /* out: next unit to send; in: first unit not received */
  long posted; /* in: receives posted up to this unit */
  long done;  /* out: first unit whose send has not completed */
  long cap;   /* out: its forwards' receives are posted only within `cap` units from `done` */
  int busy;   /* out: pieces in flight */
} piece_lane;

static int by_step_cell_of(const te_hop *a, int32_t step, int32_t cell) { /* a's (step, cell) against (step, cell) */
  if (a->step != step) return a->step < step ? -1 : 1;
  return a->cell < cell ? -1 : (a->cell > cell);
}

/* Each outgoing link's cap (the deadlock argument above): (H + 1) x pieces, H the most of the link's hops whose
 * (step, cell) lies from a forwarded receive's to its forward's, at least 2 x pieces (two blocks). */
static void pipelined_caps(const run *r, piece_lane *out, const int *send_pos, long pieces) {
  const te_program *p = r->p;
  for (int k = 0; k < p->letters; k++) out[k].cap = 2 * pieces;
  for (int v = 0; v < p->nrecvs; v++) {
    int s = r->forward[v];
    if (s < 0) continue;
    piece_lane *n = &out[p->sends[s].letter];
    int lo = 0, hi = send_pos[s]; /* the first of n's hops not before the receive's (step, cell) */
    while (lo < hi) {
      int mid = lo + (hi - lo) / 2;
      if (by_step_cell_of(&p->sends[n->hops[mid]], p->recvs[v].step, p->recvs[v].cell) < 0) lo = mid + 1;
      else hi = mid;
    }
    long cap = ((long)(send_pos[s] - lo) + 1) * pieces;
    if (cap > n->cap) n->cap = cap;
  }
}

static int run_pipelined(run *r, int split, int inflight, char *why, size_t whylen) {
  const te_program *p = r->p;
  int L = p->letters;
  if (split < 1 || inflight < 1) return fail(why, whylen, "pipelined: pieces per hop and in-flight must be >= 1");
  if (inflight > r->tag_ub / 2) return fail(why, whylen, "pipelined: in-flight exceeds MPI's tags");
  long pieces = (size_t)split < r->bytes ? split : (long)r->bytes; /* more pieces than bytes: one byte each */
  int staggered = r->bytes / (size_t)pieces >= STAGGER_FROM_BYTES;
  size_t piece = 0; /* the longest piece: every transit buffer holds one */
  for (long q = 0; q < pieces; q++) {
    size_t length = piece_offset(r->bytes, pieces, q + 1, staggered) - piece_offset(r->bytes, pieces, q, staggered);
    if (length > piece) piece = length;
  }
  /* pieces, not blocks, are what a rank holds: the pool's slots are pieces */
  pool_free(&r->blocks);
  long most = ((long)p->nrecvs + 1) * pieces;
  if (most > INT_MAX / 2 || pool_init(&r->blocks, piece, r->blocks.shared, (int)most) != 0)
    return fail(why, whylen, "out of memory in the pipelined executor");
  piece_lane *out = calloc((size_t)L, sizeof(piece_lane)), *in = calloc((size_t)L, sizeof(piece_lane));
  int slots = 2 * inflight * L;
  MPI_Request *requests = malloc(sizeof(MPI_Request) * ((size_t)slots + 1));
  long *slot_unit = malloc(sizeof(long) * ((size_t)slots + 1));
  char *arrived = calloc((size_t)most, 1);
  int *piece_slot = malloc(sizeof(int) * (size_t)most); /* per (receive, piece): its transit buffer, -1 when none */
  int *received = calloc((size_t)p->nrecvs + 1, sizeof(int)); /* per receive: pieces arrived */
  int *send_pos = malloc(sizeof(int) * ((size_t)p->nsends + 1)); /* per send: its place on its link */
  char *sent_done = calloc((size_t)p->nsends * (size_t)pieces + 1, 1); /* per (send, piece): completed */
  int status = 0, active = 0;
  size_t held = 0, held_peak = 0; /* bytes of the pieces held (the pool's slots are as long as the longest piece) */
  if (!out || !in || !requests || !slot_unit || !arrived || !piece_slot || !received || !send_pos || !sent_done) {
    status = fail(why, whylen, "out of memory in the pipelined executor");
    goto done;
  }
  for (int side = 0; side < 2; side++) {
    const te_hop *hops = side ? p->recvs : p->sends;
    int n = side ? p->nrecvs : p->nsends;
    piece_lane *lanes = side ? in : out;
    int *count = calloc((size_t)L, sizeof(int));
    if (!count) {
      status = fail(why, whylen, "out of memory in the pipelined executor");
      goto done;
    }
    for (int i = 0; i < n; i++) count[hops[i].letter]++;
    for (int k = 0; k < L; k++) {
      lanes[k].hops = malloc(sizeof(int) * ((size_t)count[k] + 1));
      if (!lanes[k].hops) status = -1;
      lanes[k].units = (long)count[k] * pieces;
      count[k] = 0;
    }
    if (status == 0)
      for (int i = 0; i < n; i++) lanes[hops[i].letter].hops[count[hops[i].letter]++] = i;
    free(count);
    if (status != 0) {
      status = fail(why, whylen, "out of memory in the pipelined executor");
      goto done;
    }
  }
  for (int k = 0; k < L; k++)
    for (long j = 0; j < out[k].units / pieces; j++) send_pos[out[k].hops[j]] = (int)j;
  pipelined_caps(r, out, send_pos, pieces);
  for (int i = 0; i < slots; i++) requests[i] = MPI_REQUEST_NULL;
  for (long i = 0; i < most; i++) piece_slot[i] = -1;
#define PIECE_AT(q) piece_offset(r->bytes, pieces, (q), staggered)
#define PIECE_LENGTH(q) ((int)(PIECE_AT((q) + 1) - PIECE_AT(q)))
#define POST_PIECES(k)                                                                                     \
  do {                                                                                                     \
    piece_lane *l_ = &in[(k)];                                                                             \
    while (l_->posted < l_->units && l_->posted < l_->next + inflight) {                                   \
      long u_ = l_->posted;                                                                                \
      int v_ = l_->hops[u_ / pieces];                                                                      \
      long q_ = u_ % pieces;                                                                               \
      const te_hop *h_ = &p->recvs[v_];                                                                    \
      int f_ = r->forward[v_];                                                                             \
      if (f_ >= 0) { /* a piece to forward: only within its outgoing link's cap (see above) */            \
        const piece_lane *n_ = &out[p->sends[f_].letter];                                                  \
        if ((long)send_pos[f_] * pieces + q_ >= n_->done + n_->cap) break;                                 \
      }                                                                                                    \
      unsigned char *into_;                                                                                \
      if (h_->destination == p->rank) {                                                                    \
        into_ = r->blocks.shared ? r->blocks.shared : r->recvbuf + (size_t)h_->origin * r->bytes + PIECE_AT(q_); \
      } else {                                                                                             \
        int got_ = pool_get(&r->blocks);                                                                   \
        if (got_ < 0) {                                                                                    \
          status = fail(why, whylen, "out of memory for a piece in transit");                              \
          goto done;                                                                                       \
        }                                                                                                  \
        piece_slot[(long)v_ * pieces + q_] = got_;                                                         \
        held += (size_t)PIECE_LENGTH(q_);                                                                  \
        if (held > held_peak) held_peak = held;                                                            \
        into_ = pool_at(&r->blocks, got_);                                                                 \
      }                                                                                                    \
      int at_ = inflight * L + (k) * inflight;                                                             \
      while (requests[at_] != MPI_REQUEST_NULL) at_++;                                                     \
      MPI_Irecv(into_, PIECE_LENGTH(q_), MPI_BYTE, h_->neighbour, (int)(u_ % r->tag_ub), r->comm,          \
                &requests[at_]);                                                                           \
      slot_unit[at_] = u_;                                                                                 \
      l_->posted++;                                                                                        \
      active++;                                                                                            \
    }                                                                                                      \
  } while (0)
#define SEND_PIECES(k)                                                                                     \
  do {                                                                                                     \
    piece_lane *l_ = &out[(k)];                                                                            \
    while (l_->busy < inflight && l_->next < l_->units) {                                                  \
      long u_ = l_->next;                                                                                  \
      int s_ = l_->hops[u_ / pieces];                                                                      \
      long q_ = u_ % pieces;                                                                               \
      int v_ = r->source[s_];                                                                              \
      const unsigned char *from_;                                                                          \
      if (v_ < 0) {                                                                                        \
        from_ = r->blocks.shared ? r->blocks.shared                                                        \
                                 : r->sendbuf + (size_t)p->sends[s_].destination * r->bytes + PIECE_AT(q_); \
      } else {                                                                                             \
        if (!arrived[(long)v_ * pieces + q_]) break; /* strict order: the link waits for this piece */     \
        from_ = pool_at(&r->blocks, piece_slot[(long)v_ * pieces + q_]);                                   \
      }                                                                                                    \
      int at_ = (k) * inflight;                                                                            \
      while (requests[at_] != MPI_REQUEST_NULL) at_++;                                                     \
      if (q_ == 0 && r->stats->sent_at) r->stats->sent_at[s_] = MPI_Wtime();                              \
      MPI_Issend((void *)from_, PIECE_LENGTH(q_), MPI_BYTE, p->sends[s_].neighbour, (int)(u_ % r->tag_ub), \
                 r->comm, &requests[at_]);                                                                 \
      r->stats->messages++;                                                                                \
      slot_unit[at_] = u_;                                                                                 \
      l_->next++;                                                                                          \
      l_->busy++;                                                                                          \
      active++;                                                                                            \
    }                                                                                                      \
  } while (0)
  for (int k = 0; k < L; k++) POST_PIECES(k);
  for (int k = 0; k < L; k++) SEND_PIECES(k);
  while (active > 0) {
    int at;
    MPI_Waitany(slots, requests, &at, MPI_STATUS_IGNORE);
    if (at == MPI_UNDEFINED) break;
    active--;
    long u = slot_unit[at];
    if (at < inflight * L) { /* a piece has crossed: the buffer it was sent from is free */
      int k = at / inflight, s = out[k].hops[u / pieces], v = r->source[s];
      long q = u % pieces;
      out[k].busy--;
      sent_done[(long)s * pieces + q] = 1;
      long was_done = out[k].done;
      while (out[k].done < out[k].units &&
             sent_done[(long)out[k].hops[out[k].done / pieces] * pieces + out[k].done % pieces])
        out[k].done++;
      if (v >= 0 && piece_slot[(long)v * pieces + q] >= 0) {
        pool_put(&r->blocks, piece_slot[(long)v * pieces + q]);
        piece_slot[(long)v * pieces + q] = -1;
        held -= (size_t)PIECE_LENGTH(q);
      }
      SEND_PIECES(k);
      if (out[k].done > was_done) /* the link's cap moved on: receives waiting for it may be posted */
        for (int m = 0; m < L; m++) POST_PIECES(m);
    } else {
      int k = (at - inflight * L) / inflight, v = in[k].hops[u / pieces];
      arrived[(long)v * pieces + u % pieces] = 1;
      if (++received[v] == pieces && r->stats->arrived_at) r->stats->arrived_at[v] = MPI_Wtime();
      while (in[k].next < in[k].units && arrived[(long)in[k].hops[in[k].next / pieces] * pieces + in[k].next % pieces])
        in[k].next++;
      POST_PIECES(k);
      if (r->forward[v] >= 0) SEND_PIECES(p->sends[r->forward[v]].letter);
    }
  }
#undef SEND_PIECES
#undef POST_PIECES
#undef PIECE_LENGTH
#undef PIECE_AT
  for (int k = 0; k < L; k++)
    if (out[k].next < out[k].units || in[k].next < in[k].units) {
      status = fail(why, whylen, "pipelined: a piece was never sent or never arrived (a broken program?)");
      break;
    }
  r->blocks.peak_bytes = held_peak;
done:
  if (out)
    for (int k = 0; k < L; k++) free(out[k].hops);
  if (in)
    for (int k = 0; k < L; k++) free(in[k].hops);
  free(out);
  free(in);
  free(requests);
  free(slot_unit);
  free(arrived);
  free(piece_slot);
  free(received);
  free(send_pos);
  free(sent_done);
  return status;
}

/* ------------------------------------------------------------------ the entry point */

int te_run(const te_program *p, const te_executor *e, const void *sendbuf, void *recvbuf, size_t bytes,
           MPI_Comm comm, void *shared, te_stats *stats, char *why, size_t whylen) {
  if (bytes < 1 || !count_fits(bytes)) return fail(why, whylen, "a block must be 1 to TE_MESSAGE_LIMIT bytes");
  run r;
  stats->messages = 0;
  if (setup(&r, p, sendbuf, recvbuf, bytes, comm, (unsigned char *)shared, stats, why, whylen) != 0) {
    teardown(&r);
    return -1;
  }
  stats->start = MPI_Wtime();
  int status;
  switch (e->kind) {
  case TE_STEP:
    status = run_step(&r, why, whylen);
    break;
  case TE_DATAFLOW:
    status = run_dataflow(&r, e->lookahead, e->inflight, why, whylen);
    break;
  case TE_COMBINED:
    status = run_combined(&r, e->piece_bytes, why, whylen);
    break;
  case TE_PIPELINED:
    status = run_pipelined(&r, e->split, e->inflight, why, whylen);
    break;
  default:
    status = fail(why, whylen, "an executor te.h does not know");
  }
  stats->end = MPI_Wtime();
  stats->peak_held_bytes = r.blocks.peak_bytes;
  stats->peak_held_blocks = r.blocks.peak_blocks;
  if (e->kind == TE_PIPELINED) /* pieces held, in blocks (rounded up) */
    stats->peak_held_blocks = (long)((r.blocks.peak_bytes + bytes - 1) / bytes);
  teardown(&r);
  return status;
}
