"""The pipelined executor's rule: pieces per hop and window from the block size and the platform's link."""

import pytest

from tesearch.schedules.execute.pipeline import DEFAULT_LINK, Link, Pipeline, piece_target, pipeline_for

SMPI_LINK = Link(1e-6, 1e10, smpi_factors=True)


def test_the_piece_is_the_bandwidth_delay_product_rounded_down_to_a_power_of_two():
    assert piece_target(DEFAULT_LINK) == 8192  # 1 us x 10 GB/s = 10^4 bytes
    assert piece_target(Link(2e-6, 1e10)) == 16384
    assert piece_target(Link(1e-9, 1e8)) == 1  # less than a byte in flight: one-byte pieces


@pytest.mark.parametrize("link,size,expected", [
    (SMPI_LINK, 64 << 10, Pipeline(8, 5)),  # 8 KiB pieces: 2.19 us of latency, 0.75 us on the wire
    (DEFAULT_LINK, 64 << 10, Pipeline(8, 5)),  # 1 us of latency, 0.82 us on the wire: 4, made odd
    (SMPI_LINK, 1 << 20, Pipeline(16, 5)),  # at most 16 pieces: 64 KiB, 11.6 us of latency, 7.0 us on the wire
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
