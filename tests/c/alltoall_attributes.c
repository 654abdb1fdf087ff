/* alltoall_attributes.c: MPI_Alltoall against PMPI_Alltoall where the library's own communicator and MPI's checks
 * of datatypes show (tests/c/alltoall_common.h).
 *
 *   mpiexec -n N ./alltoall_attributes
 *
 * On fresh duplicates of MPI_COMM_WORLD (error handler MPI_ERRORS_ARE_FATAL but where said):
 * - "user copy callback": the communicator carries a program's attribute whose copy callback counts its calls;
 *   MPI_Alltoall (its first call there) must call it no more than PMPI_Alltoall does (never), and give PMPI's data;
 * - "copy callback that refuses": the attribute's copy callback returns MPI_ERR_OTHER (MPI lets it: a duplicate of
 *   the communicator then fails); MPI_Alltoall must still succeed with PMPI's data, not abort;
 * - "uncommitted type" (MPI_ERRORS_RETURN): a contiguous type never committed, on every rank; the error class
 *   returned must be PMPI_Alltoall's (MPI_ERR_TYPE), then a correct call on the same communicator.
 * Rank 0 prints "CASE name same|DIFFERS on K ranks" and "SCHEDULE name yes|no on K ranks" (tests/c/alltoall_common.h).
 * Exit status 1 when a case differs.
 */
#include "alltoall_common.h"

#define COUNT 3

static int copies;

static int counting_copy(MPI_Comm comm, int key, void *extra, void *in, void *out, int *flag) {
  (void)comm, (void)key, (void)extra;
  copies++;
  *(void **)out = in;
  *flag = 1;
  return MPI_SUCCESS;
}

static int refusing_copy(MPI_Comm comm, int key, void *extra, void *in, void *out, int *flag) {
  (void)comm, (void)key, (void)extra, (void)in, (void)out;
  copies++;
  *flag = 0;
  return MPI_ERR_OTHER;
}

/* MPI_Alltoall then PMPI_Alltoall of COUNT ints per block on `comm`: data and return codes compared */
static void data_case(const char *name, MPI_Comm comm) {
  size_t bytes = sizeof(int) * COUNT * (size_t)ranks;
  unsigned char *send = filled(bytes, 5), *library = filled(bytes, 6), *reference = filled(bytes, 6);
  long before = on_schedule_so_far();
  int a = MPI_Alltoall(send, COUNT, MPI_INT, library, COUNT, MPI_INT, comm);
  int b = PMPI_Alltoall(send, COUNT, MPI_INT, reference, COUNT, MPI_INT, comm);
  if (a != b) library[0] = (unsigned char)~reference[0];
  verdict(name, library, reference, bytes);
  scheduled_on(name, before);
  free(send);
  free(library);
  free(reference);
}

static void counted(const char *name, int mine) {
  int count = 0;
  PMPI_Allreduce(&mine, &count, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  cases++;
  if (count) differ++;
  if (me == 0) {
    if (count) printf("CASE %s DIFFERS on %d ranks\n", name, count);
    else printf("CASE %s same\n", name);
    fflush(stdout);
  }
}

static void attribute_case(const char *name, MPI_Comm_copy_attr_function *copy) {
  int key;
  MPI_Comm comm;
  MPI_Comm_create_keyval(copy, MPI_COMM_NULL_DELETE_FN, &key, NULL);
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_attr(comm, key, &key);
  copies = 0;
  data_case(name, comm);
  char calls[200];
  snprintf(calls, sizeof calls, "%s: copy callback calls", name);
  counted(calls, copies != 0);
  MPI_Comm_free(&comm);
  MPI_Comm_free_keyval(&key);
}

static int class_of(int code) {
  int cls = code;
  if (code != MPI_SUCCESS) MPI_Error_class(code, &cls);
  return cls;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  attribute_case("user copy callback", counting_copy);
  attribute_case("copy callback that refuses", refusing_copy);
  {
    MPI_Comm comm;
    MPI_Datatype pair;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Type_contiguous(2, MPI_INT, &pair);
    int *send = calloc(2 * (size_t)ranks, sizeof(int)), *recv = calloc(2 * (size_t)ranks, sizeof(int));
    int library = class_of(MPI_Alltoall(send, 1, pair, recv, 1, pair, comm));
    int reference = class_of(PMPI_Alltoall(send, 1, pair, recv, 1, pair, comm));
    if (me == 0) printf("CLASSES uncommitted type: library %d, PMPI %d\n", library, reference);
    counted("uncommitted type", library != reference);
    data_case("correct after the uncommitted type", comm);
    MPI_Type_free(&pair);
    MPI_Comm_free(&comm);
    free(send);
    free(recv);
  }
  return finish();
}
