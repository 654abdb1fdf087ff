"""Optimal total-exchange tables for a product of rings, lifted one ring at a time.

Result.  ``lifted_table(network_from_spec("torus-4x8x8"))`` builds a table for a torus (any
sides, cyclic or dihedral per side) from a table of a torus with one side
fewer, down to a single ring, by solving one small Z3 problem per side.  It
is how tesearch gets the TPU-shaped tori torus-4x8x8 and torus-8x8x16 at
their per-letter bound (see results/frontier.md for what was measured).

Construction (lift).  Let G = A x H, with A a ring of m elements (letters
``a`` and ``A``, or ``a`` and ``a'``) and H the torus of the other sides,
and let P be a table for H of width T_H.  Every element of G is (x, h):

* lay m copies of P side by side, copy k in columns ``k*T_H .. (k+1)*T_H-1``;
  H's letters then sit exactly where the copies put them, so every column
  holds each H letter at most once, as in P;
* in copy k the word of h becomes a word of (x, h) for some x = x(k, h):
  a shortest word w of x in A is split as w = u v, and u goes directly
  before the H word and v directly after it (``u h-word v`` is a shuffle of
  shortest words of commuting factors, hence a shortest word of (x, h));
  the H letters do not move;
* for each h != e the copies take the m elements x once each (so (x, h) is
  placed once for every x), and each x != 0 of A also gets a lone word w
  for (x, e) anywhere;
* a solver chooses x(k, h), the word w, the split and the lone words'
  columns so that each column holds each A letter at most once, inside
  ``0..m*T_H-1``.  The model (:class:`LiftModel`) is plain 0/1 constraints
  in three sections; Z3 solves it by default, OR-Tools CP-SAT with
  ``--solver cpsat`` when it is installed (the ``cpsat`` extra).

Why the result is valid.  Each element of G != e is placed exactly once
with a shortest word; H letters are column-valid because P is; A letters
are column-valid by the Z3 constraints.  The width is m*T_H.  When that
equals the network's best lower bound (it does for every torus whose
binding bound is the per-letter bound of its longest side, or the counting
bound with all sides equal, if P is optimal) the table is optimal.

What is not proved.  That a lift exists: the Z3 problem may be unsat or
time out, and then this module says so (``LiftError``) rather than widen
the table.  Two assignment modes are tried in order, ``FIXED`` (copy k
takes one x for every h: a small model) and ``LATIN`` (x(k, h) free, each
h taking every x once: a larger model, more room).  Every delivered table
is re-checked by ``verify_table`` before it is returned.  A third mode,
``CYCLIC`` (``--mode cyclic``), asks for a Latin lift of a special form:
copy k of h takes x = k + t(h) mod m, one shift t(h) per h.  Its model is
the Latin one plus a shift section, so it admits fewer tables, but the
solver has m choices per h to make instead of a permutation.

A counting test comes first (:func:`boundary_cut`): in every mode each
factor word h has m - 1 copies with x != 0, and each of those puts a ring
letter in the column just before or just after h's copy, while a column
holds at most r ring letters (r = the ring's letter count).  A max flow
from copies to those boundary columns decides whether the factor table
leaves room; when it does not, no lift over that factor table exists in
any mode, and the min cut names the factor words and columns that show it.
The test is necessary, not sufficient: passing it says nothing.

The factor table comes from :func:`factor_table` (lift, then search, with
the chosen backend: ``--solver cpsat`` also searches the factor with
CP-SAT, which is how torus-8x10 reaches 100 and torus-6x8x10 600), or from
a file with ``--factor FILE`` (it must verify).

The package: :mod:`~tesearch.search.lift.model` (the split into ring and
factor, the 0/1 model and its sections), :mod:`~tesearch.search.lift.cut`
(the counting test), :mod:`~tesearch.search.lift.solvers` (Z3 and CP-SAT on
the model, decoding), :mod:`~tesearch.search.lift.driver` (factor tables,
modes, verification).  ``tesearch lift --help`` shows the command.
"""

from tesearch.search.lift.cut import BoundaryCut, boundary_cut
from tesearch.search.lift.driver import factor_table, lifted_table, verified_factor
from tesearch.search.lift.model import AssignMode, HWord, LiftModel, LiftParams, build_model, factor_words, ring_words, split_off
from tesearch.search.lift.solvers import decode, solve_cpsat, solve_z3, z3_solver

__all__ = ["AssignMode", "BoundaryCut", "HWord", "LiftModel", "LiftParams", "boundary_cut", "build_model", "decode",
           "factor_table", "factor_words", "lifted_table", "ring_words", "solve_cpsat", "solve_z3", "split_off",
           "verified_factor", "z3_solver"]
