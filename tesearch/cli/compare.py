"""``tesearch compare``: a table or a network against shortest-path, dimension-ordered and the node-invariant
FIFO schedule of Dimakopoulos and Dimopoulos (2001, "Optimal total exchange in Cayley graphs")."""

from __future__ import annotations

import click

from tesearch.baselines import Engine
from tesearch.baselines.fifo import InjectionOrder
from tesearch.cli.options import JSON_OPTION, emit, limit_options
from tesearch.running.terms import ExitCode


@click.command()
@click.argument("target", metavar="NETWORK|TABLE")
@click.option("--order", type=click.Choice([o.value for o in InjectionOrder]),
              default=InjectionOrder.FARTHEST_FIRST.value,
              show_default=True, help="Order of a node's own messages in its link queues at step 0.")
@click.option("--engine", type=click.Choice([e.value for e in Engine]), default=Engine.ONE_NODE.value,
              show_default=True, help="one-node: the identity's queues (exact by symmetry, fast); all-nodes: "
                                      "every node and message (N^2 memory), the cross-check.")
@JSON_OPTION
@limit_options(timeout_default=None)  # no search: it runs to its end (tesearch.cli.options.SEARCH_TIMEOUT_S)
def compare(target, order, engine, as_json, limits, quiet):
    """Steps, peak buffer and link use of the schedules users would run, beside a table's T and the bound.

    TARGET is a network spec (star-5, torus-4x4x8) or a tesearch-table v1 file (.json) of a total exchange.
    A table's T is taken as the file states it (`tesearch verify` and `tesearch replay` check it); the
    baselines are simulated, and every schedule is measured the same way.
    """
    from tesearch.schedules.compare import compare as run_compare, compare_text, load_target
    from tesearch.running.limits import activated
    from tesearch.running.supervise import supervise

    with activated(limits):  # a spec's size is refused at once; a table is checked where --timeout holds
        net, table = supervise(lambda: load_target(target), limits=limits, quiet=quiet)
    path = target if table is not None else None
    work = lambda: run_compare(net, table, table_path=path, order=InjectionOrder(order),  # noqa: E731
                               engine=Engine(engine))
    data = supervise(work, limits=limits, quiet=quiet)
    emit(data, as_json, compare_text(data))
    return ExitCode.OK
