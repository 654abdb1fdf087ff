"""Contenders: every schedule the simulate study runs beside a table's own executors, as checked HopSchedules.

Issue 37: the combined executor's time owes nothing to the table being optimal, so the study shows table-free and
classic algorithms beside the table's executors and says what the table contributes.  Every contender here is a
builder returning a :class:`~tesearch.schedules.execute.hops.HopSchedule` whose ``check()`` passes, with a ``provenance``
naming its algorithm, parameters, seed and citation; :mod:`~tesearch.schedules.contenders.registry` lists them.

* :mod:`~tesearch.schedules.contenders.subject`: what a contender is built for (a network, optionally its verified table);
* :mod:`~tesearch.schedules.contenders.maps`: the table's paths in supersteps (combine.py's windows and balanced map, ported);
* :mod:`~tesearch.schedules.contenders.greedy`: greedy combining on shortest paths, no table, any Cayley network;
* :mod:`~tesearch.schedules.contenders.dimension`: dimension order on tori (several orders), Johnsson-Ho on hypercubes;
* :mod:`~tesearch.schedules.contenders.optimum`: superstep schedules with S = D and B = P, and what a schedule's standing is;
* :mod:`~tesearch.schedules.contenders.naive`: non-optimal tables (first-fit of naive words, the optimal table widened);
* :mod:`~tesearch.schedules.contenders.memory`: blocks a node holds between steps, exactly, from the routes;
* :mod:`~tesearch.schedules.contenders.axes`, :mod:`~tesearch.schedules.contenders.wordchoice`, :mod:`~tesearch.schedules.contenders.placing`:
  the building blocks (commuting axes, balanced word choice, superstep placement).
"""

from tesearch.schedules.contenders.registry import CONTENDERS, Built, Category, Contender, Scope, contender, contenders_for, window_contender
from tesearch.schedules.contenders.subject import Subject, subject_of

__all__ = ["CONTENDERS", "Built", "Category", "Contender", "Scope", "Subject", "contender", "contenders_for",
           "subject_of", "window_contender"]
