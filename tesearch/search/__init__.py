"""Every strategy that searches for a table: the width loop with rotation blocks or in full
(:mod:`~tesearch.search.core`), the symmetry-stratified search (:mod:`~tesearch.search.stratify`),
ring lifts for tori (:mod:`~tesearch.search.lift`) and CP-SAT improvement of a table
(:mod:`~tesearch.search.improve`).
"""

from tesearch.search.core import (Attempt, CoreSchedule, SearchParams, SearchRun, Searcher, Strategy, WordSampling,
                                  candidate_words, search)
from tesearch.terms import Status

__all__ = ["Attempt", "CoreSchedule", "SearchParams", "SearchRun", "Searcher", "Status", "Strategy", "WordSampling",
           "candidate_words", "search"]
