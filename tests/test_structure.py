"""The shape of the code: no import cycle among the apps' modules, no app module too long.

Read with `ast`, so a circle hidden behind an import inside a function counts too;
imports under `if TYPE_CHECKING:` are for type checkers only and do not.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APPS = ["clubs", "ladder", "matching", "billing", "config"]
MAX_MODULE_LINES = 500


def app_modules() -> dict[str, Path]:
    modules = {}
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


MODULES = app_modules()


def _owner(target: str, importer: str) -> str | None:
    """The app module that `import target` loads (the longest known prefix), if any."""
    parts = target.split(".")
    while parts and ".".join(parts) not in MODULES:
        parts.pop()
    name = ".".join(parts)
    return name if name and name != importer else None


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imports_of(name: str) -> set[str]:
    """Every app module `name` imports anywhere in its body, except for type checkers."""
    path = MODULES[name]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if _is_type_checking(node):
            return
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                prefix = package[: len(package) - (node.level - 1)]
                base = ".".join([*prefix, base] if base else prefix)
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            targets = []
        for target in targets:
            owner = _owner(target, name)
            if owner:
                found.add(owner)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def import_cycles() -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), each sorted."""
    graph = {name: imports_of(name) for name in MODULES}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph[node]:
            if other not in index:
                connect(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for name in graph:
        if name not in index:
            connect(name)
    return cycles


def test_no_import_cycle_among_the_apps_modules():
    assert import_cycles() == []


def test_the_cycle_check_finds_a_circle_hidden_inside_a_function(tmp_path, monkeypatch):
    first = tmp_path / "first.py"
    second = tmp_path / "second.py"
    first.write_text("import second\n")
    second.write_text("def later():\n    import first\n")
    monkeypatch.setitem(MODULES, "first", first)
    monkeypatch.setitem(MODULES, "second", second)
    assert ["first", "second"] in import_cycles()


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_app_module_is_over_500_lines(name):
    lines = len(MODULES[name].read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_MODULE_LINES, f"{name} has {lines} lines"


def test_models_import_no_behaviour_from_ladder_or_billing():
    # A pure vocabulary (ladder.results, and its translated labels in ladder.labels.results,
    # which are Game.result's choices) is fine; anything that acts is not. Pure too, reading
    # no database and calling nothing outside: the policy registry (Club.rating_policy's
    # choices are its names and labels), the plan names and the subscription state machine
    # (billing.models stores what billing.state computes).
    vocabulary = {
        "ladder.results",
        "ladder.labels.results",
        "ladder.policies",
        "billing.plans",
        "billing.state",
    }
    models = [n for n in MODULES if n == "clubs.models" or n.startswith("clubs.models.")]
    assert len(models) > 1, "clubs.models is a package of modules by area"
    for name in (*models, "ladder.models", "billing.models"):
        behaviour = {
            other
            for other in imports_of(name)
            if other.split(".")[0] in {"ladder", "billing"}
            and other not in vocabulary
            and not other.endswith(".models")
        }
        assert behaviour == set(), f"{name} imports {sorted(behaviour)}"


def test_only_clubs_pairing_speaks_to_the_pairing_library():
    """The engine can change behind one module (issue 22: "keep clubs/pairing.py the only
    module that speaks to it"; clubs/night/pairing.py since issue 25)."""
    speaking = set()
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                targets = [node.module or ""]
            else:
                continue
            if any(target.split(".")[0] == "py4swiss" for target in targets):
                speaking.add(name)
    assert speaking == {"clubs.night.pairing"}
