/* alltoall_hostile.c: MPI_Alltoall against PMPI_Alltoall on legal calls an MPI conformance tester tries
 * (tests/c/alltoall_common.h), on MPI_COMM_WORLD of 8 ranks (hypercube-3's size).
 *
 *   mpiexec -n 8 ./alltoall_hostile
 *
 * Each case calls MPI_Alltoall and PMPI_Alltoall on the same arguments (buffers sized by the types' extents, with
 * margins that must stay untouched) and compares the whole receive buffers and the return codes.  Send and receive
 * types with other but signature-matching layouts (4 MPI_INT against one contiguous of 4, vectors and hvectors
 * whose blocks touch or leave gaps, a negative stride, resized types with lb -4, lb 4 or extent 8, an extent
 * smaller than the size, indexed types descending, overlapping or ascending, nested types, MPI_Type_dup, types
 * freed and remade, MPI_BYTE, MPI_PACKED, MPI_2INT, MPI_DOUBLE_INT, MPI_LONG_DOUBLE, MPI_C_BOOL, layouts that differ
 * by rank), a loop alternating types, communicators from MPI_Comm_split with shuffled keys, MPI_Comm_create_group
 * in a permuted order, MPI_COMM_SELF, duplicates freed and made again, a communicator with the program's attributes
 * (a copy callback that counts: never called; one that refuses), a counting error handler (never called on legal
 * calls), an uncommitted type (error class), the program's MPI_ANY_SOURCE/MPI_ANY_TAG receives pending across
 * the calls (they must get the program's messages only), MPI_IN_PLACE and zero counts.  Rank 0 prints "CASE name
 * same|DIFFERS on K ranks", "SCHEDULE name yes|no on K ranks", then "CHECKED n cases, m differ".
 */
#include "alltoall_common.h"

/* data case: n elements per block of each side; buffers sized by extent */
static void dcase(const char *name, MPI_Comm comm, MPI_Datatype st, int sc, MPI_Datatype rt, int rc) {
  int p;
  MPI_Comm_size(comm, &p);
  MPI_Aint lb, ext, tlb, text;
  MPI_Type_get_extent(st, &lb, &ext);
  MPI_Type_get_true_extent(st, &tlb, &text);
  size_t sspan = (size_t)(text + (MPI_Aint)(sc * p) * (ext > 0 ? ext : 0) + 256);
  MPI_Type_get_extent(rt, &lb, &ext);
  MPI_Type_get_true_extent(rt, &tlb, &text);
  size_t rspan = (size_t)(text + (MPI_Aint)(rc * p) * (ext > 0 ? ext : 0) + 256);
  unsigned char *s = filled(sspan + 512, 3), *a = filled(rspan + 512, 9), *b = filled(rspan + 512, 9);
  long before = on_schedule_so_far();
  int c1 = MPI_Alltoall(s + 256, sc, st, a + 256, rc, rt, comm);
  int c2 = PMPI_Alltoall(s + 256, sc, st, b + 256, rc, rt, comm);
  int bad = c1 != c2;
  char full[300];
  snprintf(full, sizeof full, "%s%s", name, bad ? " (RETURN CODES DIFFER)" : "");
  if (bad) memset(a, 0xEE, 1);
  verdict(full, a, b, rspan + 512);
  scheduled_on(name, before);
  free(s); free(a); free(b);
}

static MPI_Datatype commit(MPI_Datatype t) { MPI_Type_commit(&t); return t; }

static int copies, deletes;
static int copy_fn(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag) {
  (void)c; (void)k; (void)extra;
  copies++;
  *(void **)out = in;
  *flag = 1;
  return MPI_SUCCESS;
}
static int refuse_copy(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag) {
  (void)c; (void)k; (void)extra; (void)in; (void)out;
  copies++;
  *flag = 0;
  return MPI_ERR_OTHER;
}
static int del_fn(MPI_Comm c, int k, void *v, void *extra) { (void)c; (void)k; (void)v; (void)extra; deletes++; return MPI_SUCCESS; }

static int errcalls;
static void counting_handler(MPI_Comm *c, int *code, ...) { (void)c; (void)code; errcalls++; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (ranks != 8) {
    if (me == 0) printf("SKIP: 8 ranks needed, not %d\n", ranks);
    MPI_Finalize();
    return 0;
  }
  MPI_Comm w8 = MPI_COMM_WORLD;
  MPI_Datatype c4 = commit(({MPI_Datatype t; MPI_Type_contiguous(4, MPI_INT, &t); t;}));
  dcase("send 4 INT recv 1 contig4", w8, MPI_INT, 4, c4, 1);
  dcase("send 1 contig4 recv 4 INT", w8, c4, 1, MPI_INT, 4);
  MPI_Datatype vcont = commit(({MPI_Datatype t; MPI_Type_vector(2, 2, 2, MPI_INT, &t); t;}));
  dcase("vector(2,2,2) vs 4 INT", w8, vcont, 1, MPI_INT, 4);
  MPI_Datatype vgap = commit(({MPI_Datatype t; MPI_Type_vector(2, 1, 2, MPI_INT, &t); t;}));
  dcase("vector(2,1,2) gaps both", w8, vgap, 3, vgap, 3);
  dcase("vector(2,1,2) send, INT recv", w8, vgap, 3, MPI_INT, 6);
  MPI_Datatype hv = commit(({MPI_Datatype t; MPI_Type_create_hvector(3, 1, 4, MPI_INT, &t); t;}));
  dcase("hvector(3,1,4B) contiguous", w8, hv, 2, MPI_INT, 6);
  MPI_Datatype hvneg = commit(({MPI_Datatype t; MPI_Type_create_hvector(3, 1, -4, MPI_INT, &t); t;}));
  dcase("hvector stride -4", w8, hvneg, 2, MPI_INT, 6);
  MPI_Datatype rneg = commit(({MPI_Datatype t; MPI_Type_create_resized(MPI_INT, -4, 8, &t); t;}));
  dcase("resized int lb -4 ext 8", w8, rneg, 3, rneg, 3);
  MPI_Datatype rgap = commit(({MPI_Datatype t; MPI_Type_create_resized(MPI_INT, 0, 8, &t); t;}));
  dcase("resized int lb 0 ext 8 send, INT recv", w8, rgap, 3, MPI_INT, 3);
  MPI_Datatype rlb4 = commit(({MPI_Datatype t; MPI_Type_create_resized(MPI_INT, 4, 4, &t); t;}));
  dcase("resized int lb 4 ext 4", w8, rlb4, 3, MPI_INT, 3);
  MPI_Datatype rshrink = commit(({MPI_Datatype t; MPI_Type_create_resized(c4, 0, 8, &t); t;}));
  dcase("contig4 resized ext 8 (overlap, send)", w8, rshrink, 2, MPI_INT, 8);
  int bl[3] = {1, 1, 1}, dd[3] = {2, 1, 0}, ov[2] = {0, 0};
  MPI_Datatype idesc = commit(({MPI_Datatype t; MPI_Type_indexed(3, bl, dd, MPI_INT, &t); t;}));
  dcase("indexed descending", w8, idesc, 2, MPI_INT, 6);
  dcase("indexed descending recv", w8, MPI_INT, 6, idesc, 2);
  MPI_Datatype iov = commit(({MPI_Datatype t; MPI_Type_indexed(2, bl, ov, MPI_INT, &t); t;}));
  dcase("indexed overlapping send", w8, iov, 2, MPI_INT, 4);
  int asc[3] = {0, 1, 2};
  MPI_Datatype iasc = commit(({MPI_Datatype t; MPI_Type_indexed(3, bl, asc, MPI_INT, &t); t;}));
  dcase("indexed ascending (contig)", w8, iasc, 2, MPI_INT, 6);
  /* nested */
  MPI_Datatype inner = commit(({MPI_Datatype t; MPI_Type_contiguous(2, iasc, &t); t;}));
  MPI_Datatype outer = commit(({MPI_Datatype t; MPI_Type_create_hvector(2, 1, 24, inner, &t); t;}));
  dcase("nested hvector(contig(indexed))", w8, outer, 1, MPI_INT, 12);
  MPI_Datatype outer2 = commit(({MPI_Datatype t; MPI_Type_create_hvector(2, 1, 28, inner, &t); t;}));
  dcase("nested hvector with gap", w8, outer2, 1, MPI_INT, 12);
  MPI_Datatype dupint = commit(({MPI_Datatype t; MPI_Type_dup(MPI_INT, &t); t;}));
  dcase("Type_dup(INT) vs INT", w8, dupint, 5, MPI_INT, 5);
  MPI_Datatype dupdesc = commit(({MPI_Datatype t; MPI_Type_dup(idesc, &t); t;}));
  dcase("Type_dup(indexed desc)", w8, dupdesc, 1, MPI_INT, 3);
  { /* committed then freed: a handle reused with another layout */
    for (int k = 0; k < 4; k++) {
      MPI_Datatype t;
      if (k % 2) MPI_Type_indexed(3, bl, dd, MPI_INT, &t); else MPI_Type_contiguous(3, MPI_INT, &t);
      MPI_Type_commit(&t);
      char nm[80]; snprintf(nm, sizeof nm, "freed and remade %d (%s)", k, k % 2 ? "desc" : "contig");
      dcase(nm, w8, t, 1, MPI_INT, 3);
      MPI_Type_free(&t);
    }
  }
  dcase("MPI_BYTE 13", w8, MPI_BYTE, 13, MPI_BYTE, 13);
  dcase("INT send, MPI_PACKED recv", w8, MPI_INT, 4, MPI_PACKED, 16);
  dcase("MPI_2INT", w8, MPI_2INT, 3, MPI_2INT, 3);
  dcase("MPI_DOUBLE_INT", w8, MPI_DOUBLE_INT, 3, MPI_DOUBLE_INT, 3);
  dcase("MPI_LONG_DOUBLE", w8, MPI_LONG_DOUBLE, 2, MPI_LONG_DOUBLE, 2);
  dcase("MPI_C_BOOL", w8, MPI_C_BOOL, 5, MPI_C_BOOL, 5);
  /* rank-dependent: even ranks send contig4, odd 4 INT */
  dcase("even contig4 odd 4INT", w8, me % 2 ? MPI_INT : c4, me % 2 ? 4 : 1, me % 2 ? c4 : MPI_INT, me % 2 ? 1 : 4);
  dcase("rank 3 vector gap others INT", w8, me == 3 ? vgap : MPI_INT, me == 3 ? 1 : 2, MPI_INT, 2);
  dcase("rank 5 recv desc, others INT", w8, MPI_INT, 3, me == 5 ? idesc : MPI_INT, me == 5 ? 1 : 3);
  /* alternating loop */
  for (int k = 0; k < 6; k++) {
    char nm[80]; snprintf(nm, sizeof nm, "loop %d", k);
    { if (k % 3 == 0) dcase(nm, w8, MPI_INT, 3, iasc, 1); else if (k % 3 == 1) dcase(nm, w8, idesc, 1, MPI_INT, 3); else dcase(nm, w8, MPI_DOUBLE, 2, MPI_DOUBLE, 2); }
  }
  /* comms */
  MPI_Comm rev, grp, dupc;
  MPI_Comm_split(MPI_COMM_WORLD, me < 8 ? 0 : 1, (7 - me % 8) * 3 % 8, &rev);
  dcase("split shuffled keys", rev, MPI_INT, 3, MPI_INT, 3);
  MPI_Group wg, g8;
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  int order[8];
  for (int i = 0; i < 8; i++) order[i] = (i * 5 + 3) % 8;
  MPI_Group_incl(wg, 8, order, &g8);
  MPI_Comm_create_group(MPI_COMM_WORLD, g8, 77, &grp);
  dcase("create_group permuted", grp, MPI_INT, 3, MPI_INT, 3);
  dcase("COMM_SELF", MPI_COMM_SELF, MPI_INT, 3, MPI_INT, 3);
  for (int k = 0; k < 3; k++) {
    MPI_Comm_dup(w8, &dupc);
    char nm[80]; snprintf(nm, sizeof nm, "dup freed remade %d", k);
    dcase(nm, dupc, MPI_INT, 3, MPI_INT, 3);
    MPI_Comm_free(&dupc);
  }
  /* attribute copy callbacks: the library must not dup the user's comm visibly */
  {
    int key;
    MPI_Comm c;
    MPI_Comm_create_keyval(copy_fn, del_fn, &key, NULL);
    MPI_Comm_dup(w8, &c);
    MPI_Comm_set_attr(c, key, &key);
    copies = deletes = 0;
    dcase("comm with user attribute", c, MPI_INT, 3, MPI_INT, 3);
    tally(w8, "user copy_fn called by MPI_Alltoall", copies);
    MPI_Comm_free(&c);
    MPI_Comm_free_keyval(&key);
    MPI_Comm_create_keyval(refuse_copy, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    MPI_Comm_dup(w8, &c);
    MPI_Comm_set_attr(c, key, &key);
    dcase("comm whose attribute refuses copy (fatal handler)", c, MPI_INT, 3, MPI_INT, 3);
    MPI_Comm_free(&c);
    MPI_Comm_free_keyval(&key);
  }
  /* error handler counting: library must not invoke it on legal calls */
  {
    MPI_Errhandler eh;
    MPI_Comm c;
    MPI_Comm_create_errhandler(counting_handler, &eh);
    MPI_Comm_dup(w8, &c);
    MPI_Comm_set_errhandler(c, eh);
    errcalls = 0;
    dcase("counting errhandler legal call", c, MPI_INT, 3, MPI_INT, 3);
    tally(w8, "errhandler not called", errcalls);
    MPI_Comm_free(&c);
    MPI_Errhandler_free(&eh);
  }
  /* uncommitted derived type: error class */
  {
    MPI_Comm c;
    MPI_Comm_dup(w8, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    MPI_Datatype u;
    MPI_Type_contiguous(2, MPI_INT, &u);
    int *s = calloc(64, 4), *r = calloc(64, 4);
    int e1 = MPI_Alltoall(s, 1, u, r, 1, u, c), e2 = PMPI_Alltoall(s, 1, u, r, 1, u, c), c1 = e1, c2 = e2;
    if (e1) MPI_Error_class(e1, &c1);
    if (e2) MPI_Error_class(e2, &c2);
    int d = c1 != c2, all = 0;
    PMPI_Allreduce(&d, &all, 1, MPI_INT, MPI_SUM, w8);
    if (me == 0) { printf("CLASSES uncommitted type: library %d, PMPI %d\nCASE uncommitted type %s\n", c1, c2, all ? "DIFFERS on some ranks" : "same"); fflush(stdout); }
    cases++; if (all) differ++;
    MPI_Type_free(&u);
    MPI_Comm_free(&c);
  }
  /* user point-to-point outstanding across MPI_Alltoall on the same comm, with tags 0..63 and ANY_TAG */
  {
    int tags = 64, sbuf[64], rbuf[64], rbuf2[64];
    MPI_Request rq[130];
    int n = 0, peer_to = (me + 1) % 8, peer_from = (me + 7) % 8;
    for (int t = 0; t < tags; t++) MPI_Irecv(&rbuf[t], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, w8, &rq[n++]);
    dcase("with user ANY_SOURCE/ANY_TAG irecvs pending", w8, MPI_INT, 64, MPI_INT, 64);
    dcase("with user irecvs pending (big)", w8, MPI_BYTE, 100000, MPI_BYTE, 100000);
    for (int t = 0; t < tags; t++) { sbuf[t] = me * 1000 + t; MPI_Isend(&sbuf[t], 1, MPI_INT, peer_to, t, w8, &rq[n++]); }
    MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
    int ok = 1;
    for (int t = 0; t < tags; t++) if (rbuf[t] / 1000 != peer_from) ok = 0;
    (void)rbuf2;
    int all = 0, bad = !ok;
    PMPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, w8);
    if (me == 0) { printf("CASE user p2p intact %s\n", all ? "DIFFERS" : "same"); fflush(stdout); }
    cases++; if (all) differ++;
  }
  /* in place */
  {
    int *a = malloc(4 * 64), *b = malloc(4 * 64);
    for (int i = 0; i < 64; i++) a[i] = b[i] = me * 100 + i;
    MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a, 8, MPI_INT, w8);
    PMPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, b, 8, MPI_INT, w8);
    verdict_on(w8, "IN_PLACE", a, b, 256);
    free(a); free(b);
  }
  dcase("zero counts", w8, MPI_INT, 0, MPI_INT, 0);
  MPI_Barrier(MPI_COMM_WORLD);
  return finish();
}
