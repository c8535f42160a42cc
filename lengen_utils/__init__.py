"""lengen_utils: the library behind the lengen course on length generalization in arithmetic.

The path data takes (one module per concept):

    Problem (problems) -> Example: tokens, targets, roles (formats) -> position IDs (positions)
    -> Batch (tasks) -> Transformer(ModelConfig) (model) -> fit (train) -> exact match (evaluate)
    -> figures and widgets (plots, widgets); the zoo (zoo, zoo_catalog) caches trained models in assets/.

Task complexity (carry cascades) lives in ``complexity``, the papers' theory in ``theory``.
"""
from .constants import __version__

from .checkpoint import CheckpointError, load_model, save_model
from .device import pick_device, seed_everything, set_cpu_threads
from .evaluate import evaluate_length, evaluate_lengths, predict
from .formats import FORMATS, Example, FormatError, decode_answer, encode, render
from .model import ENCODINGS, ConfigError, ModelConfig, Transformer
from .positions import PositionRangeError, PositionScheme, abacus_ids, consecutive_ids, coupled_ids
from .problems import Problem, ProblemError, sample_balanced, sample_exact_length, sample_uniform
from .tasks import Task, TaskConfig
from .train import TrainConfig, fit

__all__ = [
    "CheckpointError", "load_model", "save_model", "pick_device", "seed_everything", "set_cpu_threads",
    "evaluate_length", "evaluate_lengths", "predict", "FORMATS", "Example", "FormatError", "decode_answer",
    "encode", "render", "ENCODINGS", "ConfigError", "ModelConfig", "Transformer", "PositionRangeError",
    "PositionScheme", "abacus_ids", "consecutive_ids", "coupled_ids", "Problem", "ProblemError",
    "sample_balanced", "sample_exact_length", "sample_uniform", "Task", "TaskConfig", "TrainConfig", "fit",
]
