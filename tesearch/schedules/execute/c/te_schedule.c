/* te_schedule.c: reading a tesearch-hops v1 schedule and making each rank's program (te.h). */
#include "te.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct te_schedule {
  unsigned char *bytes; /* the whole file, owned */
  size_t length;
  uint32_t layout, kind, ranks, letters, steps, hops, points;
  char name[256];
  /* routes layout */
  const int32_t *inverse_letter, *generator, *element_of_rank, *cells;
  const uint32_t *elements;
  int32_t *rank_of_element;
  int32_t *table; /* open addressing: element hash -> element index */
  size_t table_size;
  /* programs layout */
  const int32_t *neighbours;
  const uint64_t *offsets;
};

static const char *fault_names[] = {
#define FAULT(name, words, meaning) #name,
#include "te_faults.def"
#undef FAULT
};

const char *te_fault_name(te_fault_kind kind) {
  return (kind >= 0 && kind < TE_FAULT_KINDS) ? fault_names[kind] : "UNKNOWN";
}

static int fail(char *why, size_t whylen, const char *what) {
  if (why && whylen) snprintf(why, whylen, "%s", what);
  return -1;
}

static uint64_t hash_images(const uint32_t *images, uint32_t points) {
  uint64_t h = 1469598103934665603ull;
  for (uint32_t i = 0; i < points; i++) {
    h ^= images[i];
    h *= 1099511628211ull;
  }
  return h ^ (h >> 29);
}

static int64_t find_element(const te_schedule *s, const uint32_t *images) {
  size_t mask = s->table_size - 1, at = (size_t)hash_images(images, s->points) & mask;
  while (s->table[at] >= 0) {
    const uint32_t *candidate = s->elements + (size_t)s->table[at] * s->points;
    if (memcmp(candidate, images, sizeof(uint32_t) * s->points) == 0) return s->table[at];
    at = (at + 1) & mask;
  }
  return -1;
}

/* bounds-checked cursor over the file */
typedef struct {
  const unsigned char *at, *end;
} cursor;

static const void *take(cursor *c, size_t bytes) {
  if ((size_t)(c->end - c->at) < bytes) return NULL;
  const void *here = c->at;
  c->at += bytes;
  return here;
}

static int parse(te_schedule *s, char *why, size_t whylen) {
  cursor c = {s->bytes, s->bytes + s->length};
  const unsigned char *magic = take(&c, 8);
  if (!magic || memcmp(magic, TE_HOPS_MAGIC, 8) != 0) return fail(why, whylen, "not a tesearch-hops file");
  const uint32_t *head = take(&c, 11 * sizeof(uint32_t));
  if (!head) return fail(why, whylen, "a tesearch-hops file cut short in its header");
  if (head[0] != TE_HOPS_VERSION) return fail(why, whylen, "a tesearch-hops file of another version");
  s->layout = head[1];
  s->kind = head[2];
  s->ranks = head[3];
  s->letters = head[4];
  s->steps = head[5];
  s->hops = head[6];
  s->points = head[7];
  uint32_t name_bytes = head[8];
  if ((s->layout != TE_LAYOUT_ROUTES && s->layout != TE_LAYOUT_PROGRAMS) ||
      (s->kind != TE_KIND_TABLE && s->kind != TE_KIND_SUPERSTEPS) || s->ranks < 1 || s->letters < 1 ||
      s->ranks > (1u << 28) || s->letters > 4096 || name_bytes > 4096)
    return fail(why, whylen, "a tesearch-hops header out of range");
  const char *name = take(&c, (name_bytes + 3u) & ~3u);
  if (!name) return fail(why, whylen, "a tesearch-hops file cut short in its name");
  size_t keep = name_bytes < sizeof s->name - 1 ? name_bytes : sizeof s->name - 1;
  memcpy(s->name, name, keep);
  s->name[keep] = 0;
  if (s->layout == TE_LAYOUT_ROUTES) {
    if (s->points < 1 || s->points > 65536) return fail(why, whylen, "a tesearch-hops file with bad points");
    s->inverse_letter = take(&c, sizeof(int32_t) * s->letters);
    s->generator = take(&c, sizeof(int32_t) * s->letters);
    s->element_of_rank = take(&c, sizeof(int32_t) * s->ranks);
    s->elements = take(&c, sizeof(uint32_t) * (size_t)s->ranks * s->points);
    s->cells = take(&c, sizeof(int32_t) * 6 * (size_t)s->hops);
    if (!s->inverse_letter || !s->generator || !s->element_of_rank || !s->elements || !s->cells)
      return fail(why, whylen, "a tesearch-hops file cut short in its routes");
    for (uint32_t k = 0; k < s->letters; k++)
      if (s->inverse_letter[k] < 0 || (uint32_t)s->inverse_letter[k] >= s->letters || s->generator[k] < 0 ||
          (uint32_t)s->generator[k] >= s->ranks)
        return fail(why, whylen, "a tesearch-hops file with a bad letter");
    for (uint32_t i = 0; i < (size_t)s->ranks * s->points; i++)
      if (s->elements[i] >= s->points) return fail(why, whylen, "a tesearch-hops element that is no permutation");
    s->rank_of_element = malloc(sizeof(int32_t) * s->ranks);
    s->table_size = 16;
    while (s->table_size < 2 * (size_t)s->ranks) s->table_size *= 2;
    s->table = malloc(sizeof(int32_t) * s->table_size);
    if (!s->rank_of_element || !s->table) return fail(why, whylen, "out of memory reading a schedule");
    for (uint32_t i = 0; i < s->ranks; i++) s->rank_of_element[i] = -1;
    for (size_t i = 0; i < s->table_size; i++) s->table[i] = -1;
    for (uint32_t r = 0; r < s->ranks; r++) {
      int32_t e = s->element_of_rank[r];
      if (e < 0 || (uint32_t)e >= s->ranks || s->rank_of_element[e] >= 0)
        return fail(why, whylen, "a tesearch-hops rank order that is no bijection");
      s->rank_of_element[e] = (int32_t)r;
    }
    for (uint32_t e = 0; e < s->ranks; e++) {
      const uint32_t *images = s->elements + (size_t)e * s->points;
      if (find_element(s, images) >= 0) return fail(why, whylen, "a tesearch-hops element listed twice");
      size_t mask = s->table_size - 1, at = (size_t)hash_images(images, s->points) & mask;
      while (s->table[at] >= 0) at = (at + 1) & mask;
      s->table[at] = (int32_t)e;
    }
    for (uint32_t h = 0; h < s->hops; h++) {
      const int32_t *cell = s->cells + 6 * (size_t)h;
      if (cell[0] < 0 || (uint32_t)cell[0] >= s->steps || cell[1] < 0 || (uint32_t)cell[1] >= s->letters)
        return fail(why, whylen, "a tesearch-hops cell outside the steps or letters");
      for (int k = 2; k < 6; k++)
        if (cell[k] < 0 || (uint32_t)cell[k] >= s->ranks) return fail(why, whylen, "a tesearch-hops cell element out of range");
    }
  } else {
    s->neighbours = take(&c, sizeof(int32_t) * (size_t)s->ranks * s->letters);
    s->offsets = take(&c, sizeof(uint64_t) * ((size_t)s->ranks + 1));
    if (!s->neighbours || !s->offsets) return fail(why, whylen, "a tesearch-hops file cut short in its programs");
    size_t base = (size_t)(c.at - s->bytes);
    for (uint32_t r = 0; r <= s->ranks; r++)
      if (s->offsets[r] < base || s->offsets[r] > s->length || (r > 0 && s->offsets[r] < s->offsets[r - 1]))
        return fail(why, whylen, "a tesearch-hops program offset out of range");
    for (size_t i = 0; i < (size_t)s->ranks * s->letters; i++)
      if (s->neighbours[i] < 0 || (uint32_t)s->neighbours[i] >= s->ranks)
        return fail(why, whylen, "a tesearch-hops neighbour out of range");
  }
  return 0;
}

int te_schedule_parse(const void *bytes, size_t length, te_schedule **out, char *why, size_t whylen) {
  te_schedule *s = calloc(1, sizeof *s);
  if (!s) return fail(why, whylen, "out of memory reading a schedule");
  s->bytes = malloc(length ? length : 1);
  if (!s->bytes) {
    free(s);
    return fail(why, whylen, "out of memory reading a schedule");
  }
  memcpy(s->bytes, bytes, length);
  s->length = length;
  if (parse(s, why, whylen) != 0) {
    te_schedule_free(s);
    return -1;
  }
  *out = s;
  return 0;
}

/* The last schedule read, kept for the other ranks of one process (SimGrid runs every rank in one process):
 * read-only once made; ranks run one at a time there, so no lock is needed. */
static te_schedule *cached;
static char cached_path[4096];

int te_schedule_read(const char *path, const te_schedule **out, char *why, size_t whylen) {
  if (cached && strcmp(cached_path, path) == 0) {
    *out = cached;
    return 0;
  }
  FILE *fh = fopen(path, "rb");
  if (!fh) {
    if (why && whylen) snprintf(why, whylen, "cannot open the schedule %s: %s", path, strerror(errno));
    return -1;
  }
  fseek(fh, 0, SEEK_END);
  long length = ftell(fh);
  fseek(fh, 0, SEEK_SET);
  unsigned char *bytes = malloc(length > 0 ? (size_t)length : 1);
  if (!bytes || length < 0 || fread(bytes, 1, (size_t)length, fh) != (size_t)length) {
    fclose(fh);
    free(bytes);
    return fail(why, whylen, "cannot read the schedule file");
  }
  fclose(fh);
  te_schedule *s;
  int status = te_schedule_parse(bytes, (size_t)length, &s, why, whylen);
  free(bytes);
  if (status != 0) return -1;
  if (cached) te_schedule_free(cached);
  cached = s;
  snprintf(cached_path, sizeof cached_path, "%s", path);
  *out = s;
  return 0;
}

void te_schedule_free(te_schedule *s) {
  if (!s) return;
  free(s->bytes);
  free(s->rank_of_element);
  free(s->table);
  free(s);
}

int te_schedule_ranks(const te_schedule *s) { return (int)s->ranks; }
int te_schedule_steps(const te_schedule *s) { return (int)s->steps; }
const char *te_schedule_name(const te_schedule *s) { return s->name; }

static int by_step_cell(const void *a, const void *b) {
  const te_hop *x = a, *y = b;
  if (x->step != y->step) return x->step < y->step ? -1 : 1;
  return x->cell < y->cell ? -1 : (x->cell > y->cell);
}

/* the rank of h*x (h, x element indices), memoised per rank in `memo` */
static int32_t times(const te_schedule *s, int32_t h, int32_t x, int32_t *memo, uint32_t *scratch) {
  if (memo[x] >= 0) return memo[x];
  const uint32_t *hi = s->elements + (size_t)h * s->points, *xi = s->elements + (size_t)x * s->points;
  for (uint32_t i = 0; i < s->points; i++) scratch[i] = xi[hi[i]]; /* (h*x)(i) = x(h(i)) */
  int64_t e = find_element(s, scratch);
  memo[x] = e < 0 ? -2 : s->rank_of_element[e];
  return memo[x];
}

int te_program_of(const te_schedule *s, int rank, te_program *out, char *why, size_t whylen) {
  memset(out, 0, sizeof *out);
  if (rank < 0 || (uint32_t)rank >= s->ranks) return fail(why, whylen, "a rank outside the schedule");
  out->rank = rank;
  out->ranks = (int)s->ranks;
  out->steps = (int)s->steps;
  out->letters = (int)s->letters;
  out->kind = (int)s->kind;
  out->neighbours = malloc(sizeof(int32_t) * s->letters);
  out->from = malloc(sizeof(int32_t) * s->letters);
  if (!out->neighbours || !out->from) goto oom;
  if (s->layout == TE_LAYOUT_ROUTES) {
    int32_t *memo = malloc(sizeof(int32_t) * s->ranks);
    uint32_t *scratch = malloc(sizeof(uint32_t) * s->points);
    out->sends = malloc(sizeof(te_hop) * (s->hops + 1));
    out->recvs = malloc(sizeof(te_hop) * (s->hops + 1));
    if (!memo || !scratch || !out->sends || !out->recvs) {
      free(memo);
      free(scratch);
      goto oom;
    }
    for (uint32_t i = 0; i < s->ranks; i++) memo[i] = -1;
    int32_t h = s->element_of_rank[rank];
    int bad = 0;
    for (uint32_t k = 0; k < s->letters; k++) {
      out->neighbours[k] = times(s, h, s->generator[k], memo, scratch);
      out->from[k] = times(s, h, s->generator[s->inverse_letter[k]], memo, scratch);
      bad |= out->neighbours[k] < 0 || out->from[k] < 0;
    }
    for (uint32_t c = 0; c < s->hops; c++) {
      const int32_t *cell = s->cells + 6 * (size_t)c;
      te_hop *send = &out->sends[c], *recv = &out->recvs[c];
      send->step = recv->step = cell[0];
      send->letter = recv->letter = cell[1];
      send->cell = recv->cell = (int32_t)c;
      send->neighbour = out->neighbours[cell[1]];
      send->origin = times(s, h, cell[2], memo, scratch);
      send->destination = times(s, h, cell[3], memo, scratch);
      recv->neighbour = out->from[cell[1]];
      recv->origin = times(s, h, cell[4], memo, scratch);
      recv->destination = times(s, h, cell[5], memo, scratch);
      bad |= send->origin < 0 || send->destination < 0 || recv->origin < 0 || recv->destination < 0;
    }
    free(memo);
    free(scratch);
    if (bad) {
      te_program_free(out);
      return fail(why, whylen, "a product of two elements is not an element (the schedule's group is not closed)");
    }
    out->nsends = out->nrecvs = (int)s->hops;
  } else {
    memcpy(out->neighbours, s->neighbours + (size_t)rank * s->letters, sizeof(int32_t) * s->letters);
    const unsigned char *at = s->bytes + s->offsets[rank], *end = s->bytes + s->offsets[rank + 1];
    uint32_t counts[2];
    if ((size_t)(end - at) < sizeof counts) {
      te_program_free(out);
      return fail(why, whylen, "a tesearch-hops program cut short");
    }
    memcpy(counts, at, sizeof counts);
    at += sizeof counts;
    if ((size_t)(end - at) != sizeof(int32_t) * 5 * ((size_t)counts[0] + counts[1])) {
      te_program_free(out);
      return fail(why, whylen, "a tesearch-hops program whose length does not match its counts");
    }
    out->nsends = (int)counts[0];
    out->nrecvs = (int)counts[1];
    out->sends = malloc(sizeof(te_hop) * (counts[0] + 1));
    out->recvs = malloc(sizeof(te_hop) * (counts[1] + 1));
    if (!out->sends || !out->recvs) goto oom;
    for (int side = 0; side < 2; side++) {
      te_hop *hops = side ? out->recvs : out->sends;
      for (uint32_t i = 0; i < counts[side]; i++) {
        int32_t row[5];
        memcpy(row, at, sizeof row);
        at += sizeof row;
        hops[i] = (te_hop){row[0], row[1], row[2], row[3], row[4], (int32_t)i};
        if (row[0] < 0 || (uint32_t)row[0] >= s->steps || row[1] < 0 || (uint32_t)row[1] >= s->letters ||
            row[2] < 0 || (uint32_t)row[2] >= s->ranks || row[3] < 0 || (uint32_t)row[3] >= s->ranks || row[4] < 0 ||
            (uint32_t)row[4] >= s->ranks) {
          te_program_free(out);
          return fail(why, whylen, "a tesearch-hops program row out of range");
        }
      }
    }
    /* the sender of receives on letter k: what the receives say (a broken program may say anything) */
    for (uint32_t k = 0; k < s->letters; k++) out->from[k] = -1;
    for (int i = 0; i < out->nrecvs; i++)
      if (out->from[out->recvs[i].letter] < 0) out->from[out->recvs[i].letter] = out->recvs[i].neighbour;
  }
  qsort(out->sends, (size_t)out->nsends, sizeof(te_hop), by_step_cell);
  qsort(out->recvs, (size_t)out->nrecvs, sizeof(te_hop), by_step_cell);
  return 0;
oom:
  te_program_free(out);
  return fail(why, whylen, "out of memory making a program");
}

void te_program_free(te_program *p) {
  free(p->sends);
  free(p->recvs);
  free(p->neighbours);
  free(p->from);
  memset(p, 0, sizeof *p);
}

unsigned char te_pattern(int origin, int destination, size_t i) {
  uint64_t x = ((uint64_t)(uint32_t)origin << 40) ^ ((uint64_t)(uint32_t)destination << 20) ^ (uint64_t)i;
  x *= 0xD6E8FEB86659FD93ull;
  x ^= x >> 32;
  return (unsigned char)(x & 0xff);
}

void te_fill(unsigned char *block, int origin, int destination, size_t bytes) {
  for (size_t i = 0; i < bytes; i++) block[i] = te_pattern(origin, destination, i);
}

long te_differs(const unsigned char *block, int origin, int destination, size_t bytes) {
  for (size_t i = 0; i < bytes; i++)
    if (block[i] != te_pattern(origin, destination, i)) return (long)i;
  return -1;
}
