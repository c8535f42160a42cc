"""The recipe tables: the catalog they build is the golden one, and every chapter's ``recipes.py`` is plain data.

``tests/data/zoo_catalog_golden.json`` holds every entry (name, recipe, seed, the sha256 of its configs, test plan),
every alias and every declared recipe as the catalog built them before the recipes became tables; the tables must
reproduce it exactly (an entry's name and configs are what its cached weights and manifest record were built from).
The configs themselves are what the store records: every recorded entry is compared with its record field by field
(1.2 MB of golden configs became 0.26 MB of digests, issue 52).
"""
from __future__ import annotations

import ast
import hashlib
import json
import re
from pathlib import Path

import pytest

from lengen_utils.lab import zoo

GOLDEN = Path(__file__).resolve().parent / "data" / "zoo_catalog_golden.json"


def configs_digest(configs: dict) -> str:
    """The sha256 of ``{"task", "model", "train"}`` as canonical JSON: the golden file keeps this, not the configs
    (a recorded entry's configs are compared field by field with its record, test_every_recorded_entry_is_its_record)."""
    return hashlib.sha256(json.dumps(configs, sort_keys=True).encode()).hexdigest()


def catalog_dump() -> dict:
    """Every entry, alias and declared recipe of the zoo as JSON-ready data (the golden file's shape)."""
    out: dict = {"entries": {}, "aliases": dict(zoo.ALIASES), "recipes": {}}
    for name, e in zoo.catalog().items():
        out["entries"][name] = {
            "recipe": e.recipe, "seed": e.seed, "configs_sha256": configs_digest(e.configs()),
            "eval_lengths": list(e.eval_lengths), "eval_n": e.eval_n, "description": e.description,
            "tags": list(e.tags), "curve_every": e.curve_every, "seeded": e.seeded}
    for rid, r in zoo.RECIPES.items():
        configs = {"task": r.task.to_dict(), "model": r.model.to_dict(), "train": r.train.to_dict()}
        out["recipes"][rid] = {
            "configs_sha256": configs_digest(configs), "seeds": list(r.seeds),
            "eval_lengths": list(r.eval_lengths), "eval_n": r.eval_n, "description": r.description,
            "tags": list(r.tags), "curve_every": r.curve_every, "seed_in_name": r.seed_in_name}
    return json.loads(json.dumps(out))


def test_the_catalog_is_the_golden_one():
    golden = json.loads(GOLDEN.read_text())
    now = catalog_dump()
    assert now["aliases"] == golden["aliases"]
    assert sorted(now["entries"]) == sorted(golden["entries"]), (
        sorted(set(now["entries"]) ^ set(golden["entries"])))
    assert sorted(now["recipes"]) == sorted(golden["recipes"]), (
        sorted(set(now["recipes"]) ^ set(golden["recipes"])))
    changed = [n for n in golden["entries"] if now["entries"][n] != golden["entries"][n]]
    assert not changed, f"entries changed: {changed}"
    changed = [r for r in golden["recipes"] if now["recipes"][r] != golden["recipes"][r]]
    assert not changed, f"recipes changed: {changed}"


def test_every_recorded_entry_is_its_record():
    """What the store already records need not be kept twice: an entry with a record (stored, retired or GPU-only)
    has the configs and test lengths of that record, field by field (the golden file keeps only their digest)."""
    from lengen_utils.lab.zoo.builder import catalog_entry_of
    from lengen_utils.lab.zoo.records import read_measured
    measured = read_measured()
    recorded = [name for name in zoo.catalog() if name in measured]
    assert len(recorded) >= 300
    for name in recorded:
        catalog_entry_of(name, measured[name])


ROOT = Path(__file__).resolve().parent.parent / "lengen_utils"
RECIPE_MODULES = sorted(ROOT.glob("course/ch*/recipes.py")) + [ROOT / "lab" / "experiment" / "lab_recipes.py"]
OVERRIDE_STRING = re.compile(r"^\s*(task|model|train)\.\w+\s*=")
REFUSED_CALLS = {"register", "register_recipe", "register_all", "get_recipe", "derive", "from_entry", "with_overrides",
                 "add_alias", "entry_for", "format"}


def style_offences(source: str) -> list[str]:
    """What keeps a recipes module from being plain data: function or class definitions, loops and comprehensions
    (rows written out, not generated), f-strings or ``+`` on strings (ids and descriptions written out), string
    overrides (``"a.b=v"``: typed values instead), registration or lookup calls."""
    bad = []
    for node in ast.walk(ast.parse(source)):
        where = f"line {getattr(node, 'lineno', '?')}"
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            bad.append(f"{where}: a definition ({type(node).__name__})")
        elif isinstance(node, (ast.For, ast.While, ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp)):
            bad.append(f"{where}: a loop ({type(node).__name__}): write the rows out")
        elif isinstance(node, ast.JoinedStr):
            bad.append(f"{where}: an f-string")
        elif isinstance(node, ast.BinOp) and any(isinstance(side, (ast.Constant, ast.JoinedStr, ast.Name))
                                                 and not isinstance(getattr(side, "value", 0), (int, float))
                                                 for side in (node.left, node.right)):
            bad.append(f"{where}: an operator building a value from names or strings")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and OVERRIDE_STRING.match(node.value):
            bad.append(f"{where}: a string override {node.value!r}")
        elif isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in REFUSED_CALLS:
                bad.append(f"{where}: a call of {name}()")
    return bad


@pytest.mark.parametrize("path", RECIPE_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_recipes_are_plain_data(path):
    offences = style_offences(path.read_text())
    assert not offences, f"{path.name} is not plain data:\n" + "\n".join(offences)
    assert "TABLES" in {t.id for node in ast.parse(path.read_text()).body if isinstance(node, (ast.Assign, ast.AnnAssign))
                        for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                        if isinstance(t, ast.Name)}


@pytest.mark.parametrize("source", [
    "def f():\n    return 1\n", "X = [i for i in range(3)]\n", 'ID = f"nb05-{3}"\n', 'ID = "nb05-" + "x"\n',
    'T = {"plain": ("model.d_model=64",)}\n', 'R = get_recipe("nb05-plain")\n', "for x in y:\n    pass\n",
    'R = BASE.derive("x")\n'])
def test_the_style_check_sees_each_offence(source):
    assert style_offences(source)


def test_every_chapter_recipes_module_is_registered():
    import importlib
    catalog_module = importlib.import_module("lengen_utils.lab.zoo.catalog")
    registered = {Path(m.__file__).resolve() for m in catalog_module.RECIPE_MODULES}
    assert registered == {p.resolve() for p in RECIPE_MODULES}


def test_pyproject_declares_every_chapters_recipes_as_an_entry_point():
    """The zoo finds a chapter's recipes through the package's entry points (the lab imports no course module): a new
    chapter's ``recipes.py`` must be declared in pyproject.toml, named by its folder, or its entries do not exist."""
    import importlib
    catalog_module = importlib.import_module("lengen_utils.lab.zoo.catalog")
    declared = catalog_module.declared_in_pyproject(ROOT.parent / "pyproject.toml")
    expected = {p.parent.name: f"lengen_utils.course.{p.parent.name}.recipes"
                for p in ROOT.glob("course/ch*/recipes.py")}
    assert declared == expected


def test_a_missing_declaration_is_named(monkeypatch):
    import importlib
    from importlib import metadata

    catalog_module = importlib.import_module("lengen_utils.lab.zoo.catalog")
    monkeypatch.setattr(metadata, "entry_points", lambda: {})
    assert [m.__name__ for m in catalog_module.declared_modules()] == sorted(        # a checkout: its pyproject
        catalog_module.declared_in_pyproject().values())
    monkeypatch.setattr(catalog_module, "declared_in_pyproject", lambda: {})
    with pytest.raises(zoo.ZooError, match="no recipe tables are declared.*pip install -e ."):
        catalog_module.declared_modules()


def test_a_checkout_without_installed_metadata_finds_the_recipes(tmp_path):
    """Run from a copy of the source with no package metadata at all (as on a GPU machine's working tree)."""
    import shutil
    import subprocess
    import sys
    shutil.copytree(ROOT, tmp_path / "lengen_utils", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT.parent / "pyproject.toml", tmp_path / "pyproject.toml")
    code = ("import importlib.metadata as md; md.entry_points = lambda **kw: {}; "      # no installed metadata
            "import lengen_utils; from lengen_utils.lab import zoo; "
            "assert lengen_utils.__file__.startswith('" + str(tmp_path) + "'), lengen_utils.__file__; "
            "print(len(zoo.catalog()))")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-1500:]
    assert int(out.stdout) == len(zoo.catalog())


def test_ids_are_composed_by_the_table():
    from lengen_utils.course.ch05_coupling.recipes import ABLATION
    assert ABLATION.id("plain") == "nb05-plain" and ABLATION.recipe("plain") == zoo.get_recipe("nb05-plain")
    with pytest.raises(KeyError, match="no row"):
        ABLATION.id("nope")


def test_one_override_function_takes_typed_values_and_strings():
    from lengen_utils.lab.experiment.recipe import with_overrides
    base = zoo.get_recipe("nb05-plain")
    typed = with_overrides(base, {"model.d_model": 128, "train.lr": 0.01, "eval_n": 10, "seeds": (0, 1)})
    texts = with_overrides(base, ["model.d_model=128", "train.lr=0.01", "eval_n=10"])
    assert typed.model == texts.model and typed.train == texts.train and typed.eval_n == texts.eval_n == 10
    assert typed.seeds == (0, 1)
    with pytest.raises(ValueError, match="no such config field"):
        with_overrides(base, {"model.no_such": 1})
    with pytest.raises(ValueError, match="not a field"):
        with_overrides(base, {"id": "x"})


def test_the_lab_bases_are_the_flagship_functions_at_their_defaults():
    """bench builds the flagship at any budget with lab/zoo/flagship.py's functions; the tables' bases are their
    defaults, written out as data."""
    from lengen_utils.lab.experiment import lab_recipes as recipes
    from lengen_utils.lab.zoo import flagship
    for base, made in ((recipes.COUPLED, flagship.coupled_recipe()), (recipes.FLAGSHIP, flagship.flagship_recipe()),
                       (recipes.APE, flagship.ape_recipe())):
        assert (base.task, base.model, base.train) == (made.task, made.model, made.train)
        assert (base.eval_lengths, base.eval_n, base.description, base.tags) == (
            made.eval_lengths, made.eval_n, made.description, made.tags)
    reach, minute = recipes.FLAGSHIP_RUNS.recipe("reach"), recipes.FLAGSHIP_RUNS.recipe("minute")
    assert reach.entry(0) == flagship.reach_recipe(seed=0) and minute.entry(3) == flagship.minute_recipe(seed=3)
