"""Where a model and a task first meet: refuse a pair of configs that contradict each other.

Each config checks itself when it is built; :func:`check_compatible` checks what only the pair can
tell, before any training or evaluation:

* the attention mask must match the format's layout. An encoder (``causal=False``) reading a decoder
  format such as Cho's sees the answer in its own input and scores a fake 100%; a decoder
  (``causal=True``) reading Sabbaghi's frame cannot see the digits right of an answer position.
* a learned position table must hold every ID the task may use: IDs ``0..max_position`` need
  ``max_positions >= max_position + 1`` rows.
* UPE needs one uniform vector per multiplier digit (``upe_slots >= k``).
* filler text (Sabbaghi Section 3.3) writes the text tokens, so the vocabulary must hold them (the
  arithmetic heads need the encoder, which ModelConfig and the layout check above already enforce).
* random spaces write the blank token, so the vocabulary must hold it; a looped model whose loops grow with
  the operand length needs one problem per row (``pack=1``).
* carry targets (``TaskConfig.carry_targets``) need a carry head with a class per carry value
  (``ModelConfig.carry_classes >= 9k``), and a carry head needs them: untrained, it would only add noise.
* the minesweeper task (Cho et al. Section 6.2) needs a decoder with two ID channels
  (``position_channels=2``: row, column) and a vocabulary that holds the mine token ``M``; the N x M task a decoder
  with three, and for Cho et al.'s scratchpad a vocabulary that holds the running-sum separator ``>``.
"""
from __future__ import annotations

from .formats import BLANK, TOKEN_ID, get_format
from .vocab import SUM_SEPARATOR, TEXT_VOCAB_SIZE
from .model import ConfigError, ModelConfig
from .task_config import TaskConfig

__all__ = ["check_compatible"]


def _check_table(m: ModelConfig, t: TaskConfig, ids: str) -> None:
    """A learned table needs a row for every ID ``0..max_position`` the task may use."""
    if m.encoding == "learned" and t.max_position >= m.max_positions:
        raise ConfigError(f"the task's {ids} reach max_position={t.max_position} but the model's learned "
                          f"table has max_positions={m.max_positions} rows (IDs 0..{m.max_positions - 1}); "
                          f"use ModelConfig(max_positions={t.max_position + 1}) or a smaller TaskConfig.max_position")


def _check_channels(m: ModelConfig, t: TaskConfig) -> None:
    """The minesweeper task (Cho et al. Section 6.2) hands a decoder 2 ID channels and the token 'M'."""
    channels = {"minesweeper": 2, "nxm": 3}.get(t.task, 1)
    if m.position_channels != channels:
        raise ConfigError(f"the {t.task} task gives {channels} position-ID channel(s) per token but the model has "
                          f"position_channels={m.position_channels}; use ModelConfig(position_channels={channels})")
    if t.task == "minesweeper":
        if not m.causal:
            raise ConfigError("the minesweeper format is read left to right (a decoder); use causal=True")
        if m.vocab_size <= TOKEN_ID["M"]:
            raise ConfigError(f"the minesweeper task writes the token 'M' (ID {TOKEN_ID['M']}) but the model's "
                              f"vocab_size={m.vocab_size}; use ModelConfig(vocab_size={TOKEN_ID['M'] + 1}) or more")
        _check_table(m, t, "row and column IDs")
    if t.task == "nxm":
        if not m.causal:
            raise ConfigError("an N x M scratchpad is written left to right (a decoder); use causal=True")
        if t.format == "cho_scratchpad" and m.vocab_size <= TOKEN_ID[SUM_SEPARATOR]:
            raise ConfigError(f"Cho et al.'s scratchpad writes {SUM_SEPARATOR!r} between running sums (ID "
                              f"{TOKEN_ID[SUM_SEPARATOR]}) but the model's vocab_size={m.vocab_size}; use "
                              f"ModelConfig(vocab_size={TOKEN_ID[SUM_SEPARATOR] + 1}) or more")
        _check_table(m, t, "row, column and level IDs")


def _check_carry_head(m: ModelConfig, t: TaskConfig) -> None:
    """Carry targets and the carry head come together, with a class for every carry the task can produce."""
    if t.carry_targets and m.carry_classes < t.carry_classes:
        raise ConfigError(f"carry_targets=True: a {t.multiplier_digits}-digit multiplier's carries take "
                          f"{t.carry_classes} values but the model has carry_classes={m.carry_classes}; use "
                          f"ModelConfig(carry_classes={t.carry_classes})")
    if m.carry_classes and not t.carry_targets:
        raise ConfigError(f"the model has a carry head (carry_classes={m.carry_classes}) but the task has no carry "
                          f"targets; use TaskConfig(carry_targets=True) or carry_classes=0")
    k = t.multiplier_digits if t.product_targets else 0
    if m.product_heads != k:
        raise ConfigError(f"the task has product targets for {k} multiplier digit(s) (product_targets="
                          f"{t.product_targets}) but the model has product_heads={m.product_heads}; use "
                          f"ModelConfig(product_heads={k})")


def check_compatible(model_config: ModelConfig, task_config: TaskConfig) -> None:
    """Raise :class:`ConfigError` naming the contradiction and its limit; return ``None`` if the pair fits."""
    if not isinstance(model_config, ModelConfig):
        raise ConfigError(f"expected a ModelConfig, got {type(model_config).__name__}")
    if not isinstance(task_config, TaskConfig):
        raise ConfigError(f"expected a TaskConfig, got {type(task_config).__name__}")
    m, t = model_config, task_config
    _check_channels(m, t)
    _check_carry_head(m, t)
    if t.task in ("minesweeper", "nxm"):
        return None
    layout = get_format(t.format).layout
    if layout == "decoder" and not m.causal:
        raise ConfigError(f"an encoder (causal=False) on the decoder format {t.format!r} sees the answer in its "
                          f"input and would score a fake 100%; decoder formats need causal=True "
                          f"(or use the encoder format 'sabbaghi')")
    if layout == "encoder" and m.causal:
        raise ConfigError(f"a decoder (causal=True) on the encoder format {t.format!r} cannot see the input "
                          f"digits right of an answer position; the encoder format needs causal=False")
    _check_table(m, t, "position IDs")
    if t.filler_max > 0 and m.vocab_size < TEXT_VOCAB_SIZE:
        raise ConfigError(f"filler_max={t.filler_max} writes text tokens (IDs up to {TEXT_VOCAB_SIZE - 1}) but the "
                          f"model's vocab_size={m.vocab_size}; use ModelConfig(vocab_size={TEXT_VOCAB_SIZE}) or more")
    if t.spaces > 0 and m.vocab_size <= TOKEN_ID[BLANK]:
        raise ConfigError(f"spaces={t.spaces} writes the blank token (ID {TOKEN_ID[BLANK]}) but the model's "
                          f"vocab_size={m.vocab_size}; use ModelConfig(vocab_size={TOKEN_ID[BLANK] + 1}) or more")
    if m.loops_per_digit > 0 and t.pack > 1:
        raise ConfigError(f"loops_per_digit={m.loops_per_digit} sets a row's loops from its problem's length, but "
                          f"pack={t.pack} puts problems of different lengths in one row; use pack=1")
    if m.encoding == "upe" and t.op == "*":
        k = t.multiplier_digits if t.multiplier_digits is not None else t.max_digits
        if k > m.upe_slots:
            raise ConfigError(f"the multiplier has up to {k} digits but the UPE model has upe_slots={m.upe_slots} "
                              f"uniform vectors; use upe_slots >= {k}")
