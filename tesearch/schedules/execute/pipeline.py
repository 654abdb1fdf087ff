"""The pipelined executor's pieces per hop and window, chosen from the block size and the platform's link.

The rule (docs/simulate.md, "The pipelined executor's rule"; measured in results/executors.md):

* **piece**: the link's bandwidth-delay product ``latency x bandwidth``, rounded down to a power of two (1 us at
  10 GB/s: 10^4 bytes, so 8 KiB), and never more than the block: ``P = ceil(B / piece)`` pieces per hop, at most
  :data:`MOST_PIECES` (16).  A piece that takes about one latency to cross is small enough that the pipeline fills
  in a few latencies and large enough that a handful in flight hide the latency; past 16 pieces a hop's pipeline
  fill is a sixteenth of a block per hop, and every further piece is one more message to simulate.  Under SimGrid's
  SMPI factors, fewer pieces if need be so that both lengths of the pieces (9/8 and 7/8 of the mean, te_run.c) get
  the same factors: a message of n bytes occupies its link for n / (factor x bandwidth), so a short piece just below
  a threshold costs the link more than a long one above it (1 MiB in 16 pieces: 72 KiB pieces get 0.94 of the
  bandwidth, 56 KiB ones 0.70; one link carrying them took 1.226x its bound, results/executors.md; 14 pieces of
  64 to 82 KiB all get 0.94);
* **window**: ``W = 2 + ceil(latency / piece time)`` pieces in flight per link, rounded up to an odd number, where
  the latency and the piece time are the message's own under the model (SimGrid's SMPI multiplies a message's
  latency and bandwidth by factors that depend on its size: :data:`SMPI_FACTORS`): enough that the next pieces'
  latency is spent while one crosses, one more so that the window is never the only thing between two pieces; odd,
  because the executor's pieces alternate between two lengths (te_run.c) and an even window holds whole long-short
  pairs, which SimGrid's fair sharing finishes together (docs/simulate.md measures it); at most ``max(2, P)``, so
  that a link's posted receives never hold more than one block.

A study runs the rule per block size (:meth:`tesearch.schedules.simulate.study.Workspace.resolved`), ``tesearch run
--mpi`` for its one size on :data:`DEFAULT_LINK`; a fixed ``P:W`` replaces it (``--pipelined 8:5``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: SimGrid 3.32's default SMPI factors (smpi/bw-factor, smpi/lat-factor): (from bytes, bandwidth x, latency x),
#: largest threshold first; a message of at least that many bytes gets those factors
SMPI_FACTORS = ((65472, 0.940694, 11.6436), (15424, 0.697866, 3.48845), (9376, 0.58729, 2.59299),
                (5776, 1.08739, 2.18796), (3484, 0.77493, 1.88101), (1426, 0.608902, 1.61075),
                (732, 0.341987, 1.9503), (257, 0.338112, 1.95341), (0, 0.338112, 2.01467))


@dataclass(frozen=True)
class Link:
    """One directed link of the platform and the model that times a message on it."""

    latency_s: float
    bandwidth_bps: float
    smpi_factors: bool = False  # SimGrid's SMPI model: per-size latency and bandwidth factors

    def message(self, nbytes: int) -> tuple[float, float]:
        """(latency, seconds on the wire) of one message of ``nbytes`` alone on the link."""
        bandwidth, latency = 1.0, 1.0
        if self.smpi_factors:
            bandwidth, latency = next((b, l) for start, b, l in SMPI_FACTORS if nbytes >= start)
        return self.latency_s * latency, nbytes / (self.bandwidth_bps * bandwidth)


#: the most pieces a hop is cut into by the rule
MOST_PIECES = 16

#: the study's link (docs/simulate.md: 1 us, 10 GB/s) without SimGrid's factors: ``tesearch run --mpi``'s rule
DEFAULT_LINK = Link(1e-6, 1e10)


@dataclass(frozen=True)
class Pipeline:
    """Pieces per hop and pieces in flight per link."""

    split: int
    inflight: int


def piece_target(link: Link) -> int:
    """The rule's piece: the bandwidth-delay product rounded down to a power of two (at least one byte)."""
    product = link.latency_s * link.bandwidth_bps
    return 1 << max(0, int(math.floor(math.log2(product)))) if product >= 1 else 1


def piece_lengths(block_bytes: int, split: int) -> tuple[int, int]:
    """The longest and the shortest of a hop's pieces but the last (te_run.c: 9/8 and 7/8 of the mean length)."""
    mean = block_bytes / split
    return math.floor(mean * 9 / 8), math.ceil(mean * 7 / 8)


def factor_band(nbytes: int) -> int:
    """Which of SimGrid's SMPI factor ranges a message of ``nbytes`` falls in (its threshold)."""
    return next(start for start, _, _ in SMPI_FACTORS if nbytes >= start)


def pipeline_for(block_bytes: int, *, link: Link = DEFAULT_LINK) -> Pipeline:
    """The rule's pieces per hop and window for blocks of ``block_bytes`` on ``link``."""
    if block_bytes < 1:
        raise ValueError("a block holds at least one byte")
    split = min(MOST_PIECES, max(1, math.ceil(block_bytes / piece_target(link))))
    if link.smpi_factors and split > 1:  # both lengths in one factor range, if fewer pieces can do it
        fits = [n for n in range(split, 1, -1) if len({factor_band(x) for x in piece_lengths(block_bytes, n)}) == 1]
        split = fits[0] if fits else split
    latency, wire = link.message(math.ceil(block_bytes / split))
    window = 2 + math.ceil(latency / wire)
    window += 1 - window % 2  # odd
    return Pipeline(split, min(window, max(2, split)))
