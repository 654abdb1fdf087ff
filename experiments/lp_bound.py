"""The LP relaxation of the table model at width W, by column generation: a measurement, not a bound.

Variables x[target, word, first column] in [0, 1]; maximise their sum subject to every target
placed at most once and every (column, letter) used at most once.  A table of width W exists
only if the optimum equals the number of targets.  Columns (placements) are priced by a dynamic
programme over the BFS levels: for every first column at once, the cheapest shortest word of
every element under the current (column, letter) duals; a target's placement enters when its
reduced cost is positive.  GLOP (OR-Tools) solves each restricted master in floating point, so
an optimum below the number of targets is evidence, not a certificate (docs/notes/frontier.md
quotes the values it gave: the LP adds nothing to the counting and per-letter bounds of
pancake-5 and bubblesort-5).

    python -m experiments.lp_bound pancake-5 106 107
    python -m experiments.lp_bound bubblesort-5 153 154
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tesearch.networks.groups import cayley_graph
from tesearch.networks.families import network_from_spec
from tesearch.networks.words import targets

INF = 1e18


class Pricing:
    """The network's BFS levels and, per level and letter, each element's predecessor."""

    def __init__(self, spec: str, exchange: str = "total"):
        cg = cayley_graph(network_from_spec(spec))
        self.cg = cg
        self.order, self.degree = cg.order, cg.degree
        self.diameter = int(cg.dist.max())
        self.levels = [0] + [int(np.searchsorted(cg.dist, d, side="right")) for d in range(self.diameter + 1)]
        self.preds = []
        for d in range(self.diameter + 1):
            a, b = self.levels[d], self.levels[d + 1]
            pred = [cg.right[cg.inverse_letter[k], a:b] for k in range(self.degree)]
            self.preds.append([(p, cg.dist[p] == d - 1) for p in pred])
        self.targets = [int(t) for t in targets(cg, exchange)]
        self.letters = int(cg.dist[self.targets].sum())

    def cheapest(self, duals: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
        """(cost[s, g], last letter[s, g]): the cheapest shortest word of g placed from column s."""
        cost = np.full((width, self.order), INF)
        cost[:, 0] = 0
        last = np.full((width, self.order), -1, dtype=np.int8)
        padded = np.vstack([duals, np.full((self.diameter + 1, self.degree), INF)])
        for d in range(1, self.diameter + 1):
            a, b = self.levels[d], self.levels[d + 1]
            best = np.full((width, b - a), INF)
            arg = np.full((width, b - a), -1, dtype=np.int8)
            column = np.arange(width) + d - 1
            for k, (p, ok) in enumerate(self.preds[d]):
                c = cost[:, p] + padded[column, k][:, None]
                c[:, ~ok] = INF
                better = c < best
                best[better] = c[better]
                arg[better] = k
            cost[:, a:b] = best
            last[:, a:b] = arg
        return cost, last

    def word(self, last: np.ndarray, start: int, g: int) -> tuple[int, ...]:
        """The cheapest word of g from column ``start``, read back from the last letters."""
        out = []
        while g != 0:
            k = int(last[start, g])
            out.append(k)
            g = int(self.cg.right[self.cg.inverse_letter[k], g])
        return tuple(reversed(out))


def lp_value(pricing: Pricing, width: int, per_target: int = 4, tol: float = 1e-9) -> tuple[float, int, int]:
    """(LP optimum, column-generation rounds, placements generated) at ``width``."""
    from ortools.linear_solver import pywraplp

    solver = pywraplp.Solver.CreateSolver("GLOP")
    inf = solver.infinity()
    once = {t: solver.Constraint(-inf, 1) for t in pricing.targets}
    cell = [[solver.Constraint(-inf, 1) for _ in range(pricing.degree)] for _ in range(width)]
    objective = solver.Objective()
    objective.SetMaximization()
    made: set = set()
    duals = np.zeros((width, pricing.degree))
    u = np.zeros(len(pricing.targets))
    columns = np.array(pricing.targets)
    rounds = 0
    while True:
        rounds += 1
        cost, last = pricing.cheapest(duals, width)
        reduced = cost[:, columns] + u[None, :]
        new = 0
        for j, t in enumerate(pricing.targets):
            for s in np.argsort(reduced[:, j])[:per_target].tolist():
                if reduced[s, j] >= 1 - tol:
                    break
                key = (t, s, pricing.word(last, s, t))
                if key in made:
                    continue
                made.add(key)
                new += 1
                x = solver.NumVar(0, 1, "")
                once[t].SetCoefficient(x, 1)
                for k, letter in enumerate(key[2]):
                    cell[s + k][letter].SetCoefficient(x, 1)
                objective.SetCoefficient(x, 1)
        if new == 0:
            # nothing priced in the first round: some target's words do not fit in the width at all
            return (objective.Value() if rounds > 1 else 0.0), rounds, len(made)
        solver.Solve()
        duals = np.array([[max(0.0, c.dual_value()) for c in row] for row in cell])
        u = np.array([max(0.0, once[t].dual_value()) for t in pricing.targets])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("network")
    ap.add_argument("widths", type=int, nargs="+")
    ap.add_argument("--exchange", default="total")
    args = ap.parse_args()
    pricing = Pricing(args.network, args.exchange)
    print(f"{args.network} {args.exchange}: {len(pricing.targets)} targets, {pricing.letters} letters, "
          f"{pricing.degree} letters per column")
    for width in args.widths:
        t0 = time.monotonic()
        value, rounds, made = lp_value(pricing, width)
        verdict = "feasible" if value > len(pricing.targets) - 1e-6 else "infeasible"
        print(f"W = {width}: LP optimum {value:.4f} of {len(pricing.targets)} ({verdict}); {rounds} rounds, "
              f"{made} placements, {time.monotonic() - t0:.1f} s", flush=True)


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
