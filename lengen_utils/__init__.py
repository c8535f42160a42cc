"""lengen_utils: the library behind the lengen course on length generalization in arithmetic.

The tree shows the layers, lowest first (nothing imports a layer above it; tests/test_layers.py checks):

    core/      base (constants, device, config_checks) -> problems (problems, carries, complexity,
               addition_steps, curriculum, boards.board) -> formats and positions (vocab, example, formats, positions,
               positions2d, boards.format, nxm.format, nxm.positions, text_filler, spaces) -> tasks (task_config,
               batches, task_base, tasks = the arithmetic task, boards.task = the 2-D task, nxm.task = N x M products)
               -> model, checkpoint -> train, train_runtime, compatibility, evaluate, multiseed
    analysis/  complexity, theory, constructions, interpret, generalization, probes, rpe_decline, nxm_measures
    lab/       zoo (recipes and their store), papers (the papers' setups, departures tables), bench, bench_recipes,
               leaderboard, long_eval, flagship_time, nxm_grid, cli, throughput, multiseed_bench, sweep, sweep_grid
    course/    notebook, plots, widgets, colab, common (what several chapters share: claims, the exercises' machinery,
               paper_scale, paper_claims, seeds, baselines' labels), and one folder per notebook, ch00_tour ...
               ch08_beyond, ch09_nxm
               (its sections' prose and claim checks, its exercises and solutions; no chapter imports another)

This module is the facade: it re-exports the everyday names, each written below (``__all__``), so that editors and
type checkers see them; no module of the package imports it. Modules are imported by their place in the tree
(``from lengen_utils.lab import zoo``), as the notebooks do. The short form of 0.2 and earlier (``from lengen_utils
import zoo``) still works in 0.2.x with a ``DeprecationWarning`` that names the full path, and goes in 0.3.
"""
import importlib
import warnings

from .core.constants import __version__

from .core.checkpoint import CheckpointError, load_model, save_model
from .core.device import pick_device, seed_everything, set_cpu_threads
from .core.compatibility import check_compatible
from .core.evaluate import EvaluationError, evaluate_length, evaluate_lengths, predict
from .core.formats import FORMATS, Example, FormatError, decode_answer, encode, render
from .core.model import ENCODINGS, ConfigError, ModelConfig, Transformer
from .core.positions import PositionRangeError, PositionScheme, abacus_ids, consecutive_ids, coupled_ids
from .core.problems import Problem, ProblemError, sample_balanced, sample_exact_length, sample_uniform
from .core.task_config import TaskConfig
from .core.tasks import Task
from .core.train import TrainConfig, fit

__all__ = [
    "CheckpointError", "load_model", "save_model", "pick_device", "seed_everything", "set_cpu_threads",
    "check_compatible", "EvaluationError", "evaluate_length", "evaluate_lengths", "predict", "FORMATS", "Example", "FormatError", "decode_answer",
    "encode", "render", "ENCODINGS", "ConfigError", "ModelConfig", "Transformer", "PositionRangeError",
    "PositionScheme", "abacus_ids", "consecutive_ids", "coupled_ids", "Problem", "ProblemError",
    "sample_balanced", "sample_exact_length", "sample_uniform", "Task", "TaskConfig", "TrainConfig", "fit",
]

#: short name -> its place in the tree: where the deprecated ``from lengen_utils import zoo`` points
_MOVED = {"complexity_sampling": "core.complexity", "board_format": "core.boards.format",
          "board_task": "core.boards.task"}       # the modules 0.3 renamed (one word per concept)
_SUBMODULES = {
    **dict.fromkeys(("constants", "device", "config_checks", "problems", "carries", "addition_steps", "curriculum",
                     "boards", "nxm", "positions2d", "formats", "vocab", "example", "positions", "text_filler", "spaces", "tasks",
                     "task_base", "task_config", "batches", "model", "checkpoint", "train", "train_config", "train_state", "train_runtime", "evaluate",
                     "compatibility", "multiseed"), "core"),
    **dict.fromkeys(("complexity", "theory", "constructions", "interpret", "generalization", "probes", "rpe_decline",
                     "nxm_measures"),
                     "analysis"),
    **dict.fromkeys(("zoo", "bench", "bench_recipes", "cli", "throughput", "multiseed_bench", "sweep", "sweep_grid",
                     "leaderboard", "long_eval", "flagship_time", "nxm_grid", "papers", "ledger", "experiment"), "lab"),
    **dict.fromkeys(("plots", "widgets", "notebook", "colab", "common", "ch00_tour", "ch01_formats", "ch02_ape",
                     "ch03_rpe", "ch04_upe", "ch05_coupling", "ch06_complexity", "ch07_theory", "ch08_beyond", "ch09_nxm"),
                    "course"),
}


def __getattr__(name: str):
    """Deprecated (0.2): a module by its short name (PEP 562), with a warning that names where it lives."""
    if name in _SUBMODULES or name in _MOVED:
        target = _MOVED.get(name) or f"{_SUBMODULES[name]}.{name}"
        place, _, leaf = f"{__name__}.{target}".rpartition(".")
        warnings.warn(f"`from {__name__} import {name}` is deprecated and goes in 0.3; write "
                      f"`from {place} import {leaf}`", DeprecationWarning, stacklevel=2)
        return importlib.import_module(f"{place}.{leaf}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

