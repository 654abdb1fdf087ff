"""``tesearch info``: what a network is, and what bounds its tables."""

from __future__ import annotations

import click

from tesearch.cli.options import EXCHANGE_OPTION, JSON_OPTION, emit, limit_options


@click.command()
@click.argument("network")
@EXCHANGE_OPTION
@JSON_OPTION
@limit_options(timeout_default=None)
def info(network, exchange, as_json, limits, quiet):
    """Nodes, distances, status, bounds, rotation and exceptional words of NETWORK.

    NETWORK is a spec (star-5, hypercube-4, ring-6:cyclic, torus-4x4x8, pancake-5, bubblesort-4)
    or a path to a JSON file of generators.
    """
    from tesearch.info import info_text, network_info
    from tesearch.limits import activated
    from tesearch.networks import network_from_spec
    from tesearch.supervise import supervise

    with activated(limits):
        net = network_from_spec(network)
    data = supervise(lambda: network_info(net, exchange), limits=limits, quiet=quiet)
    emit(data, as_json, info_text(data))
