/* te_layout.c: whether `count` elements of an MPI datatype are provably one contiguous run of bytes in typemap
 * order, and a digest of their type signature (te_layout_of in te.h).
 *
 * The schedule moves a block as bytes; PMPI_Alltoall moves it as its typemap: packed in the sender's typemap order,
 * unpacked in the receiver's.  The two agree exactly when, on every rank, the bytes of a block are its typemap's
 * basic elements in typemap order, back to back from the buffer's start (then packing a block is copying it), and
 * the ranks' signatures match (as MPI requires).  A type is flattened through MPI_Type_get_envelope and
 * MPI_Type_get_contents into runs of one basic type (adjacent elements of the same basic type at consecutive
 * addresses merge); it qualifies when its lower bound is 0, its extent its size, and its runs tile [0, size) in
 * increasing order.  Combiners it does not know (subarray, darray, Fortran types, ...), types made with large
 * counts (MPI 4's _c constructors), more runs than TE_LAYOUT_MOST_RUNS, or any MPI error: not provable, the caller
 * uses PMPI.
 * The signature digest is a 64-bit FNV-1a hash of the merged sequence (basic type name, element count) over the
 * whole block, so 2 MPI_INT, one contiguous pair of MPI_INT and two ints at displacements {0,4} all give one digest.
 */
#include "te.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define TE_LAYOUT_MOST_RUNS 4096 /* runs appended while flattening one type; more: not provable */
#define FNV_OFFSET 1469598103934665603ull
#define FNV_PRIME 1099511628211ull

typedef struct {
  uint64_t name;       /* the basic type's name, hashed */
  MPI_Aint at, bytes;  /* where the run starts (from the element's origin) and how many bytes it has */
  long long elements;  /* basic elements in it */
} layout_run;

typedef struct {
  layout_run *runs;
  int count, capacity;
  long budget; /* appends left before the type counts as too irregular to prove */
} run_list;

static uint64_t fnv(uint64_t h, const void *data, size_t length) {
  const unsigned char *p = data;
  for (size_t i = 0; i < length; i++) h = (h ^ p[i]) * FNV_PRIME;
  return h;
}

static int append(run_list *l, layout_run r) {
  if (--l->budget < 0) return -1;
  if (l->count) {
    layout_run *last = &l->runs[l->count - 1];
    if (last->name == r.name && last->at + last->bytes == r.at) {
      last->bytes += r.bytes;
      last->elements += r.elements;
      return 0;
    }
  }
  if (l->count == l->capacity) {
    int capacity = l->capacity ? 2 * l->capacity : 8;
    layout_run *grown = realloc(l->runs, sizeof(layout_run) * (size_t)capacity);
    if (!grown) return -1;
    l->runs = grown;
    l->capacity = capacity;
  }
  l->runs[l->count++] = r;
  return 0;
}

static int flatten(MPI_Datatype type, MPI_Aint at, run_list *out);

/* `n` copies of `type`, `stride` bytes apart, from `at` */
static int repeat(MPI_Datatype type, long long n, MPI_Aint stride, MPI_Aint at, run_list *out) {
  if (n < 0 || --out->budget < 0) return -1;
  if (n == 0) return 0;
  run_list one = {NULL, 0, 0, out->budget};
  int status = flatten(type, 0, &one);
  if (status == 0 && one.count == 1 && one.runs[0].at == 0 && one.runs[0].bytes == stride) { /* back to back */
    layout_run r = one.runs[0];
    r.at = at;
    r.bytes *= n;
    r.elements *= n;
    status = append(out, r);
  } else {
    for (long long k = 0; status == 0 && k < n; k++)
      for (int i = 0; status == 0 && i < one.count; i++) {
        layout_run r = one.runs[i];
        r.at += at + (MPI_Aint)k * stride;
        status = append(out, r);
      }
  }
  free(one.runs);
  return status;
}

static int extent_of(MPI_Datatype type, MPI_Aint *extent) {
  MPI_Aint lb;
  return PMPI_Type_get_extent(type, &lb, extent) == MPI_SUCCESS ? 0 : -1;
}

/* MPI_Type_get_envelope's numbers; -1 for a type made with large counts (MPI 4's _c constructors, whose envelope
 * only MPI_Type_get_envelope_c may ask: MPICH calls MPI_Type_get_envelope on one an error), not proved here */
static int envelope(MPI_Datatype type, int *ni, int *na, int *nd, int *combiner) {
#if MPI_VERSION >= 4
  MPI_Count i = 0, a = 0, large = 0, d = 0;
  if (PMPI_Type_get_envelope_c(type, &i, &a, &large, &d, combiner) != MPI_SUCCESS || large != 0 || i > INT_MAX ||
      a > INT_MAX || d > INT_MAX)
    return -1;
  *ni = (int)i;
  *na = (int)a;
  *nd = (int)d;
  return 0;
#else
  return PMPI_Type_get_envelope(type, ni, na, nd, combiner) == MPI_SUCCESS ? 0 : -1;
#endif
}

static int is_named(MPI_Datatype type) {
  int ni, na, nd, combiner;
  return envelope(type, &ni, &na, &nd, &combiner) == 0 && combiner == MPI_COMBINER_NAMED;
}

static int flatten(MPI_Datatype type, MPI_Aint at, run_list *out) {
  int ni = 0, na = 0, nd = 0, combiner = 0;
  if (type == MPI_DATATYPE_NULL || envelope(type, &ni, &na, &nd, &combiner) != 0) return -1;
  if (combiner == MPI_COMBINER_NAMED) { /* a predefined type: one run, if its own bytes have no holes */
    int size = 0, length = 0;
    MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
    char name[MPI_MAX_OBJECT_NAME];
    if (PMPI_Type_size(type, &size) != MPI_SUCCESS || PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS ||
        PMPI_Type_get_true_extent(type, &true_lb, &true_extent) != MPI_SUCCESS ||
        PMPI_Type_get_name(type, name, &length) != MPI_SUCCESS)
      return -1;
    if (size <= 0 || lb != 0 || true_lb != 0 || extent != size || true_extent != size || length <= 0) return -1;
    return append(out, (layout_run){fnv(FNV_OFFSET, name, (size_t)length), at, size, 1});
  }
  if (ni == MPI_UNDEFINED || na == MPI_UNDEFINED || nd == MPI_UNDEFINED || ni < 0 || na < 0 || nd < 0) return -1;
  int *ints = malloc(sizeof(int) * ((size_t)ni + 1));
  MPI_Aint *addresses = malloc(sizeof(MPI_Aint) * ((size_t)na + 1));
  MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * ((size_t)nd + 1));
  int status = -1, got = 0;
  if (!ints || !addresses || !types) goto done;
  if (PMPI_Type_get_contents(type, ni, na, nd, ints, addresses, types) != MPI_SUCCESS) goto done;
  got = 1;
  MPI_Aint extent = 0;
  if (nd < 1 || extent_of(types[0], &extent) != 0) goto done;
  switch (combiner) {
  case MPI_COMBINER_DUP:
  case MPI_COMBINER_RESIZED: /* the same typemap; only the bounds (and so the stride of copies) change */
    status = flatten(types[0], at, out);
    break;
  case MPI_COMBINER_CONTIGUOUS:
    status = repeat(types[0], ints[0], extent, at, out);
    break;
  case MPI_COMBINER_VECTOR:
  case MPI_COMBINER_HVECTOR: {
    MPI_Aint stride = combiner == MPI_COMBINER_VECTOR ? (MPI_Aint)ints[2] * extent : addresses[0];
    status = 0;
    for (int j = 0; status == 0 && j < ints[0]; j++) status = repeat(types[0], ints[1], extent, at + j * stride, out);
    break;
  }
  case MPI_COMBINER_INDEXED:
  case MPI_COMBINER_HINDEXED:
    status = 0;
    for (int j = 0; status == 0 && j < ints[0]; j++) {
      MPI_Aint where = combiner == MPI_COMBINER_INDEXED ? (MPI_Aint)ints[1 + ints[0] + j] * extent : addresses[j];
      status = repeat(types[0], ints[1 + j], extent, at + where, out);
    }
    break;
  case MPI_COMBINER_INDEXED_BLOCK:
  case MPI_COMBINER_HINDEXED_BLOCK:
    status = 0;
    for (int j = 0; status == 0 && j < ints[0]; j++) {
      MPI_Aint where = combiner == MPI_COMBINER_INDEXED_BLOCK ? (MPI_Aint)ints[2 + j] * extent : addresses[j];
      status = repeat(types[0], ints[1], extent, at + where, out);
    }
    break;
  case MPI_COMBINER_STRUCT:
    status = 0;
    for (int j = 0; status == 0 && j < ints[0]; j++) {
      MPI_Aint each = 0;
      status = extent_of(types[j], &each);
      if (status == 0) status = repeat(types[j], ints[1 + j], each, at + addresses[j], out);
    }
    break;
  default: /* subarray, darray, Fortran and other types: not proved here */
    break;
  }
done:
  if (got)
    for (int j = 0; j < nd; j++)
      if (!is_named(types[j])) PMPI_Type_free(&types[j]);
  free(ints);
  free(addresses);
  free(types);
  return status;
}

int te_layout_of(MPI_Datatype type, MPI_Count count, te_layout *out) {
  memset(out, 0, sizeof *out);
  int size = 0;
  MPI_Aint lb = 0, extent = 0;
  if (count <= 0 || type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS || size <= 0 ||
      PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS || lb != 0 || extent != size)
    return -1;
  run_list runs = {NULL, 0, 0, TE_LAYOUT_MOST_RUNS};
  int status = flatten(type, 0, &runs);
  MPI_Aint next = 0;
  for (int i = 0; status == 0 && i < runs.count; i++) { /* the runs tile [0, size) in increasing order */
    if (runs.runs[i].at != next) status = -1;
    next += runs.runs[i].bytes;
  }
  if (status == 0 && next != size) status = -1;
  if (status == 0 && runs.count > 1 && (long long)runs.count * count > 64 * TE_LAYOUT_MOST_RUNS) status = -1;
  if (status == 0) { /* the signature of `count` elements: merged (name, elements) pairs */
    uint64_t h = FNV_OFFSET, name = 0;
    long long elements = 0;
    for (long long k = 0; k < (runs.count == 1 ? 1 : count); k++)
      for (int i = 0; i < runs.count; i++) {
        long long n = runs.runs[i].elements * (runs.count == 1 ? count : 1);
        if (elements && runs.runs[i].name == name) {
          elements += n;
          continue;
        }
        if (elements) {
          h = fnv(fnv(h, &name, sizeof name), &elements, sizeof elements);
        }
        name = runs.runs[i].name;
        elements = n;
      }
    out->signature = fnv(fnv(h, &name, sizeof name), &elements, sizeof elements);
    out->bytes = (unsigned long long)size * (unsigned long long)count;
  }
  free(runs.runs);
  return status;
}
