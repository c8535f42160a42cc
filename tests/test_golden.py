"""A golden model: a tiny config trained for 20 steps from a fixed seed must give the recorded losses and
weights. It fails in about a second when anything in the training path changes its numbers (sampling,
encoding, position IDs, packing, initialisation, the model, the loss, the optimizer or its schedule), where
otherwise only the slow retrain of a zoo entry (tests/test_assets.py) would notice.

The tolerance absorbs the last bits that the CPU thread count moves (about 1e-7); a real change moves the
losses by far more. After an intended change (or a torch upgrade that moves them), record the values that
the failure prints.
"""
import pytest
import torch

from lengen_utils.core.model import ModelConfig, Transformer
from lengen_utils.core.tasks import Task, TaskConfig
from lengen_utils.core.train import TrainConfig, fit

TASK = TaskConfig(format="cho", positions="coupled", max_digits=3, max_position=12, pack=2)
MODEL = ModelConfig(d_model=16, n_heads=2, d_ff=32, max_positions=13, relative_bias=True)
TRAIN = TrainConfig(steps=20, batch_size=8, lr=3e-3, warmup_steps=3, seed=7)
LOSSES = [4.46663065, 3.80934530, 3.48174840, 3.31672055]     # mean loss of steps 1-5, 6-10, 11-15, 16-20
WEIGHT_SUM = 49.5821623                                      # the sum of every parameter after training


def test_tiny_training_run_gives_the_recorded_losses_and_weights():
    torch.manual_seed(TRAIN.seed)
    model = Transformer(MODEL)
    result = fit(model, Task(TASK), TRAIN, progress=False, log_every=5)
    weights = sum(float(p.detach().double().sum()) for p in model.parameters())
    assert result.losses == pytest.approx(LOSSES, rel=1e-5), f"losses {result.losses}"
    assert weights == pytest.approx(WEIGHT_SUM, rel=1e-5), f"weight sum {weights!r}"
