"""The model zoo: named, reproducible training runs cached in ``assets/``.

A zoo entry (:class:`ZooEntry`) is a name, a :class:`TaskConfig`, a :class:`ModelConfig`, a
:class:`TrainConfig` (whose seed also seeds the initialisation) and the lengths to evaluate; the
catalog (:mod:`.catalog`) lists them all, the flagship models of ``bench`` included
(``flagship-coupled`` and ``flagship-ape``: other names, :mod:`.aliases`, of ``nb05-sink-s0`` and
``nb05-base-ape-s0``). From a shell::

    python -m lengen_utils.lab.zoo list              # entries and whether they are built
    python -m lengen_utils.lab.zoo train NAME        # train, evaluate, save assets/zoo/NAME.safetensors, record it
    python -m lengen_utils.lab.zoo verify NAME       # re-measure the cached file, retrain from scratch, compare
    python -m lengen_utils.lab.zoo migrate --half NAME   # store a float32 entry in float16, re-measure it

``train`` records in ``assets/manifest.json``: the command, the configs, the seed used, the library
and torch versions, the measured metrics, the training time and the file's sha256; it replaces the
asset and the manifest together or not at all. New builds are stored in float16 (``"storage": "float16"``)
and measured after rounding, so the metrics are those of the stored weights. ``load(NAME)`` refuses a missing or altered file and
says which command rebuilds it; ``metrics(NAME)`` reads ``{length: exact match}`` from its record
(``entry_record``: the manifest's, or ``retired.json``'s once ``zoo retire NAME`` deleted the weights).

Environment: ``LENGEN_ASSETS=/some/folder`` makes the zoo read and write that folder (its
``manifest.json`` and ``zoo/*.safetensors``) instead of the repository's ``assets/``; use it to
build or verify entries without touching the committed files. ``LENGEN_THREADS`` sets the CPU threads.

Seeds are data: ``entry(NAME).recipe`` and ``.seed`` say which recipe and seed an entry is,
``recipe_entries(RECIPE)`` gives ``{seed: name}`` and ``entry_for(RECIPE, SEED)`` one seed's entry; code
outside the zoo uses these and never builds or parses ``-sN`` names.

Modules: ``registry`` (names, recipes and seeds), ``aliases`` (other names), ``flagship`` (the bench recipes),
``catalog`` (the entries: the lab's recipes and the chapters', found through the package's entry points),
``manifest`` (reading and checking the manifest), ``store`` (writing it atomically, with its asset, and repairing an
interrupted write), ``records`` (what is recorded without weights, retired or GPU-only), ``builder`` (train / load /
verify), ``runs`` (one recipe's runs in the store), ``commands`` (the command line). The entry and recipe dataclasses
are data in :mod:`lengen_utils.lab.experiment`.
"""
from .aliases import ALIASES, resolve
from .builder import build, check_buildable, live_curves, load, measure, train_entry, verify
from .catalog import ENTRIES, catalog, entry, register
from .commands import main
from ..experiment.entry import ZooEntry, ZooError, variant_id
from .flagship import ape_recipe, coupled_recipe, flagship_recipe
from .manifest import ASSETS, MANIFEST, REPO_ROOT, assets_dir, checkpoint_path, read_manifest
from ..experiment.recipe import Recipe, with_overrides
from .registry import RECIPES, entry_for, get_recipe, recipe_entries, register_recipe, with_one_role, with_role
from .runs import Runs, runs
from .store import commit, entry_record, manifest_record, metrics, per_digit, record_in_manifest

__all__ = [
    "ALIASES", "ASSETS", "ENTRIES", "MANIFEST", "RECIPES", "REPO_ROOT", "Recipe", "ZooEntry", "ZooError",
    "ape_recipe", "assets_dir", "build", "live_curves", "catalog", "check_buildable", "checkpoint_path", "commit",
    "coupled_recipe", "entry", "entry_for", "entry_record", "flagship_recipe", "get_recipe", "load", "main",
    "manifest_record",
    "measure", "metrics", "per_digit", "read_manifest", "recipe_entries", "record_in_manifest", "register",
    "register_recipe", "resolve", "Runs", "runs", "train_entry", "variant_id", "verify", "with_one_role",
    "with_overrides", "with_role",
]
