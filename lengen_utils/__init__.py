"""lengen_utils: the library behind the lengen course on length generalization in arithmetic.

The layers, lowest first (nothing imports a layer above it; tests/test_layers.py checks):

    base (constants, device, config_checks) -> problems (problems, carries, complexity_sampling)
    -> formats (vocab, example, formats), positions -> tasks (task_config, batches, tasks)
    -> model, checkpoint -> train, compatibility, evaluate, multiseed
    -> analysis (complexity, theory, constructions, interpret, generalization)
    -> course (zoo, bench, bench_recipes, leaderboard, throughput, sweep, sweep_grid, plots, widgets,
       notebook, cli)

This module is the facade: it re-exports the everyday names and is imported by no module of the package.
"""
from .constants import __version__

from .checkpoint import CheckpointError, load_model, save_model
from .device import pick_device, seed_everything, set_cpu_threads
from .compatibility import check_compatible
from .evaluate import EvaluationError, evaluate_length, evaluate_lengths, predict
from .formats import FORMATS, Example, FormatError, decode_answer, encode, render
from .model import ENCODINGS, ConfigError, ModelConfig, Transformer
from .positions import PositionRangeError, PositionScheme, abacus_ids, consecutive_ids, coupled_ids
from .problems import Problem, ProblemError, sample_balanced, sample_exact_length, sample_uniform
from .task_config import TaskConfig
from .tasks import Task
from .train import TrainConfig, fit

__all__ = [
    "CheckpointError", "load_model", "save_model", "pick_device", "seed_everything", "set_cpu_threads",
    "check_compatible", "EvaluationError", "evaluate_length", "evaluate_lengths", "predict", "FORMATS", "Example", "FormatError", "decode_answer",
    "encode", "render", "ENCODINGS", "ConfigError", "ModelConfig", "Transformer", "PositionRangeError",
    "PositionScheme", "abacus_ids", "consecutive_ids", "coupled_ids", "Problem", "ProblemError",
    "sample_balanced", "sample_exact_length", "sample_uniform", "Task", "TaskConfig", "TrainConfig", "fit",
]
