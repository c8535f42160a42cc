"""Zoo entries of notebook 08: the thesis's agenda beyond position encodings, one recipe per method, 3 seeds.

Every entry changes one thing in one base recipe, so each section compares like with like:

* the **base** (``nb08-direct``): a 2-layer decoder (d 64, 4 heads) with learned absolute positions (APE, IDs
  0, 1, 2, ... from ``$``), trained on balanced 1-5 digit sums in Cho et al.'s format ``$653+049=2070$`` and
  tested to 15 digits. CPU scale: the thesis trains on 1-17 digits (Chapter 4); we train on 1-5 so that 3 seeds
  of every method fit a laptop budget (a few minutes each on one thread). Plain APE masters 1-5 digits in about
  1,000 steps; random-start APE needed about 2,000 and left sub-tasks unlearned at 4,000 (docs/logs/nb08-log.md).
* section 1, the **compositionality gap** (tag ``nb08-gap``): the same decoder writing one sub-task of addition
  instead of the sum (formats ``cho_align``, ``cho_modsum``, ``cho_carries``), with APE and with coupled IDs
  (which hand the model the alignment).
* section 2, **random spaces** (``nb08-spaces``): the base with a blank in each gap between digits (probability
  0.2, training only), beside the base and random-start APE (randomized positions), the position-side cousin.
* section 3, **scratchpad** (``nb08-scratch``): the decoder writing each answer digit after its step (aligned
  pair, carry in), with APE and with coupled IDs (Cho et al., random start), each against its direct answer.
  Equal budget in tokens: a scratchpad sequence is about twice as long, so it sees half the problems per
  step (:data:`SCRATCH_BATCH`).
* section 4, **curriculum** (``nb08-curriculum``): short to long and easy to hard by carry cascade, the same
  number of problems as the base (short to long also with 2x the steps, the budget it needs to master).
* section 5, **looping** (``nb08-loop``): the base's 2-layer block, weight-shared, applied ``ceil(d / 2)`` times
  for ``d``-digit operands (at least twice), with input injection (McLeish et al.), with APE and with Abacus IDs
  (random offset in training, as McLeish et al.), beside the 2-layer Abacus decoder; and with ``abacus_eq``
  IDs (our departure: ``=``, the units digit's query, one ID below the units digits).

``python -m lengen_utils.lab.bench leaderboard --tag nb08`` prints them all, with their budgets.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace

from ...core.model import ModelConfig
from ...core.task_config import TaskConfig
from ...core.train import TrainConfig
from ...core.vocab import VOCAB
from .entry import ZooEntry
from .recipe import Recipe
from .registry import recipe_entries, register_recipe

TAG = "nb08"
NB08_SEEDS = (0, 1, 2)
TRAINED_DIGITS = 5                           # balanced 1..5-digit operands in training
NB08_LENGTHS = (3, 5, 6, 7, 8, 10, 12, 15)   # test operand lengths (exact: every test operand has L digits)
MAX_POSITION = 127                           # the APE table (128 rows): a 15-digit scratchpad needs 99 IDs
STEPS = 3000                                 # the base masters 5 digits by 1,000; curricula hold back the first half
RSAPE_STEPS = 4000                           # random-start APE masters 5 digits only after about 2,000
BATCH = 128                                  # problems per step (a scratchpad: SCRATCH_BATCH)
SCRATCH_BATCH = 64                           # about the base's tokens per step (a scratchpad doubles the text)
EVAL_N = 500
CURVE_EVERY = 250                            # the learning curve: EM at 5 digits every 250 steps (sample efficiency)
TRAINED_TAG = "nb08-trained"                 # the widget's other trained lengths (seed 0)
WIDGET_TRAINED = (3,)
WIDGET_METHODS = ("direct", "spaces", "scratch", "coupled", "coupled-scratch", "looped")


@dataclass(frozen=True)
class Method:
    """One recipe of notebook 08: what it is, its changes to the base, its section's tag and its budget."""
    label: str
    what: str
    tags: tuple[str, ...]
    task: dict = field(default_factory=dict)
    model: dict = field(default_factory=dict)
    batch_size: int = BATCH
    steps: int = STEPS


#: P(a blank) per gap: at 0.5 a 5-digit problem is almost never unspaced (1 in 256) and seed 0 did not master the
#: plain 5-digit test (6.8%, docs/logs/nb08-log.md); at 0.2 one in six is, and a problem moves by 1.6 IDs on average
SPACES = 0.2
#: the base's 2-layer block applied max(2, ceil(d / 2)) times: the same parameters, more passes on longer sums (a
#: 1-layer block with Abacus IDs left the units digit at chance, docs/logs/nb08-log.md)
_LOOPED = {"loops": 2, "loops_per_digit": 0.5, "input_injection": True}
_ABACUS = {"positions": "abacus", "max_position": 64, "random_start": True}
_COUPLED = {"positions": "coupled", "random_start": True}

METHODS: dict[str, Method] = {
    "direct": Method("direct answer", "the base: APE, the sum written directly",
                     ("nb08-gap", "nb08-spaces", "nb08-scratch", "nb08-curriculum", "nb08-loop")),
    "align": Method("sub-task: alignment", "the aligned digit pair of each column, units first",
                    ("nb08-gap",), {"format": "cho_align"}),
    "modsum": Method("sub-task: digit sum", "each column's digit sum mod 10, no carries",
                     ("nb08-gap",), {"format": "cho_modsum"}),
    "carries": Method("sub-task: carries", "the carry into each column", ("nb08-gap",), {"format": "cho_carries"}),
    "rsape": Method("random-start APE", "random-start APE: in training the IDs start at a random offset (Cho et "
                    "al.; Ruoss et al.'s randomized positions)", ("nb08-spaces",), {"random_start": True},
                    steps=RSAPE_STEPS),
    "spaces": Method("APE + random spaces", "APE, a blank in each gap between digits w.p. 0.2 in training",
                     ("nb08-spaces",), {"spaces": SPACES},
                     {"vocab_size": len(VOCAB)}),    # the blank token comes last in the vocabulary
    "scratch": Method("scratchpad", "APE, each answer digit after its step (pair, carry in)",
                      ("nb08-scratch",), {"format": "cho_scratchpad"}, batch_size=SCRATCH_BATCH),
    "coupled": Method("coupled IDs", "coupled IDs (Cho et al.), the sum written directly",
                      ("nb08-gap", "nb08-scratch"), _COUPLED),
    "coupled-align": Method("coupled IDs, sub-task: alignment", "coupled IDs, the aligned digit pair of each column",
                            ("nb08-gap",), {**_COUPLED, "format": "cho_align"}),
    "coupled-modsum": Method("coupled IDs, sub-task: digit sum", "coupled IDs, each column's digit sum mod 10",
                             ("nb08-gap",), {**_COUPLED, "format": "cho_modsum"}),
    "coupled-carries": Method("coupled IDs, sub-task: carries", "coupled IDs, the carry into each column",
                              ("nb08-gap",), {**_COUPLED, "format": "cho_carries"}),
    "coupled-scratch": Method("coupled IDs + scratchpad", "coupled IDs, each answer digit after its step",
                              ("nb08-scratch",), {**_COUPLED, "format": "cho_scratchpad"},
                              batch_size=SCRATCH_BATCH),
    "coupled-scratch-long": Method("coupled IDs + scratchpad, 2× steps", "coupled IDs, each answer digit after its "
                                   "step; the budget it needs to master 1-5 digits", ("nb08-scratch",),
                                   {**_COUPLED, "format": "cho_scratchpad"}, batch_size=SCRATCH_BATCH, steps=2 * STEPS),
    "length-curriculum": Method("curriculum: short to long", "lengths capped 1, 2, ..., 5 over the first half",
                                ("nb08-curriculum",), {"curriculum": "length"}),
    "length-curriculum-long": Method("curriculum: short to long, 2× steps", "lengths capped 1, 2, ..., 5 over the "
                                     "first half; the budget it needs to master 1-5 digits", ("nb08-curriculum",),
                                     {"curriculum": "length"}, steps=2 * STEPS),
    "cascade-curriculum": Method("curriculum: easy to hard", "carry cascades capped 0, 1, ..., 5 over the first "
                                 "half (notebook 06)", ("nb08-curriculum",), {"curriculum": "cascade"}),
    "looped": Method("looped", "the 2-layer block looped max(2, ceil(d/2)) times with input injection, APE",
                     ("nb08-loop",), model=_LOOPED),
    "abacus": Method("Abacus", "Abacus IDs (McLeish et al.), 2 layers", ("nb08-loop",), _ABACUS),
    "abacus-looped": Method("Abacus + looped", "Abacus IDs, the 2-layer block looped max(2, ceil(d/2)) times "
                            "with input injection (McLeish et al.)", ("nb08-loop",), _ABACUS, _LOOPED),
    # the looped Abacus model writes every digit but the units past the trained range; the units digit's query, =,
    # has Abacus ID 0 and no ID relation to the digits it must read (docs/logs/nb08-log.md): here = sits one below them
    "abacus-eq": Method("Abacus (= one below the units)", "Abacus IDs with = at the offset, one below the units "
                        "digits (our departure), 2 layers: the control for the looped model", ("nb08-loop",),
                        {**_ABACUS, "positions": "abacus_eq"}),
    "abacus-eq-looped": Method("Abacus (= one below the units) + looped", "Abacus IDs with = at the offset, one "
                               "below the units digits (our departure), the 2-layer block looped max(2, ceil(d/2)) "
                               "times with input injection", ("nb08-loop",), {**_ABACUS, "positions": "abacus_eq"},
                               _LOOPED),
}


def base_recipe(seed: int = 0) -> ZooEntry:
    """The base of every notebook-08 entry (``nb08-direct``)."""
    task = TaskConfig(op="+", format="cho", positions="consecutive", sampler="balanced", min_digits=1,
                      max_digits=TRAINED_DIGITS, random_start=False, max_position=MAX_POSITION)
    model = ModelConfig(d_model=64, n_layers=2, n_heads=4, d_ff=128, encoding="learned",
                        max_positions=MAX_POSITION + 1)
    train = TrainConfig(steps=STEPS, batch_size=BATCH, lr=3e-3, weight_decay=0.1, warmup_steps=100, seed=seed)
    return ZooEntry(name=Recipe.id_with_seed("nb08-direct", seed), task=task, model=model, train=train,
                    eval_lengths=NB08_LENGTHS, eval_n=EVAL_N, tags=(TAG,), curve_every=CURVE_EVERY)


BASE = Recipe.from_entry(base_recipe(), seeds=NB08_SEEDS)      # nb08-direct, before its description


def nb08_recipe(method: str, trained: int = TRAINED_DIGITS) -> Recipe:
    """The recipe ``nb08-{method}`` (trained on 1-5 digits, seeds ``NB08_SEEDS``) or ``nb08-{method}-l{trained}``
    (seed 0): the base with the method's changes and budget."""
    m = METHODS[method]
    overrides = [f"task.max_digits={trained}", *_as_overrides("task", m.task), *_as_overrides("model", m.model),
                 f"train.steps={m.steps}", f"train.batch_size={m.batch_size}"]
    if m.task.get("max_position", MAX_POSITION) != MAX_POSITION:
        overrides.append(f"model.max_positions={m.task['max_position'] + 1}")
    long = trained != TRAINED_DIGITS
    return BASE.derive(
        f"nb08-{method}-l{trained}" if long else f"nb08-{method}", *overrides,
        seeds=(0,) if long else NB08_SEEDS, tags=(TRAINED_TAG,) if long else (TAG,) + m.tags,
        description=f"{m.what}; 1-{trained} digit sums, {m.steps:,} steps of {m.batch_size} problems, seed {{seed}} "
                    f"(notebook 08)")


def _as_overrides(section: str, fields: dict) -> list[str]:
    """A method's field changes as ``SECTION.FIELD=VALUE`` overrides (values as JSON)."""
    return [f"{section}.{name}={json.dumps(value)}" for name, value in fields.items()]


def nb08_entry(method: str, seed: int, trained: int = TRAINED_DIGITS) -> ZooEntry:
    """One seed of :func:`nb08_recipe`: ``nb08-{method}-s{seed}`` or ``nb08-{method}-l{trained}-s{seed}``."""
    return replace(nb08_recipe(method, trained), seeds=(seed,)).entry(seed)


#: ``{method: recipe}`` (``"direct"`` -> ``"nb08-direct"``): code outside the catalog looks a method's recipe up
#: here instead of building its name
NB08_RECIPES: dict[str, str] = {method: register_recipe(nb08_recipe(method)).id for method in METHODS}
#: the widget's other trained lengths, seed 0 of the methods the sections compare on length:
#: ``{(trained length, method): recipe}``, ``(3, "direct")`` -> ``"nb08-direct-l3"``
NB08_TRAINED_RECIPES: dict[tuple[int, str], str] = {
    (k, method): register_recipe(nb08_recipe(method, k)).id for k in WIDGET_TRAINED for method in WIDGET_METHODS}


def widget_choices() -> dict[tuple[int, str], list[str]]:
    """``{(trained length, method label): [zoo entries, one per seed]}`` for notebook 08's explorer."""
    out: dict[tuple[int, str], list[str]] = {}
    for method, m in METHODS.items():
        out[(TRAINED_DIGITS, m.label)] = list(recipe_entries(NB08_RECIPES[method]).values())
        for k in WIDGET_TRAINED:
            if method in WIDGET_METHODS:
                out[(k, m.label)] = list(recipe_entries(NB08_TRAINED_RECIPES[k, method]).values())
    return out
