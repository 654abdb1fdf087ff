"""Fuzzing every subcommand with hostile specs, generator files, tables and certificates (issue 14).

Each case runs in its own process; the exit code must be documented, stderr must hold no traceback
and no internal error, and a failed run must leave every file as it was.  benchmarks/fuzz.py runs
thousands of cases and reports the count; this test runs a sample on every commit.
"""

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzzing import COMMANDS, cases, run_case

_counter = itertools.count()


def _check(case, tmp_path_factory):
    sandbox = tmp_path_factory.mktemp(f"case{next(_counter)}")
    outcome = run_case(case, sandbox)
    assert not outcome.problems(), f"tesearch {' '.join(case.args)}: {outcome.problems()}\n{outcome.stderr[-2000:]}"


@pytest.mark.parametrize("command", COMMANDS)
@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck), database=None, derandomize=True)
@given(data=st.data())
def test_hostile_input_everyday(command, data, tmp_path_factory):
    _check(data.draw(cases(command)), tmp_path_factory)


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS)
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(data=st.data())
def test_hostile_input_more(command, data, tmp_path_factory):
    _check(data.draw(cases(command)), tmp_path_factory)
