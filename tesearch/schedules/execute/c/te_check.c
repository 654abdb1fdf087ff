/* te_check.c: a program run in lockstep frames, so that whatever is wrong with it is named, never hangs (te.h).
 *
 * At every step every rank sends one frame to every network neighbour (the hops of that link at that step, each
 * with its origin and destination and its block; possibly none) and receives one from each, then compares what
 * arrived with what its program expects.  A frame holds at most `cap` hops, the same at every rank and fixed in
 * advance (twice the most hops a link takes in one step, one for a table, plus twice the letters: room for a late
 * or misrouted hop), so every frame lands in a receive posted at the start of its step (no MPI_Probe, which SMPI
 * implements by polling).  A program that puts more on one link in one step is a LINK_OVERLOADED fault.
 */
#include "te.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t te_largest_bundle(const te_program *p);

typedef struct {
  int64_t *keys;
  int *values;
  int size;
} slotmap;

static int64_t key_of(int origin, int destination) { return ((int64_t)origin << 32) | (uint32_t)destination; }

static int slotmap_init(slotmap *m, int capacity) {
  m->size = 16;
  while (m->size < 2 * capacity + 2) m->size *= 2;
  m->keys = malloc(sizeof(int64_t) * (size_t)m->size);
  m->values = malloc(sizeof(int) * (size_t)m->size);
  if (!m->keys || !m->values) return -1;
  for (int i = 0; i < m->size; i++) m->keys[i] = -1;
  return 0;
}

static int slotmap_slot(const slotmap *m, int64_t key) {
  uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ull;
  int i = (int)(h >> 40) & (m->size - 1);
  while (m->keys[i] != -1 && m->keys[i] != key) i = (i + 1) & (m->size - 1);
  return i;
}

static int slotmap_get(const slotmap *m, int origin, int destination) {
  int i = slotmap_slot(m, key_of(origin, destination));
  return m->keys[i] == -1 ? -1 : m->values[i];
}

static void slotmap_put(slotmap *m, int origin, int destination, int value) {
  int i = slotmap_slot(m, key_of(origin, destination));
  m->keys[i] = key_of(origin, destination);
  m->values[i] = value;
}

static void note(te_faults *found, te_fault_kind kind, int rank, int step, int origin, int destination,
                 const char *detail) {
  if (found->count < found->capacity) {
    te_fault *f = &found->faults[found->count];
    f->kind = kind;
    f->rank = rank;
    f->step = step;
    f->origin = origin;
    f->destination = destination;
    snprintf(f->detail, sizeof f->detail, "%s", detail);
  }
  found->count++;
}

typedef struct {
  int origin, destination, sender, step;
} arrival;

#define NEED(pointer)                                                                                      \
  do {                                                                                                     \
    if (!(pointer)) {                                                                                      \
      status = -1;                                                                                         \
      goto done;                                                                                           \
    }                                                                                                      \
  } while (0)

int te_check(const te_program *p, size_t bytes, MPI_Comm comm, te_faults *found, double *start, double *end) {
  int me = p->rank, status = 0;
  char detail[400];
  /* the same cap at every rank (frames are received into buffers of that size): a table's program takes one hop per
   * letter per step, a superstep schedule's at most its largest bundle (the same at every node) */
  int bundle = 1;
  if (p->kind != TE_KIND_TABLE) {
    int mine = (int)te_largest_bundle(p);
    MPI_Allreduce(&mine, &bundle, 1, MPI_INT, MPI_MAX, comm);
  }
  int nlinks = 0, cap = 2 * bundle + 2 * p->letters + 2;
  size_t item = 2 * sizeof(int) + bytes, frame_bytes = sizeof(int) + item * (size_t)cap;
  int hold_cap = p->nrecvs + 1, hold_next = 0, narrived_before = 0, narrived_now = 0;
  int nunexpected = 0, unexpected_cap = p->nrecvs + 64, nmissing = 0;
  int *links = NULL, *frame_count = NULL, *arrived_before = NULL, *arrived_now = NULL, *hold_step = NULL;
  unsigned char **frames = NULL, **inboxes = NULL, *hold = NULL, *own = NULL;
  char *hold_used = NULL, *hold_reported = NULL, *delivered = NULL, *matched = NULL;
  arrival *unexpected = NULL, *missing = NULL;
  MPI_Request *requests = NULL;
  slotmap held = {0};
  NEED(links = malloc(sizeof(int) * ((size_t)p->letters + 1)));
  for (int i = 0; i < p->letters; i++) { /* distinct neighbours */
    int k = 0;
    while (k < nlinks && links[k] != p->neighbours[i]) k++;
    if (k == nlinks && p->neighbours[i] != me) links[nlinks++] = p->neighbours[i];
  }
  NEED(frames = calloc((size_t)nlinks + 1, sizeof(unsigned char *)));
  NEED(inboxes = calloc((size_t)nlinks + 1, sizeof(unsigned char *)));
  NEED(frame_count = calloc((size_t)nlinks + 1, sizeof(int)));
  for (int k = 0; k < nlinks; k++) {
    NEED(frames[k] = malloc(frame_bytes));
    NEED(inboxes[k] = malloc(frame_bytes));
  }
  NEED(arrived_before = malloc(sizeof(int) * ((size_t)nlinks * cap + 1)));
  NEED(arrived_now = malloc(sizeof(int) * ((size_t)nlinks * cap + 1)));
  if (slotmap_init(&held, hold_cap * 2) != 0) NEED(NULL);
  NEED(hold = malloc(bytes * (size_t)hold_cap));
  NEED(hold_step = malloc(sizeof(int) * (size_t)hold_cap));
  NEED(hold_used = calloc((size_t)hold_cap, 1));
  NEED(hold_reported = calloc((size_t)hold_cap, 1));
  NEED(delivered = calloc((size_t)p->ranks, 1));
  NEED(unexpected = malloc(sizeof(arrival) * (size_t)unexpected_cap));
  NEED(missing = malloc(sizeof(arrival) * ((size_t)p->nrecvs + 1)));
  NEED(matched = calloc((size_t)p->nrecvs + 1, 1));
  NEED(own = malloc(bytes));
  NEED(requests = malloc(sizeof(MPI_Request) * (2 * (size_t)nlinks + 1)));
  MPI_Request *receiving = requests + nlinks;
  int s = 0, v = 0;
  MPI_Barrier(comm);
  *start = MPI_Wtime();
  for (int step = 0; step < p->steps; step++) {
    for (int k = 0; k < nlinks; k++) {
      frame_count[k] = 0;
      MPI_Irecv(inboxes[k], (int)frame_bytes, MPI_BYTE, links[k], step % 32767, comm, &receiving[k]);
    }
    for (; s < p->nsends && p->sends[s].step == step; s++) {
      const te_hop *h = &p->sends[s];
      int k = 0;
      while (k < nlinks && links[k] != h->neighbour) k++;
      if (k == nlinks) {
        snprintf(detail, sizeof detail, "rank %d's program sends message %d->%d at step %d to rank %d, which is not "
                 "a network neighbour", me, h->origin, h->destination, step, h->neighbour);
        note(found, TE_FAULT_NOT_A_NEIGHBOUR, me, step, h->origin, h->destination, detail);
        continue;
      }
      if (frame_count[k] == cap) {
        snprintf(detail, sizeof detail, "rank %d's program sends more than %d hops to rank %d at step %d (message "
                 "%d->%d is one too many)", me, cap, h->neighbour, step, h->origin, h->destination);
        note(found, TE_FAULT_LINK_OVERLOADED, me, step, h->origin, h->destination, detail);
        continue;
      }
      const unsigned char *payload;
      if (h->origin == me) {
        te_fill(own, me, h->destination, bytes);
        payload = own;
      } else {
        int slot = slotmap_get(&held, h->origin, h->destination);
        if (slot < 0 || !hold_used[slot]) {
          snprintf(detail, sizeof detail, "rank %d's program forwards message %d->%d at step %d, but rank %d does not "
                   "hold it", me, h->origin, h->destination, step, me);
          note(found, TE_FAULT_NOT_HELD, me, step, h->origin, h->destination, detail);
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
    /* a table's program forwards every block the step after it arrives (buffer-free); a superstep schedule's
     * blocks may wait, and one never forwarded is named after the last step */
    for (int a = 0; p->kind == TE_KIND_TABLE && a < narrived_before; a++) {
      int slot = arrived_before[a];
      if (hold_used[slot] && hold_step[slot] < step && !hold_reported[slot]) {
        hold_reported[slot] = 1;
        int o = -1, d = -1;
        for (int i = 0; i < held.size; i++)
          if (held.keys[i] != -1 && held.values[i] == slot) {
            o = (int)(held.keys[i] >> 32);
            d = (int)(uint32_t)held.keys[i];
          }
        snprintf(detail, sizeof detail, "rank %d holds message %d->%d past step %d (it arrived at step %d and was not "
                 "sent on at step %d)", me, o, d, step, hold_step[slot], hold_step[slot] + 1);
        note(found, TE_FAULT_HELD_TOO_LONG, me, step, o, d, detail);
      }
    }
    for (int k = 0; k < nlinks; k++) {
      memcpy(frames[k], &frame_count[k], sizeof(int));
      MPI_Isend(frames[k], (int)(sizeof(int) + item * (size_t)frame_count[k]), MPI_BYTE, links[k], step % 32767, comm,
                &requests[k]);
    }
    int first = v;
    for (; v < p->nrecvs && p->recvs[v].step == step; v++) matched[v] = 0;
    MPI_Waitall(nlinks, receiving, MPI_STATUSES_IGNORE);
    narrived_now = 0;
    for (int k = 0; k < nlinks; k++) {
      const unsigned char *inbox = inboxes[k];
      int count;
      memcpy(&count, inbox, sizeof(int));
      if (count < 0 || count > cap) count = 0; /* a neighbour's frame is always within cap: it checks before it sends */
      for (int i = 0; i < count; i++) {
        const unsigned char *at = inbox + sizeof(int) + item * (size_t)i;
        int pair[2];
        memcpy(pair, at, sizeof pair);
        int o = pair[0], d = pair[1], seen = 0;
        for (int j = first; j < v; j++)
          if (!matched[j] && p->recvs[j].origin == o && p->recvs[j].destination == d &&
              p->recvs[j].neighbour == links[k]) {
            matched[j] = 1;
            seen = 1;
            break;
          }
        if (!seen) {
          if (nunexpected == unexpected_cap) {
            unexpected_cap *= 2;
            arrival *grown = realloc(unexpected, sizeof(arrival) * (size_t)unexpected_cap);
            NEED(grown);
            unexpected = grown;
          }
          unexpected[nunexpected++] = (arrival){o, d, links[k], step};
        }
        if (d == me) {
          if (o >= 0 && o < p->ranks && delivered[o]) {
            snprintf(detail, sizeof detail, "message %d->%d reached rank %d a second time at step %d (from rank %d)",
                     o, d, me, step, links[k]);
            note(found, TE_FAULT_DUPLICATE, links[k], step, o, d, detail);
          }
          if (o >= 0 && o < p->ranks) delivered[o] = 1;
          long wrong = te_differs(at + sizeof pair, o, me, bytes);
          if (wrong >= 0) {
            snprintf(detail, sizeof detail, "rank %d's block from origin %d (arrived at step %d from rank %d) differs "
                     "from what its origin sent at byte %ld", me, o, step, links[k], wrong);
            note(found, TE_FAULT_BLOCK_DIFFERS, me, step, o, me, detail);
          }
        } else {
          int slot = slotmap_get(&held, o, d);
          if (slot < 0) {
            if (hold_next == hold_cap) { /* more in transit than the program receives: named as unexpected */
              continue;
            }
            slot = hold_next++;
            slotmap_put(&held, o, d, slot);
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
      if (!matched[j]) missing[nmissing++] = (arrival){p->recvs[j].origin, p->recvs[j].destination,
                                                       p->recvs[j].neighbour, step};
    MPI_Waitall(nlinks, requests, MPI_STATUSES_IGNORE);
    int *swap = arrived_before;
    arrived_before = arrived_now;
    arrived_now = swap;
    narrived_before = narrived_now;
  }
  *end = MPI_Wtime();
  for (int i = 0; i < held.size; i++) /* still held after the last step */
    if (held.keys[i] != -1 && hold_used[held.values[i]] && !hold_reported[held.values[i]]) {
      int o = (int)(held.keys[i] >> 32), d = (int)(uint32_t)held.keys[i];
      snprintf(detail, sizeof detail, "rank %d still holds message %d->%d after the last step (it arrived at step %d)",
               me, o, d, hold_step[held.values[i]]);
      note(found, TE_FAULT_HELD_TOO_LONG, me, p->steps, o, d, detail);
    }
  for (int i = 0; i < nunexpected; i++) { /* late, early, wrong neighbour */
    arrival *u = &unexpected[i];
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
      note(found, lateness > 0 ? TE_FAULT_LATE : TE_FAULT_EARLY, u->sender, u->step, u->origin, u->destination, detail);
      missing[due].sender = -1;
      continue;
    }
    char expected[120] = "";
    if (due >= 0)
      snprintf(expected, sizeof expected, " (rank %d expected it from rank %d at step %d)", me, missing[due].sender,
               missing[due].step);
    snprintf(detail, sizeof detail, "rank %d sent message %d->%d to the wrong neighbour at step %d: rank %d is not "
             "next on its path%s", u->sender, u->origin, u->destination, u->step, me, expected);
    note(found, TE_FAULT_WRONG_NEIGHBOUR, u->sender, u->step, u->origin, u->destination, detail);
  }
  for (int j = 0; j < nmissing; j++)
    if (missing[j].sender >= 0) {
      snprintf(detail, sizeof detail, "message %d->%d was dropped: rank %d expected it from rank %d at step %d and it "
               "never arrived", missing[j].origin, missing[j].destination, me, missing[j].sender, missing[j].step);
      note(found, TE_FAULT_DROPPED, missing[j].sender, missing[j].step, missing[j].origin, missing[j].destination,
           detail);
    }
  for (int o = 0; o < p->ranks; o++)
    if (o != me && !delivered[o]) {
      snprintf(detail, sizeof detail, "rank %d never received the block from origin %d", me, o);
      note(found, TE_FAULT_BLOCK_MISSING, me, p->steps, o, me, detail);
    }
done:
  for (int k = 0; k < nlinks && frames && inboxes; k++) {
    free(frames[k]);
    free(inboxes[k]);
  }
  free(frames);
  free(inboxes);
  free(frame_count);
  free(links);
  free(arrived_before);
  free(arrived_now);
  free(held.keys);
  free(held.values);
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
  return status;
}
