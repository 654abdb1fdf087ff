"""Making tables: the registry of every way a table is made (:mod:`~tesearch.search.strategies`), the width
loop with rotation blocks or in full (:mod:`~tesearch.search.core`, its parameters in
:mod:`~tesearch.search.params`), the symmetry-stratified search (:mod:`~tesearch.search.stratify`), ring lifts
for tori (:mod:`~tesearch.search.lift`), CP-SAT improvement and narrowing (:mod:`~tesearch.search.improve`,
:mod:`~tesearch.search.narrow`, :mod:`~tesearch.search.lanecore`), and portfolios run as Ray tasks
(:mod:`~tesearch.search.sweep`).

This face imports nothing, so that the registry and the sweep load no solver until a strategy runs.
"""
