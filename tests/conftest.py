import importlib.util
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tesearch.cli import main
from tesearch.groups import cached_cayley_graph
from tesearch.networks import network_from_spec

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def graph():
    """graph(spec) -> the CayleyGraph, built once per session."""
    return lambda spec: cached_cayley_graph(network_from_spec(spec))


def run_cli(*args, env=None):
    """``tesearch ARGS`` in process (click's runner): the result has exit_code, output, stdout, stderr."""
    return CliRunner().invoke(main, [str(a) for a in args], env=env)


def load_script(name: str):
    """A module of scripts/ (they are not a package), loaded once."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


@pytest.fixture(autouse=True)
def crash_files_in_tmp_path(tmp_path, monkeypatch):
    """Internal errors a test provokes write their traceback files under the test's tmp_path, not /tmp."""
    from tesearch.supervise import CRASH_DIR_VARIABLE

    monkeypatch.setenv(CRASH_DIR_VARIABLE, str(tmp_path))
