/* alltoall_errors.c: MPI_Alltoall against PMPI_Alltoall on calls MPI reports as errors (tests/c/alltoall_common.h).
 *
 *   mpiexec -n N ./alltoall_errors
 *
 * Each case runs on fresh duplicates of MPI_COMM_WORLD whose error handler is MPI_ERRORS_RETURN (MPI_COMM_WORLD and
 * MPI_COMM_SELF keep theirs, but for the null-communicator case), once with MPI_Alltoall and once with
 * PMPI_Alltoall; on every rank the error class returned must be the same: "CASE name same" (rank 0 also prints
 * "CLASSES name: library L, PMPI P" with its own classes).  The cases: send and receive buffer the same (MPICH's
 * errors/coll/noalias2 asks this of every collective), through MPI_Alltoall and MPI 4's MPI_Alltoall_c; receive
 * buffer overlapping the send buffer; rank 0 passing other counts than the others; rank 0 receiving fewer bytes
 * than it is sent; MPI_DATATYPE_NULL; a negative count; a null send buffer; MPI_COMM_NULL.  A correct call last
 * (the communicator still works).  Exit status 1 when a case differs.
 */
#include "alltoall_common.h"

typedef int (*alltoall_fn)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm);

typedef struct {
  const char *name;
  int null_comm; /* pass MPI_COMM_NULL */
  int send_count, recv_count;
  MPI_Datatype type;
  int alias;   /* 1: receive into the send buffer; 2: receive 4 bytes past the send buffer's start */
  int no_send; /* send buffer NULL */
  int large;   /* through MPI_Alltoall_c */
} error_case;

static int class_of(int code) {
  int cls = code;
  if (code != MPI_SUCCESS) MPI_Error_class(code, &cls);
  return cls;
}

static int call(const error_case *c, int library) {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  size_t bytes = sizeof(int) * 8 * (size_t)ranks + 64;
  unsigned char *send = filled(bytes, 21), *recv = filled(bytes, 22);
  void *from = c->no_send ? NULL : send, *into = c->alias == 1 ? send : c->alias == 2 ? send + 4 : recv;
  int code;
  MPI_Comm target = c->null_comm ? MPI_COMM_NULL : comm;
#if MPI_VERSION >= 4
  if (c->large)
    code = library ? MPI_Alltoall_c(from, c->send_count, c->type, into, c->recv_count, c->type, target)
                   : PMPI_Alltoall_c(from, c->send_count, c->type, into, c->recv_count, c->type, target);
  else
#endif
    code = library ? MPI_Alltoall(from, c->send_count, c->type, into, c->recv_count, c->type, target)
                   : PMPI_Alltoall(from, c->send_count, c->type, into, c->recv_count, c->type, target);
  MPI_Barrier(MPI_COMM_WORLD); /* no case's messages meet the next one's: each has its own duplicate too */
  MPI_Comm_free(&comm);
  free(send);
  free(recv);
  return class_of(code);
}

static void error_case_run(const error_case *c) {
  int library = call(c, 1), reference = call(c, 0);
  int mine = library != reference, count = 0;
  PMPI_Allreduce(&mine, &count, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  cases++;
  if (count) differ++;
  if (me == 0) {
    char lib[MPI_MAX_ERROR_STRING], ref[MPI_MAX_ERROR_STRING];
    int length;
    MPI_Error_string(library, lib, &length);
    MPI_Error_string(reference, ref, &length);
    printf("CLASSES %s: library %d (%s), PMPI %d (%s)\n", c->name, library, lib, reference, ref);
    if (count) printf("CASE %s DIFFERS on %d ranks\n", c->name, count);
    else printf("CASE %s same\n", c->name);
    fflush(stdout);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  error_case all[] = {
      {"send and receive buffer the same", 0, 2, 2, MPI_INT, 1, 0, 0},
      {"send and receive buffer the same, MPI_Alltoall_c", 0, 2, 2, MPI_INT, 1, 0, 1},
      {"receive buffer overlapping the send buffer", 0, 2, 2, MPI_INT, 2, 0, 0},
      {"rank 0 counts 4, the others 2", 0, me == 0 ? 4 : 2, me == 0 ? 4 : 2, MPI_INT, 0, 0, 0},
      {"rank 0 receives 1 MPI_INT of the 2 sent", 0, 2, me == 0 ? 1 : 2, MPI_INT, 0, 0, 0},
      {"MPI_DATATYPE_NULL", 0, 2, 2, MPI_DATATYPE_NULL, 0, 0, 0},
      {"a negative count", 0, -2, -2, MPI_INT, 0, 0, 0},
      {"a null send buffer", 0, 2, 2, MPI_INT, 0, 1, 0},
      {"correct after the errors", 0, 2, 2, MPI_INT, 0, 0, 0},
  };
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) error_case_run(&all[i]);
  { /* MPI_COMM_NULL: MPI reports it on MPI_COMM_WORLD's (or MPI_COMM_SELF's) error handler */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    error_case null = {"MPI_COMM_NULL", 1, 2, 2, MPI_INT, 0, 0, 0};
    error_case_run(&null);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
  }
  return finish();
}
