/* alltoall_layouts.c: MPI_Alltoall against PMPI_Alltoall when the ranks' datatypes have the same type signature but
 * possibly other layouts (tests/c/alltoall_common.h prints the verdicts).
 *
 *   mpiexec -n N ./alltoall_layouts
 *
 * A type whose typemap is not one increasing contiguous run (two ints at displacements {4,0}, an indexed block
 * {1,0}, a resized struct of two ints at {4,0}) moves its ints in another order than its bytes: MPI_Alltoall must
 * give what PMPI_Alltoall gives (the library must leave these calls to it).  Types that are provably the same
 * contiguous bytes (a contiguous type, two ints at {0,4}, a struct of an int and a float at {0,4}, 2 MPI_INT sent
 * and one contiguous pair received) must give the same data too, and the library may run them on its schedule
 * ("SCHEDULE name yes|no").  Blocks of MPI_INT on some ranks and MPI_FLOAT on others (signatures that differ, which
 * MPI forbids and MPICH does not detect) must not run on the schedule either.  Then the same on sub-communicators: every rank in reverse order, and when the world
 * has twice as many ranks, its two halves at once.  Exit status 1 when a case differs.
 */
#include "alltoall_common.h"

typedef struct {
  const char *name;
  MPI_Datatype type;
  int count;
} side;

/* every rank passes `mine` for sending and receiving (or `recv` when given) on `comm` */
static void types_case(const char *name, MPI_Comm comm, side send, side recv) {
  int n;
  MPI_Comm_size(comm, &n);
  MPI_Aint lb, send_extent, recv_extent;
  MPI_Type_get_extent(send.type, &lb, &send_extent);
  MPI_Type_get_extent(recv.type, &lb, &recv_extent);
  size_t send_total = (size_t)n * send.count * send_extent, recv_total = (size_t)n * recv.count * recv_extent;
  unsigned char *out = filled(send_total, 11), *a = filled(recv_total, 12), *b = filled(recv_total, 12);
  long before = on_schedule_so_far();
  MPI_Alltoall(out, send.count, send.type, a, recv.count, recv.type, comm);
  scheduled_on(name, before);
  PMPI_Alltoall(out, send.count, send.type, b, recv.count, recv.type, comm);
  verdict(name, a, b, recv_total);
  free(out);
  free(a);
  free(b);
}

static MPI_Datatype committed(MPI_Datatype t) {
  MPI_Type_commit(&t);
  return t;
}

static MPI_Datatype two_ints_at(MPI_Aint first, MPI_Aint second) {
  int lengths[2] = {1, 1};
  MPI_Aint at[2] = {first, second};
  MPI_Datatype t;
  MPI_Type_create_hindexed(2, lengths, at, MPI_INT, &t);
  return committed(t);
}

static MPI_Datatype resized_struct(MPI_Datatype first, MPI_Aint first_at, MPI_Datatype second, MPI_Aint second_at,
                                   MPI_Aint extent) {
  int lengths[2] = {1, 1};
  MPI_Aint at[2] = {first_at, second_at};
  MPI_Datatype types[2] = {first, second}, s, t;
  MPI_Type_create_struct(2, lengths, at, types, &s);
  MPI_Type_create_resized(s, 0, extent, &t);
  MPI_Type_free(&s);
  return committed(t);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  MPI_Datatype swapped = two_ints_at(4, 0), in_order = two_ints_at(0, 4), block_swapped, pair, four,
               struct_in_order = resized_struct(MPI_INT, 0, MPI_INT, 4, 8),
               struct_swapped = resized_struct(MPI_INT, 4, MPI_INT, 0, 8),
               int_float = resized_struct(MPI_INT, 0, MPI_FLOAT, 4, 8), padded;
  {
    int at[2] = {1, 0};
    MPI_Type_create_indexed_block(2, 1, at, MPI_INT, &block_swapped);
    block_swapped = committed(block_swapped);
    MPI_Type_contiguous(2, MPI_INT, &pair);
    pair = committed(pair);
    MPI_Type_contiguous(4, MPI_INT, &four);
    four = committed(four);
    int lengths[2] = {1, 1};
    MPI_Aint where[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct(2, lengths, where, types, &padded); /* an int, 4 bytes of padding, a double */
    padded = committed(padded);
  }
  side ints2 = {"2 MPI_INT", MPI_INT, 2};
  /* the same signature, other byte orders: the data must be PMPI_Alltoall's */
  types_case("rank 0 hindexed {4,0}, the others 2 MPI_INT", MPI_COMM_WORLD,
             me == 0 ? (side){"", swapped, 1} : ints2, me == 0 ? (side){"", swapped, 1} : ints2);
  types_case("rank 0 indexed_block {1,0}, the others 2 MPI_INT", MPI_COMM_WORLD,
             me == 0 ? (side){"", block_swapped, 1} : ints2, me == 0 ? (side){"", block_swapped, 1} : ints2);
  types_case("even ranks hindexed {4,0}, odd ranks 2 MPI_INT", MPI_COMM_WORLD,
             me % 2 == 0 ? (side){"", swapped, 1} : ints2, me % 2 == 0 ? (side){"", swapped, 1} : ints2);
  types_case("resized structs of two ints at {0,4} (even ranks) and {4,0} (odd ranks)", MPI_COMM_WORLD,
             (side){"", me % 2 ? struct_swapped : struct_in_order, 1},
             (side){"", me % 2 ? struct_swapped : struct_in_order, 1});
  types_case("rank 1 sends hindexed {4,0}, every rank receives 2 MPI_INT", MPI_COMM_WORLD,
             me == 1 ? (side){"", swapped, 1} : ints2, ints2);
  types_case("every rank hindexed {4,0}", MPI_COMM_WORLD, (side){"", swapped, 1}, (side){"", swapped, 1});
  types_case("an int and a double with padding on every rank", MPI_COMM_WORLD, (side){"", padded, 3},
             (side){"", padded, 3});
  types_case("MPI_INT on even ranks, MPI_FLOAT on odd ranks (signatures differ)", MPI_COMM_WORLD,
             (side){"", me % 2 ? MPI_FLOAT : MPI_INT, 3}, (side){"", me % 2 ? MPI_FLOAT : MPI_INT, 3});
#if MPI_VERSION >= 4
  { /* a type made by a large-count constructor: MPICH refuses MPI_Type_get_envelope on it (an error, fatal on
       MPI_COMM_SELF); the library must ask MPI_Type_get_envelope_c, or leave it alone */
    MPI_Datatype large;
    MPI_Type_contiguous_c(3, MPI_INT, &large);
    large = committed(large);
    types_case("a contiguous type of 3 MPI_INT made with MPI_Type_contiguous_c", MPI_COMM_WORLD,
               (side){"", large, 1}, (side){"", large, 1});
    MPI_Type_free(&large);
  }
#endif
  /* provably the same contiguous bytes on every rank: the library may run these on its schedule */
  types_case("SAFE a contiguous type of 4 MPI_INT on every rank", MPI_COMM_WORLD, (side){"", four, 2},
             (side){"", four, 2});
  types_case("SAFE rank 0 hindexed {0,4}, the others 2 MPI_INT", MPI_COMM_WORLD,
             me == 0 ? (side){"", in_order, 1} : ints2, me == 0 ? (side){"", in_order, 1} : ints2);
  types_case("SAFE resized structs of two ints at {0,4} on every rank", MPI_COMM_WORLD,
             (side){"", struct_in_order, 3}, (side){"", struct_in_order, 3});
  types_case("SAFE send 4 MPI_INT, receive 2 contiguous pairs", MPI_COMM_WORLD, (side){"", MPI_INT, 4},
             (side){"", pair, 2});
  types_case("SAFE an int and a float at {0,4} on every rank", MPI_COMM_WORLD, (side){"", int_float, 5},
             (side){"", int_float, 5});
  { /* sub-communicators: every rank in reverse order; the two halves of the world at once */
    MPI_Comm reversed, half;
    MPI_Comm_split(MPI_COMM_WORLD, 0, ranks - me, &reversed);
    types_case("SAFE every rank in reverse order, 3 MPI_INT", reversed, (side){"", MPI_INT, 3}, (side){"", MPI_INT, 3});
    types_case("every rank in reverse order, rank 0 hindexed {4,0}", reversed,
               me == 0 ? (side){"", swapped, 1} : ints2, me == 0 ? (side){"", swapped, 1} : ints2);
    MPI_Comm_free(&reversed);
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, ranks - me, &half);
    types_case("SAFE two halves of the world at once, 5 MPI_INT", half, (side){"", MPI_INT, 5},
               (side){"", MPI_INT, 5});
    MPI_Comm_free(&half);
  }
  MPI_Datatype all[] = {swapped, in_order, block_swapped, pair, four, struct_in_order, struct_swapped, int_float, padded};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) MPI_Type_free(&all[i]);
  return finish();
}
