"""The package's shape (issue 15): no import circle (imports inside functions included), a docstring on every
public definition, no star imports, and the commands that must not load z3 do not."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "tesearch"


def modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """Every tesearch module ``name`` imports, at any depth of its code (functions too)."""
    tree = ast.parse(path.read_text())
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rsplit(".", 1)[0] if "." in target else ""
            if target and target != name and not name.startswith(target + "."):
                out.add(target)
    return out


def test_no_import_circle():
    found = modules()
    graph = {name: imported(name, path, set(found)) for name, path in found.items()}
    # a package __init__ that re-exports its submodules is not a circle with them
    for name in graph:
        graph[name] = {t for t in graph[name] if not (t.startswith(name + "."))}
    state: dict[str, int] = {}
    cycle: list[str] = []

    def visit(node: str, stack: list[str]) -> bool:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycle.extend(stack[stack.index(nxt):] + [node, nxt] if nxt in stack else [node, nxt])
                return True
            if state.get(nxt) is None and visit(nxt, stack + [nxt]):
                return True
        state[node] = 2
        return False

    for name in sorted(graph):
        if state.get(name) is None and visit(name, [name]):
            break
    assert not cycle, " -> ".join(cycle)


def test_every_public_definition_has_a_docstring():
    missing = []
    for name, path in modules().items():
        tree = ast.parse(path.read_text())
        if not ast.get_docstring(tree):
            missing.append(f"{name} (module)")
        for node in tree.body:
            nodes = [node] + ([n for n in node.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
                              if isinstance(node, ast.ClassDef) and not node.name.startswith("_") else [])
            for item in nodes:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                        and not item.name.startswith("_") and not ast.get_docstring(item):
                    owner = f"{node.name}." if item is not node else ""
                    missing.append(f"{name}.{owner}{item.name} ({path.relative_to(PACKAGE.parent)}:{item.lineno})")
    assert not missing, f"{len(missing)} public definitions without a docstring:\n" + "\n".join(missing)


def test_no_star_imports():
    offenders = [str(p) for p in PACKAGE.rglob("*.py") if "import *" in p.read_text()]
    assert not offenders


@pytest.mark.parametrize("modules_loaded", [
    "tesearch.cli.app", "tesearch.cli.network", "tesearch.networks", "tesearch.table", "tesearch.terms",
])
def test_light_modules_do_not_load_z3(modules_loaded):
    code = f"import sys, {modules_loaded}; print([m for m in ('z3', 'sympy', 'ortools') if m in sys.modules])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
