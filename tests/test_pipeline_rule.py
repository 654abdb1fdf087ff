"""The pipelined executor's rule: pieces per hop and window from the block size and the platform's link."""

import pytest

from tesearch.schedules.execute.pipeline import (DEFAULT_LINK, Link, Pipeline, factor_band, piece_lengths, piece_target,
                                                 pipeline_for)

SMPI_LINK = Link(1e-6, 1e10, smpi_factors=True)


def test_the_piece_is_the_bandwidth_delay_product_rounded_down_to_a_power_of_two():
    assert piece_target(DEFAULT_LINK) == 8192  # 1 us x 10 GB/s = 10^4 bytes
    assert piece_target(Link(2e-6, 1e10)) == 16384
    assert piece_target(Link(1e-9, 1e8)) == 1  # less than a byte in flight: one-byte pieces


@pytest.mark.parametrize("link,size,expected", [
    (SMPI_LINK, 64 << 10, Pipeline(8, 5)),  # 8 KiB pieces: 2.19 us of latency, 0.75 us on the wire
    (DEFAULT_LINK, 64 << 10, Pipeline(8, 5)),  # 1 us of latency, 0.82 us on the wire: 4, made odd
    (SMPI_LINK, 1 << 20, Pipeline(14, 5)),  # 16 pieces of 72 and 56 KiB straddle SMPI's 65472-byte factor threshold
    # 14 pieces: 82 and 64 KiB, both 0.94 of the bandwidth, 11.6 us of latency, 8.0 us on the wire
    (DEFAULT_LINK, 1 << 20, Pipeline(16, 3)),
    (DEFAULT_LINK, 8, Pipeline(1, 2)),  # a block smaller than a piece: one piece, two in flight
    (SMPI_LINK, 4096, Pipeline(1, 2)),
])
def test_the_rule_at_the_study_sizes(link, size, expected):
    assert pipeline_for(size, link=link) == expected


@pytest.mark.parametrize("size", [1, 7, 100, 4096, 10_000, 65_536, 1 << 20, (1 << 31) - 1])
def test_the_window_never_holds_more_than_a_block_of_pieces(size):
    for link in (DEFAULT_LINK, SMPI_LINK, Link(5e-6, 1e9)):
        chosen = pipeline_for(size, link=link)
        assert 1 <= chosen.split <= size and 2 <= chosen.inflight <= max(2, chosen.split)
        assert chosen.inflight % 2 == 1 or chosen.inflight == max(2, chosen.split)  # odd unless capped


def test_a_block_must_hold_a_byte():
    with pytest.raises(ValueError):
        pipeline_for(0)


@pytest.mark.parametrize("size", [65_536, 100_000, 300_000, 1 << 20, 3 << 20])
def test_under_smpi_both_piece_lengths_get_the_same_factors(size):
    """A message occupies its link for its bytes over (factor x bandwidth): a short piece just under a factor threshold
    costs more than a long one over it (1 MiB in 16 pieces: 1.226x the bound on one link, results/executors.md)."""
    chosen = pipeline_for(size, link=SMPI_LINK)
    long_piece, short_piece = piece_lengths(size, chosen.split)
    assert factor_band(long_piece) == factor_band(short_piece), (chosen, long_piece, short_piece)
    assert chosen.split <= pipeline_for(size).split  # fewer pieces, never more, than without the factors
