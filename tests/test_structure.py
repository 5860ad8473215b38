"""The shape of the code, checked by reading it with `ast` (docs/architecture.md, "The map"):

- each app imports only the apps below it: directors, members, ladder (and billing beside it),
  clubs, matching; the project's helpers in config/ import no app;
- no import cycle among the modules, nor between rooms (an app's sub-packages and the modules
  at its top); size is no rule: cohesion decides where code lives;
- no private name is imported from another room, and no class is written twice;
- the pure parts (importers, pairing, policies, history, the grid keys, matching, the
  results vocabulary, the policies' names, the seasons' dates and honours) load no Django;
- page builders (members/pages/) never write;
- only ladder/store/ runs SQL of its own;
- no room imports another room's views.

Read with `ast`, so a circle or an import hidden inside a function counts too; imports under
`if TYPE_CHECKING:` are for type checkers only and do not. Each rule has a self-test that feeds
it a made-up module and expects it to complain, so a rule that can no longer fail shows.
"""

from __future__ import annotations

import ast
import functools
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APPS = ["clubs", "ladder", "matching", "billing", "members", "directors", "config"]


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


def _where(name: str, line: int) -> str:
    """`members/pages/tables.py:12`: a module and line as an editor opens them."""
    path = MODULES[name]
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    return f"{shown}:{line}"


def _tree(name: str) -> ast.Module:
    return _parsed(MODULES[name])


@functools.cache
def _parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _owner(target: str, importer: str) -> str | None:
    """The app module that `import target` loads (the longest known prefix), if any."""
    parts = target.split(".")
    while parts and ".".join(parts) not in MODULES:
        parts.pop()
    name = ".".join(parts)
    return name if name and name != importer else None


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _package(name: str) -> list[str]:
    return name.split(".") if MODULES[name].name == "__init__.py" else name.split(".")[:-1]


def import_targets(name: str) -> list[tuple[str, int]]:
    """(dotted target, line) of every import in `name`'s body, except for type checkers:
    `from a.b import c` gives both a.b and a.b.c, as c may be a module or a name in a.b."""
    package = _package(name)
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST) -> None:
        if _is_type_checking(node):
            return
        if isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                prefix = package[: len(package) - (node.level - 1)]
                base = ".".join([*prefix, base] if base else prefix)
            found.append((base, node.lineno))
            found.extend((f"{base}.{alias.name}", node.lineno) for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(_tree(name))
    return found


def import_sites(name: str) -> dict[str, int]:
    """Every app module `name` imports, with the first line that imports it."""
    sites: dict[str, int] = {}
    for target, line in import_targets(name):
        owner = _owner(target, name)
        if owner:
            sites.setdefault(owner, line)
    return sites


def imports_of(name: str) -> set[str]:
    """Every app module `name` imports anywhere in its body, except for type checkers."""
    return set(import_sites(name))


def import_cycles() -> list[list[str]]:
    """Strongly connected groups of more than one module, each sorted."""
    return _strongly_connected({name: imports_of(name) for name in MODULES})


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph.get(node, ()):
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


def _fake_modules(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, **sources: str) -> None:
    """Made-up modules for a self-test: `pkg__mod="source"` becomes module pkg.mod."""
    for key, source in sources.items():
        name = key.replace("__", ".")
        path = tmp_path / f"{name}.py"
        path.write_text(source)
        monkeypatch.setitem(MODULES, name, path)


# --- no circle, no long module ---------------------------------------------------------------


def test_no_import_cycle_among_the_apps_modules():
    assert import_cycles() == []


def test_the_cycle_check_finds_a_circle_hidden_inside_a_function(tmp_path, monkeypatch):
    _fake_modules(
        monkeypatch, tmp_path, first="import second\n", second="def later():\n    import first\n"
    )
    assert ["first", "second"] in import_cycles()


# --- apps in one order, sub-packages without a circle -----------------------------------------

# Each app imports only the apps below it (STYLE.md: imports flow one way): the data of clubs,
# players, events and ladders; the rating engine; what members read; what directors do.
# billing sits beside the engine (it reads the data; the pages and screens ask it about a
# subscription); matching is pure and below them all.
LAYERS = {"matching": 0, "clubs": 1, "ladder": 2, "billing": 2, "members": 3, "directors": 4}
# The project package's top imports every app: its settings, routes, probes and cron. Its
# helpers (environment, Redis clients, locks, the error page, middleware, the worker classes)
# serve every app, so they import none but pure matching.
PROJECT_TOP = {"config.urls", "config.health", "config.cron", "config.settings", "config.wsgi"}


def app_of(name: str) -> str:
    return name.split(".")[0]


def layer_violations() -> list[str]:
    """Each import of an app not below the importer's, and each import of the project's top
    (or, from one of the project's helpers, of an app other than matching)."""
    found = []
    for name in MODULES:
        app = app_of(name)
        for other, line in import_sites(name).items():
            there = app_of(other)
            if app in LAYERS and there in LAYERS and there != app and LAYERS[there] >= LAYERS[app]:
                found.append(f"{_where(name, line)}: {app} imports {other}, not below it")
            elif app in LAYERS and other in PROJECT_TOP:
                found.append(f"{_where(name, line)}: {app} imports the project's top, {other}")
            elif (
                app == "config"
                and name not in PROJECT_TOP
                and there in LAYERS.keys() - {"matching"}
            ):
                found.append(f"{_where(name, line)}: the project's helper imports {other}")
    return found


def test_each_app_imports_only_the_apps_below_it():
    assert set(LAYERS) | {"config"} == set(APPS)
    found = layer_violations()
    assert found == [], "\n".join(found)


def test_the_order_rule_finds_an_import_upwards_hidden_in_a_function(tmp_path, monkeypatch):
    _fake_modules(
        monkeypatch,
        tmp_path,
        ladder__made_up="def later():\n    from members.pages import tables\n",
        members__made_page="from ladder import made_up\n",
        config__made_helper="from clubs.models import Club\n",
    )
    found = layer_violations()
    assert any("made_up.py:2: ladder imports members.pages" in line for line in found)
    assert not any("made_page" in line for line in found)  # downwards: fine
    assert any(
        "made_helper.py:1: the project's helper imports clubs.models" in line for line in found
    )


def unit(name: str) -> str:
    """What the sub-package rule compares: a module's sub-package (ladder.store,
    directors.night), or a module of its own at an app's top (ladder.replay, config.urls)."""
    package = _package(name)
    return ".".join(package[:2]) if len(package) >= 2 else name


def subpackage_cycles() -> list[list[str]]:
    """Groups of sub-packages (and top modules) that import each other round a circle: the
    strongly connected groups of more than one, by the same search as the modules'."""
    graph: dict[str, set[str]] = {}
    for name in MODULES:
        graph.setdefault(unit(name), set()).update(
            unit(other) for other in imports_of(name) if unit(other) != unit(name)
        )
    return _strongly_connected(graph)


def test_no_import_cycle_between_sub_packages():
    """A module-level check lets two rooms lean on each other through different modules; this
    one does not: a sub-package can be read, changed and tested above the ones it imports."""
    assert subpackage_cycles() == []


def test_the_sub_package_rule_finds_a_circle_through_different_modules(tmp_path, monkeypatch):
    _fake_modules(
        monkeypatch,
        tmp_path,
        directors__made_a__views="from directors.made_b.forms import Form\n",
        directors__made_a__helpers="",
        directors__made_b__forms="from directors.made_a.helpers import clean\n",
    )
    assert import_cycles() == [] or all("made" not in " ".join(c) for c in import_cycles())
    assert ["directors.made_a", "directors.made_b"] in subpackage_cycles()


# --- nothing private crosses a room, no class is written twice ---------------------------------


def private_imports(name: str) -> list[str]:
    """`name`'s imports of a private name (`_x`) from a module of another room: what a room keeps
    to itself may change without notice, so what another needs is made public or moved."""
    found = []
    for node in ast.walk(_tree(name)):
        if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
            continue
        owner = _owner(node.module, name)
        if owner is None or room(owner) == room(name):
            continue
        found.extend(
            f"{_where(name, node.lineno)} imports {node.module}.{alias.name}, private to its room"
            for alias in node.names
            if alias.name.startswith("_") and not alias.name.startswith("__")
        )
    return found


def test_no_private_name_is_imported_across_rooms():
    found = [line for name in MODULES for line in private_imports(name)]
    assert found == [], "\n".join(found)


def test_the_private_rule_finds_a_private_name_from_another_room(tmp_path, monkeypatch):
    _fake_modules(
        monkeypatch,
        tmp_path,
        ladder__made_core="def _paused():\n    pass\n",
        ladder__impact__made_use="from ladder.made_core import _paused\n",
        ladder__impact__made_near="from ladder.impact.made_use import _x\n",
    )
    (found,) = private_imports("ladder.impact.made_use")
    assert "made_use.py:1 imports ladder.made_core._paused" in found
    assert private_imports("ladder.impact.made_near") == []  # the same room


def classes_written_twice() -> list[str]:
    """Classes whose whole definition (name, bases, body) appears in two modules: one class
    copied, which two rooms then change apart. Django's management `Command`s share a name,
    never a body."""
    seen: dict[str, str] = {}
    found = []
    for name in MODULES:
        for node in _tree(name).body:
            if isinstance(node, ast.ClassDef):
                body = ast.dump(node, include_attributes=False)
                if body in seen:
                    found.append(f"{node.name} in {name} is the one in {seen[body]}")
                seen.setdefault(body, name)
    return found


def test_no_class_is_written_twice():
    assert classes_written_twice() == []


def test_the_class_rule_finds_a_copied_class(tmp_path, monkeypatch):
    copied = 'class _DryRun(Exception):\n    """Rolls back a savepoint."""\n'
    _fake_modules(
        monkeypatch, tmp_path, ladder__made_one=copied, ladder__made_two=copied + "\n\nX = 1\n"
    )
    assert "_DryRun in ladder.made_two is the one in ladder.made_one" in classes_written_twice()


# --- the pure parts load no Django -----------------------------------------------------------

# Plain values in, plain values out, tested without a database (STYLE.md "Pure cores").
PURE = (
    "clubs.results",
    "clubs.rating_policies",
    "clubs.board_codes",
    "directors.night.agreement",
    "directors.importers",
    "directors.night.pairing",
    "ladder.policies",
    "ladder.history",
    "directors.grid_keys",
    "directors.events.result_changes",
    "directors.roster.close_names",
    "matching",
    "ladder.seasons.dates",
    "ladder.seasons.summary",
    "ladder.series",
)


def _is_pure(name: str) -> bool:
    return any(name == pure or name.startswith(f"{pure}.") for pure in PURE)


def loads(name: str) -> dict[str, int]:
    """The app modules that importing `name` runs, with the line that makes it: what it
    imports, the packages above each (Python runs a/__init__.py before a/b.py), and modules
    named whole in a string (the policy registry imports its policies by dotted name)."""
    sites = import_sites(name)
    parents = name.split(".")[:-1]
    for depth in range(1, len(parents) + 1):
        sites.setdefault(".".join(parents[:depth]), 0)
    for node in ast.walk(_tree(name)):
        if isinstance(node, ast.Constant) and node.value in MODULES and node.value != name:
            sites.setdefault(node.value, node.lineno)
    return sites


def django_imports(name: str) -> list[tuple[str, int]]:
    """(module, line) of each import of Django, once a line."""
    lines: dict[int, str] = {}
    for target, line in import_targets(name):
        if target.split(".")[0] == "django":
            lines.setdefault(line, target)
    return [(target, line) for line, target in lines.items()]


def django_reached(start: str) -> list[str]:
    """Each Django import that importing `start` runs, named with the chain that reaches it."""
    chains = {start: [start]}
    todo = [start]
    found = []
    while todo:
        name = todo.pop()
        for target, line in django_imports(name):
            path = " -> ".join(chains[name])
            found.append(f"{start} loads Django: {path}, {_where(name, line)} imports {target}")
        for other, line in loads(name).items():
            if other not in chains:
                via = _where(name, line) if line else f"the package above {name}"
                chains[other] = [*chains[name], f"{other} ({via})"]
                todo.append(other)
    return found


def test_the_pure_parts_load_no_django_themselves_or_through_what_they_import():
    pure = [name for name in MODULES if _is_pure(name)]
    assert len(pure) > len(PURE)  # the folders are there, and read
    found = sorted({line for name in pure for line in django_reached(name)})
    assert found == [], "\n".join(found)


def test_importing_the_pure_parts_in_a_fresh_interpreter_loads_no_django():
    # What the reading above cannot see (an import built at run time) shows here.
    pure = sorted(name for name in MODULES if _is_pure(name))
    script = (
        "import importlib, sys\n"
        f"for name in {pure!r}:\n"
        "    importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert loaded.stdout.strip() == "[]"


def test_the_pure_rule_finds_django_two_imports_away_inside_a_function(tmp_path, monkeypatch):
    _fake_modules(
        monkeypatch,
        tmp_path,
        matching__made_up="from clubs.helper import tidy\n",
        clubs__helper="import re\n\nfrom ladder.deep import x\n",
        ladder__deep="def later():\n    from django.db import models\n",
    )
    (found,) = {line for line in django_reached("matching.made_up") if "ladder.deep" in line}
    assert found.startswith("matching.made_up loads Django: matching.made_up -> clubs.helper")
    assert found.endswith("ladder.deep.py:2 imports django.db")


def test_the_pure_rule_follows_a_module_imported_by_its_name(tmp_path, monkeypatch):
    _fake_modules(
        monkeypatch,
        tmp_path,
        ladder__policies__made_up='import importlib\nMODULES = ("ladder.by_name",)\n',
        ladder__by_name="from django.conf import settings\n",
    )
    assert any("ladder.by_name" in line for line in django_reached("ladder.policies.made_up"))


# --- page builders never write ---------------------------------------------------------------

PAGE_BUILDERS = "members.pages"
# Called on anything: a model, a manager, a queryset, a related manager, the cache.
WRITE_METHODS = {
    "save",
    "delete",
    "create",
    "get_or_create",
    "update_or_create",
    "bulk_create",
    "bulk_update",
    "select_for_update",
}
SQL_METHODS = {"cursor", "execute", "executemany", "raw", "extra"}
# SQL that changes something, or locks: in a string of a function that opens a cursor.
WRITE_SQL = re.compile(r"\b(INSERT|UPDATE|DELETE|MERGE|TRUNCATE|COPY|LOCK|pg_advisory\w*)\b")


def write_sites(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, what) of each write the syntax shows. `.update(...)` counts with keyword
    arguments only, as QuerySet.update takes nothing else: set.update(x) and dict.update(x),
    which take a positional, do not."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            method = node.func.attr
            if method in WRITE_METHODS | SQL_METHODS:
                found.append((node.lineno, f".{method}()"))
            elif method == "update" and node.keywords and not node.args:
                found.append((node.lineno, ".update(field=...)"))
        if isinstance(node, ast.Attribute | ast.Name) and _name_of(node) in {"atomic", "RawSQL"}:
            found.append((node.lineno, _name_of(node)))
    return found


def _name_of(node: ast.Attribute | ast.Name) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id


def _writes_in(function: ast.AST) -> list[tuple[int, str]]:
    """A function's writes; a cursor, raw() or extra() counts when its SQL text changes
    something (a reader of ladder/store.py opens a cursor to SELECT)."""
    sql = " ".join(
        node.value
        for node in ast.walk(function)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    )
    return [
        (line, what)
        for line, what in write_sites(function)
        if what.strip(".()") not in SQL_METHODS or WRITE_SQL.search(sql)
    ]


def _bindings(name: str) -> dict[str, str]:
    """What each imported name of a module stands for: `club_changed` ->
    ladder.changes.club_changed, `performance` -> ladder.performance."""
    package = _package(name)
    bound: dict[str, str] = {}
    for node in ast.walk(_tree(name)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound[alias.asname or alias.name.split(".")[0]] = (
                    alias.name if alias.asname else alias.name.split(".")[0]
                )
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                prefix = package[: len(package) - (node.level - 1)]
                base = ".".join([*prefix, base] if base else prefix)
            for alias in node.names:
                bound[alias.asname or alias.name] = f"{base}.{alias.name}"
    return bound


def _callee(call: ast.Call, module: str, bound: dict[str, str]) -> str | None:
    """The app function a call names, `module.function`, when the syntax tells it."""
    parts = []
    func = call.func
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if not isinstance(func, ast.Name):
        return None
    parts.append(func.id)
    parts.reverse()
    if parts[0] in bound:
        dotted = ".".join([bound[parts[0]], *parts[1:]])
    elif len(parts) == 1:
        dotted = f"{module}.{parts[0]}"  # a function of the same module
    else:
        return None
    owner, _, function = dotted.rpartition(".")
    return dotted if owner in MODULES and "." not in function else None


def writing_functions() -> tuple[dict[str, str], dict[str, str]]:
    """The app's functions that write, `module.function` -> why, found by a fixed point: a
    function writes when its body does, or when it calls one that does. And the methods of
    the app's classes whose body writes, by name (club.rotate_secret() is a call on a value
    the syntax cannot type, so it is caught by the method's name)."""
    bodies: dict[str, tuple[str, ast.AST]] = {}
    methods: dict[str, str] = {}
    for name in MODULES:
        for node in _tree(name).body:
            if isinstance(node, ast.FunctionDef):
                bodies[f"{name}.{node.name}"] = (name, node)
            elif isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.FunctionDef) and not item.name.startswith("__"):
                        for line, what in _writes_in(item)[:1]:
                            methods[item.name] = f"{_where(name, line)} {what}"
    writes = {
        key: f"{_where(module, line)} {what}"
        for key, (module, body) in bodies.items()
        for line, what in _writes_in(body)[:1]
    }
    calls = {
        key: {
            callee
            for node in ast.walk(body)
            if isinstance(node, ast.Call) and (callee := _callee(node, module, bindings[module]))
        }
        for bindings in [{name: _bindings(name) for name in MODULES}]
        for key, (module, body) in bodies.items()
    }
    changed = True
    while changed:
        changed = False
        for key, callees in calls.items():
            if key not in writes and (through := sorted(callees & writes.keys())):
                writes[key] = f"calls {through[0]}, which writes ({writes[through[0]]})"
                changed = True
    return writes, methods


def page_writes(name: str, writes: dict[str, str], methods: dict[str, str]) -> list[str]:
    """What in page builder `name` writes: a write the syntax shows, a call to an app
    function that writes, or a call by the name of an app method whose body writes."""
    tree = _tree(name)
    bound = _bindings(name)
    found = [f"{_where(name, line)} writes: {what}" for line, what in write_sites(tree)]
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        callee = _callee(node, name, bound)
        if callee in writes and not callee.startswith(f"{name}."):
            found.append(f"{_where(name, node.lineno)} calls {callee}: {writes[callee]}")
        method = node.func.attr if isinstance(node.func, ast.Attribute) else None
        if method in methods and method not in WRITE_METHODS:
            found.append(f"{_where(name, node.lineno)} calls .{method}(): {methods[method]}")
    return found


def test_page_builders_never_write():
    """members/pages/ builds pages from what is stored; writing is the one door's (ladder.changes).

    What the check sees, by syntax alone: the ORM's write calls by method name on any value
    (`.save()`, `.delete()`, `.create()` and the rest of WRITE_METHODS; `.update(field=...)`,
    keywords only, which is QuerySet.update's only form), `atomic`, a cursor and its
    `execute()`, `raw()`, `extra()`, RawSQL; each call to an app function that writes itself
    or through the app functions it calls (a fixed point over every module), where a
    function's own cursor counts as a write when its SQL text shows INSERT, UPDATE, DELETE,
    MERGE, TRUNCATE, COPY, LOCK (upper case) or an advisory lock; and a call by the name of
    an app class's method whose own body writes.
    What it cannot see: a value whose type only running would tell (a function passed in and
    called, a method reached only through another method, a related manager's `add()`,
    `remove()`, `set()` and `clear()`, which share their names with a set's), SQL text built
    outside the function that runs it, and Django's own writes behind a call (a session, a
    cache, `login()`). It errs towards seeing a write where a plain object shares a name
    (`dict.update(a=1)`, a `.create()` of one's own), which a page builder can rename.
    """
    writes, methods = writing_functions()
    pages = [n for n in MODULES if n == PAGE_BUILDERS or n.startswith(f"{PAGE_BUILDERS}.")]
    assert len(pages) > 1
    found = [line for name in pages for line in page_writes(name, writes, methods)]
    assert found == [], "\n".join(found)


def test_the_write_rule_sees_orm_writes_and_not_a_set_update(tmp_path, monkeypatch):
    source = (
        "from django.db import transaction\n"
        "def build(club, seen):\n"
        "    seen.update({1, 2})\n"  # a set: not a write
        "    club.save()\n"
        "    Club.objects.filter(pk=1).update(name='x')\n"
        "    with transaction.atomic():\n"
        "        pass\n"
    )
    assert [(line, what) for line, what in write_sites(ast.parse(source))] == [
        (4, ".save()"),
        (5, ".update(field=...)"),
        (6, "atomic"),
    ]


def test_the_write_rule_follows_calls_into_functions_that_write(tmp_path, monkeypatch):
    _fake_modules(
        monkeypatch,
        tmp_path,
        members__pages__made_up=(
            "from ladder import made_store\n"
            "from ladder.made_door import changed\n"
            "def page(club):\n"
            "    changed(club)\n"
            "    made_store.read(club)\n"
            "    club.made_rotate()\n"
        ),
        ladder__made_door=(
            "from ladder.made_store import write\n"
            "def changed(club):\n"
            "    _later(club)\n"
            "def _later(club):\n"
            "    write(club)\n"
        ),
        ladder__made_store=(
            "def read(club):\n"
            "    with connection.cursor() as cursor:\n"
            "        cursor.execute('SELECT 1')\n"
            "def write(club):\n"
            "    with connection.cursor() as cursor:\n"
            "        cursor.execute('UPDATE x SET y = 1')\n"
            "class Model:\n"
            "    def made_rotate(self):\n"
            "        self.save(update_fields=['secret'])\n"
        ),
    )
    writes, methods = writing_functions()
    found = page_writes("members.pages.made_up", writes, methods)
    assert len(found) == 2 and "made_up.py:4 calls ladder.made_door.changed" in found[0]
    assert "made_store.py:5 .cursor()" in found[0]
    assert "made_up.py:6 calls .made_rotate()" in found[1]


# --- only ladder/store/ runs SQL of its own -------------------------------------------------

SQL_ALLOWED = {
    # The ladder's reads and writes that the ORM would make slow (COPY, LATERAL, arrays):
    # the package ladder/store/, the replay's rows, the players' lifetimes and the events'
    # standings (an event page's reads).
    "ladder.store",
    "ladder.store.players",
    "ladder.store.standings",
    # The database's own locks (PostgreSQL advisory locks), which the ORM cannot take and
    # which belong to no room: migrate's session lock. Its keys are kept apart from
    # ladder.store's per-club replay lock there.
    "config.db_locks",
}


def sql_sites(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, what) of each way to SQL of one's own: a cursor and its execute(), raw(),
    extra(), RawSQL."""
    found = []
    for node in ast.walk(tree):
        call = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        if call and node.func.attr in SQL_METHODS:
            found.append((node.lineno, f".{node.func.attr}()"))
        if isinstance(node, ast.Name | ast.Attribute) and _name_of(node) == "RawSQL":
            found.append((node.lineno, "RawSQL"))
        if isinstance(node, ast.ImportFrom) and any(a.name == "RawSQL" for a in node.names):
            found.append((node.lineno, "RawSQL"))
    return sorted(found)


def test_only_ladder_store_runs_sql_of_its_own():
    """Everything else asks the ORM, so the SQL that PostgreSQL and SQLite must both take, and
    that a schema change must follow, is in one place (and one more, for the locks)."""
    found = [
        f"{_where(name, line)} {what}"
        for name in MODULES
        if name not in SQL_ALLOWED
        for line, what in sql_sites(_tree(name))
    ]
    assert found == [], "\n".join(found)


def test_the_sql_rule_finds_a_cursor_raw_extra_and_rawsql():
    source = (
        "from django.db.models.expressions import RawSQL\n"
        "def f():\n"
        "    with connection.cursor() as c:\n"
        "        c.execute('SELECT 1')\n"
        "    Player.objects.raw('SELECT 1')\n"
        "    Player.objects.extra(where=['1'])\n"
        "    Player.objects.annotate(x=RawSQL('1', []))\n"
    )
    assert sql_sites(ast.parse(source)) == [
        (1, "RawSQL"),
        (3, ".cursor()"),
        (4, ".execute()"),
        (5, ".raw()"),
        (6, ".extra()"),
        (7, "RawSQL"),
    ]


# --- no room imports another room's views ----------------------------------------------------

# May import any room's views: the project's routes, and the readiness probe, which renders
# the home page as a visitor would (config/health.py).
VIEWS_OPEN_TO = {"config.urls", "config.health"}


def room(name: str) -> str:
    """A module's room: its app's subpackage (directors.night, members.web, clubs.management), or
    the app itself for a module at the top (directors.views, ladder.store, billing.views)."""
    return ".".join(_package(name)[:2])


def is_views(name: str) -> bool:
    return "views" in name.split(".")[-1]


def foreign_view_imports(name: str) -> list[str]:
    """`name`'s imports of another room's views (a urls.py's include("...urls") imports
    nothing, so it is not one)."""
    return [
        f"{_where(name, line)} imports {other}, a view module of {room(other)}"
        for other, line in import_sites(name).items()
        if is_views(other) and room(other) != room(name)
    ]


def test_no_room_imports_another_rooms_views():
    """A room's views are its door to the web; what another room needs of it (a form, a label,
    a helper) lives in a module that is not a view module, so a room can change its pages
    without breaking another's."""
    found = [
        line for name in MODULES if name not in VIEWS_OPEN_TO for line in foreign_view_imports(name)
    ]
    assert found == [], "\n".join(found)


def test_the_views_rule_finds_a_view_import_from_another_room(tmp_path, monkeypatch):
    _fake_modules(
        monkeypatch,
        tmp_path,
        clubs__made_room__urls="from clubs.other_room import confirm_views\n",
        clubs__made_room__views="from clubs.made_room import edit_views\n",
        clubs__made_room__edit_views="",
        clubs__other_room__confirm_views="",
    )
    assert foreign_view_imports("clubs.made_room.views") == []
    (found,) = foreign_view_imports("clubs.made_room.urls")
    assert "urls.py:1 imports clubs.other_room.confirm_views" in found
    assert (
        room("directors.views") == "directors"
        and room("directors.night.views") == "directors.night"
    )


# --- what the models and the pairing library may reach --------------------------------------


def test_models_import_only_models_and_the_vocabulary_they_store():
    # A pure vocabulary is fine: the game results and their translated labels (Game.result's
    # choices), the policies' names (Ladder.rating_policy's choices), the plan names and the
    # subscription state machine (billing.models stores what billing.state computes).
    # Anything that acts is not.
    vocabulary = {
        "clubs.results",
        "clubs.labels",
        "clubs.labels.results",
        "clubs.rating_policies",
        "billing.plans",
        "billing.state",
    }
    models = [n for n in MODULES if n == "clubs.models" or n.startswith("clubs.models.")]
    assert len(models) > 1, "clubs.models is a package of modules by area"
    for name in (*models, "ladder.models", "billing.models"):
        behaviour = {
            other
            for other in imports_of(name)
            if other not in vocabulary
            and other.split(".")[-1] != "models"
            and not other.startswith("clubs.models.")
            and other not in {"clubs", "ladder", "billing"}
        }
        assert behaviour == set(), f"{name} imports {sorted(behaviour)}"


def test_only_clubs_pairing_speaks_to_the_pairing_library():
    """The engine can change behind one module (issue 22: "keep clubs/pairing.py the only
    module that speaks to it"; directors/night/pairing.py since issue 25, the module
    directors/night/pairing/swiss.py since issue 34)."""
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
    assert speaking == {"directors.night.pairing.swiss"}
