"""Constants shared across the library's layers (the lowest layer: it imports nothing).

Named once here so that a target mask, an evaluation set or a manifest can never disagree with
another module about them.
"""
from __future__ import annotations

#: The library version, recorded in every manifest entry (the package root re-exports it).
__version__ = "0.3.0"

#: Target value for tokens that carry no loss (prompt, padding); PyTorch's ``cross_entropy`` default.
IGNORE_INDEX = -100

#: Seed of the evaluation problems. Training seeds are small integers (0, 1, 2, ...); 999 keeps every
#: test set disjoint in its random stream from any training stream and identical across runs.
EVAL_SEED = 999

#: Seed of a fixed training set (``TaskConfig.train_set_size``): the same set for every run of a config.
TRAIN_SET_SEED = 1001

#: Seed of the validation set that checkpoint selection reads (``TrainConfig.select_lengths``): apart from the test
#: sets (``EVAL_SEED``), so a selected checkpoint is measured on problems it was not chosen on.
SELECT_SEED = 1002

#: Seed of the validation set that the stopping rule reads (``TrainConfig.stop_lengths``, trained lengths only):
#: apart from the test sets and from checkpoint selection's set.
STOP_SEED = 1003
