"""Zoo entries of notebook 05, section 5: the baselines of Cho et al. Section 4.1 (Figure 1) on one task.

Every baseline is a decoder trained on the same task as plain coupling (``nb05-plain-s*``): balanced
1-10 digit sums in Cho et al.'s format ``$653+049=2070$`` (reversed, zero-padded answer), tested at the
same lengths on the same fixed test sets. Only the position information differs, and the budget: a
baseline enters the leaderboard's length comparison only once it masters its trained lengths (median
above 95% at 10 digits), so each gets the depth and the steps it needed (``docs/logs/flagship-log.md`` logs the
search). The budget is part of the entry, and the leaderboard prints it beside the accuracies.

* ``ape``: learned absolute positions 0, 1, 2, ... (no random start), the flagship's APE baseline.
* ``rsape``: random-start APE (Cho et al.; close to Ruoss et al.'s randomized positions): the IDs start at
  a random offset in training, so every row of the table up to the longest test is trained; 0 at test.
* ``nope``: no position encoding at all (Kazemnejad et al.): a causal decoder can still count.
* ``rope``, ``alibi``: rotary positions (Su et al.) and linear attention biases (Press et al.), both relative.
* ``hints``: index hints (Zhou et al.) in Cho's format (``cho_hints``), with random-start APE, as Cho et al.
  test them: a letter before every digit names its significance, so the sequence is twice as long.
* ``abacus``: McLeish et al.'s Abacus IDs (each number counted from its least significant digit) in a learned
  table with a random offset in training: coupling's idea per number, with the operators at 0.
* ``fire``: Li et al. 2024's FIRE, a learned function of the log distance normalised by the query's position
  (:class:`~lengen_utils.core.model.encodings.FireBias`), no absolute positions.
* ``fire-hints``: FIRE with index hints and random-start IDs, in Cho's reversed format: the recipe of Zhou et al.
  2024 ("Transformers can achieve length generalization but not robustly") at our scale.

Plain coupling and our variant (``nb05-plain``, ``nb05-both``) join the same leaderboard through their tag.
"""
from __future__ import annotations

from dataclasses import dataclass

from .catalog_nb05 import NB05_LENGTHS, NB05_SEEDS
from .entry import ZooEntry
from .flagship import ape_recipe
from .recipe import Recipe
from .registry import register_recipe

TAG = "nb05-baselines"
LONGEST = max(NB05_LENGTHS)


def _base(seed: int) -> ZooEntry:
    """Every baseline starts from the flagship APE recipe (lr 3e-3, weight decay 0.1, 128 problems per step,
    one problem per sequence), its table sized for the longest test (``LONGEST`` digits)."""
    return ape_recipe(seed=seed, max_length=LONGEST)


@dataclass(frozen=True)
class Baseline:
    """One row of the leaderboard: what it is, its overrides of the APE recipe (``SECTION.FIELD=VALUE``), and its
    budget."""
    label: str
    what: str
    overrides: tuple[str, ...]
    layers: int
    steps: int


# The budgets are the smallest of the search (docs/logs/flagship-log.md, "Baselines") at which seed 0 masters
# 1-10 digits: 3 layers and 4,000 steps for NoPE, RoPE, ALiBi, random-start APE and index hints. Plain APE
# fails in distribution with 3 layers x 6,000 steps and with 4 layers x 4,000, so it gets 3 layers x 10,000.
# Abacus masters in one seed of three with plain coupling's budget (1 layer x 2,000 steps, lr 1e-3) and in
# none with 2 layers; with the other baselines' recipe (lr 3e-3, weight decay 0.1) and 3 layers x 4,000 steps
# seed 0 masters (docs/logs/flagship-log.md, "Abacus").
BASELINES: dict[str, Baseline] = {
    "ape": Baseline("APE", "plain APE: learned absolute positions 0, 1, 2, ... (the flagship's baseline)",
                    (), 3, 10000),
    "rsape": Baseline("random-start APE", "random-start APE (Cho et al.; Ruoss et al.'s randomized positions)",
                      ("task.random_start=true",), 3, 4000),
    "nope": Baseline("NoPE", "NoPE: no position encoding (Kazemnejad et al.)", ("model.encoding=none",), 3, 4000),
    "rope": Baseline("RoPE", "RoPE: rotary position encoding (Su et al.)", ("model.encoding=rope",), 3, 4000),
    "alibi": Baseline("ALiBi", "ALiBi: linear attention biases (Press et al.)", ("model.encoding=alibi",), 3, 4000),
    # index hints double the sequence: a table of 256 rows places the longest test (Task.longest_operand)
    "hints": Baseline("index hints", "index hints (Zhou et al.) in Cho's format, random-start APE",
                      ("task.format=cho_hints", "task.random_start=true", "task.max_position=255",
                       "model.max_positions=256"), 3, 4000),
    # the operators have ID 0, and the table plain coupling's (IDs up to 64, random offset in training)
    "abacus": Baseline("Abacus", "Abacus IDs (McLeish et al.) in a learned table, random offset in training",
                       ("task.positions=abacus", "task.random_start=true", "task.max_position=64",
                        "model.max_positions=65"), 3, 4000),
    "fire": Baseline("FIRE", "FIRE: functional relative positions with progressive interpolation (Li et al. 2024)",
                     ("model.encoding=fire",), 3, 4000),
    # Zhou et al. 2024 train FIRE with index hints, reversed answers and randomized positions
    "fire-hints": Baseline("FIRE + index hints",
                           "FIRE with index hints (Zhou et al. 2024's recipe) in Cho's format, random-start IDs",
                           ("task.format=cho_hints", "model.encoding=fire", "task.random_start=true",
                            "task.max_position=255", "model.max_positions=256"), 3, 4000),
}


def baseline_recipe(method: str) -> Recipe:
    """The recipe ``nb05-base-{method}``: the APE recipe with the method's overrides and budget, seeds
    ``NB05_SEEDS``."""
    b = BASELINES[method]
    base = _base(0)
    return Recipe.from_entry(base, id="nb05-base").derive(
        f"nb05-base-{method}", *b.overrides, f"model.n_layers={b.layers}", f"train.steps={b.steps}",
        f"train.warmup_steps={min(100, b.steps // 10 + 1)}", seeds=NB05_SEEDS, eval_lengths=NB05_LENGTHS,
        eval_n=base.eval_n, tags=(TAG,),
        description=f"{b.what}; {b.layers} layer{'s' * (b.layers > 1)}, {b.steps:,} steps of {base.train.batch_size} "
                    f"problems; 1-10 digit sums, seed {{seed}} (notebook 05, baselines)")


#: ``{method: recipe}`` of the baselines (``"ape"`` -> ``"nb05-base-ape"``): code outside the catalog looks a
#: baseline's recipe up here instead of building its name
BASELINE_RECIPES: dict[str, str] = {method: register_recipe(baseline_recipe(method)).id for method in BASELINES}
