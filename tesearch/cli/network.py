"""``tesearch info`` and ``tesearch bound``: what a network is, and what bounds its tables."""

from __future__ import annotations

import click

from tesearch.cli.options import EXCHANGE_OPTION, JSON_OPTION, OVERWRITE_OPTION, emit, limit_options, out_option


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
    from tesearch.facts.info import info_text, network_info
    from tesearch.running.limits import activated
    from tesearch.networks.families import network_from_spec
    from tesearch.running.supervise import supervise

    with activated(limits):
        net = network_from_spec(network)
    data = supervise(lambda: network_info(net, exchange), limits=limits, quiet=quiet)
    emit(data, as_json, info_text(data))


@click.command()
@click.argument("network")
@EXCHANGE_OPTION
@click.option("--lp-only", is_flag=True, help="Solve the LP relaxation only (a lower bound), not the integer model.")
@click.option("--no-symmetry", is_flag=True,
              help="Solve the LP model even where the network's rotation decides it (uniform letter weights).")
@out_option("Write a word-choice certificate (tesearch check-proof re-derives it) to this .json file.")
@OVERWRITE_OPTION
@JSON_OPTION
@limit_options(timeout_default=None)
def bound(network, exchange, lp_only, no_symmetry, out, force, as_json, limits, quiet):
    """The exact word-choice bound of NETWORK: the least possible count of the most-used letter over
    every choice of one shortest word per target, a lower bound on every table's width T.

    A single-commodity flow on the shortest-path DAG from the identity (every target a sink of demand 1)
    with each letter's load at most z: the LP relaxation (GLOP; its dual letter weights, made rational,
    certify ceil of the LP) and the integer optimum (HiGHS; its words certify the upper side, and a parity
    argument may certify the lower side above the LP).  A solver's optimality is never taken as proved:
    the certified lower bound and the best word choice are printed apart, EXACT only where they meet.
    Exit 0 when they meet (or with --lp-only), 4 otherwise.  Needs the cpsat extra (OR-Tools).
    """
    import sys

    from tesearch.running.files import CERTIFICATE_KIND, check_output
    from tesearch.running.limits import activated
    from tesearch.networks.families import network_from_spec
    from tesearch.running.supervise import supervise
    from tesearch.running.terms import ExitCode

    if out is not None:
        check_output(out, kind=CERTIFICATE_KIND, inputs=[], force=force)
    with activated(limits):
        net = network_from_spec(network)
    command = "tesearch " + " ".join(sys.argv[1:])

    def work():
        from tesearch.checking.certificate.make import word_choice_certificate
        from tesearch.facts.instance import instance
        from tesearch.running.limits import Budget
        from tesearch.facts.wordchoice import word_choice

        facts = instance(net, exchange)
        result = word_choice(facts, Budget.current().reserving(5.0, fraction=0.1), integer=not lp_only,
                             symmetry=not no_symmetry)
        certificate = None
        if out is not None:
            generators = {s: list(facts.cg.network.generators[s]) for s in facts.cg.letters}
            certificate = word_choice_certificate(result, name=out.stem, command=command, generators=generators)
        return result, certificate

    result, certificate = supervise(work, limits=limits, quiet=quiet)
    text = result.text()
    if certificate is not None:
        from tesearch.checking.certificate.make import write_certificate

        write_certificate(certificate, out, force=force)
        text += f"\nwrote {out}: lower {certificate['result']['lower']}, upper {certificate['result']['upper']}"
    emit(result.to_json(), as_json, text)
    return ExitCode.OK if result.exact or (lp_only and result.lp is not None) else ExitCode.UNKNOWN
