"""The independent checking kernel: what one must read to trust a CONFIRMED.

Given a decoded tesearch-table v1 object, the kernel

* validates it by its own loader (:mod:`tesearch.checking.kernel.loader`);
* rebuilds the Cayley graph from the generators alone by one breadth-first
  search from the identity permutation (:mod:`tesearch.checking.kernel.graph`);
* checks seed 003 Theorem 1 itself (:mod:`tesearch.checking.kernel.theorem1`);
* derives lower bounds on T without a solver (:mod:`tesearch.checking.kernel.bounds`):
  the counting bound, set bounds (for a set A of letters, T*|A| >= the sum
  over targets of the fewest A-letters on a shortest word) and, where few
  elements have a choice of letter-count vectors, the exact per-letter
  optimum by enumeration.

Imports: the standard library, numpy, and tesearch's solver-free bottom layer
(:mod:`tesearch.running.terms`, :mod:`tesearch.running.errors`, :mod:`tesearch.running.files`,
:mod:`tesearch.running.limits`, :mod:`tesearch.networks.families`).  Never z3, sympy, networkx,
nor the prover's modules (groups, words, bounds, rotation, verify, encode,
search); ``tests/test_kernel.py`` holds it to that in a fresh interpreter.
Theorem 1 is checked twice in this project on purpose: by
:mod:`tesearch.tables.verify` on the prover side and by this kernel on the checking
side, and a test mutates tables and requires both to agree.
"""

from tesearch.checking.kernel.bounds import KernelBounds, SetBound, kernel_bounds
from tesearch.checking.kernel.graph import MAX_CHECK_NODES, RebuiltNetwork, build_network, element_of, inverse_letters
from tesearch.checking.kernel.loader import (InputFormat, LoadedInput, LoadedMessage, PortModel, check_generators,
                                    input_from_json, load_input)
from tesearch.checking.kernel.theorem1 import (KernelViolation, Rule, Theorem1Report, all_rules_hold, check_theorem1,
                                      target_mask)

__all__ = [
    "MAX_CHECK_NODES", "InputFormat", "KernelBounds", "KernelViolation", "LoadedInput", "LoadedMessage", "PortModel", "RebuiltNetwork",
    "Rule", "SetBound", "Theorem1Report", "all_rules_hold", "build_network", "check_generators", "check_theorem1", "element_of",
    "input_from_json", "inverse_letters", "kernel_bounds", "load_input", "target_mask",
]
