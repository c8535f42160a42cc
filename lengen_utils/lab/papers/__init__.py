"""Departures as data: each reproduced paper claim's setup, written once, and the table that compares a recipe to it.

A paper's setup is a :class:`PaperSetup`: the claim (``"sabbaghi-a2"``), the citation, the claim in the paper's
words, and one :class:`Stated` value per compared field (:data:`COMPARED`: format, position IDs, frame, trained
lengths, sampler, training set, sizes, dropout, norm, optimizer, schedule, steps, checkpoint selection...). A
:class:`Stated` value says where it comes from:

* ``paper``: the paper's text states it;
* ``implied``: it follows from what the paper names without being written out (Huggingface BERT's post-LN blocks);
* ``code``: the authors' public code at the paper's time states it, not the paper (Cho et al.'s hyper-parameters are
  in their Appendix C, which the course's copy of the paper lacks; their scripts, HanseulJo/position-coupling at the
  v1 commit 0c72d14, set them);
* ``not stated`` (:func:`not_stated`, value ``None``): nothing says it; the row shows our value and "not stated".
  A value is never made up to fill a field.

:func:`departures` compares a recipe with a setup, one :class:`Departure` row per compared field, and
:func:`departures_table` renders them as plain dicts (:func:`to_markdown` turns them into a Markdown table).

What the table does not compare, the completeness check catches. Each claim has one *reference recipe*
(:func:`reference_recipe`): the recipe closest to the paper. It is the zoo's paper-faithful recipe where one exists
(``sabbaghi-a2-paper``, ``cho-plain-1to30``); otherwise the reproduction recipe with the course's own additions
switched off (:data:`REFERENCE_OF` lists those overrides, e.g. no attention window, no curriculum). For every recipe
of :data:`REPRODUCTIONS`, :func:`unlabelled_departures` lists the config fields (``task.*``, ``model.*``,
``train.*``) in which it differs from the reference recipe and which are neither read by a compared row nor
labelled for that recipe in :data:`EXTRA_DEPARTURES` (``{name: {field path: why}}``, the names a recipe's roles
give as ``"departures:<name>"``; these labels become rows of the table too). tests/test_departures.py asserts that
list is empty, so a recipe tagged as a reproduction cannot differ from its paper's setup in a field that its table
does not show. Only :data:`NOT_SETUP_FIELDS`
(the run's seed, how batches are seeded) are never departures. A reference recipe itself switches on nothing that
no row shows (:func:`reference_additions`: every such field at its config default, but for the sizes that follow
from the frame or the IDs, :data:`IMPLEMENTATION_FIELDS`), so an addition cannot hide in the reference either.

The mappings between the papers' words and our configs (sampler, checkpoint selection, batch size, seeds, norm
placement, weight decay, schedule, ``"none"``) are listed in :mod:`.vocabulary`, beside :func:`matches`.

Modules: ``vocabulary`` (the values a setup is written in: :class:`Stated`, :class:`Span`, :class:`Checkpoint`...,
:func:`matches`, the compared fields :data:`COMPARED` and :class:`PaperSetup`), ``setups`` (the papers' setups,
the reproductions and their reference recipes, the hand-labelled departures) and ``comparing`` (the departures
tables and the completeness check); each imports only the ones before it.
"""
from .comparing import (COLUMNS, Departure, config_differences, config_fields, departures, departures_table,
                        labelled_departures, read_path, reference_additions, stale_labels, to_markdown,
                        unlabelled_departures)
from .setups import (CHO_ADDITION, CHO_FIG3, CHO_FIG4, CHO_MINESWEEPER, CHO_NX2, EXTRA_DEPARTURES,
                     IMPLEMENTATION_FIELDS, INERT_UNLESS, LABELLED, PAPER_SETUPS, REFERENCE, REFERENCE_OF,
                     REFERENCE_OVERRIDES, REPRODUCED_CLAIMS, REPRODUCES, REPRODUCTIONS, SABBAGHI_A1, SABBAGHI_A2, SABBAGHI_A3, SABBAGHI_M1, SABBAGHI_M1_APE, SABBAGHI_M1_RPE,
                     SABBAGHI_M2_K3, SABBAGHI_M3, SABBAGHI_M3_APE, THESIS_AGENDA, reference_recipe, setup_of)
from .vocabulary import (BEST_ON_LONGER, CODE, COMPARED, COMPARED_PATHS, IMPLIED, NONE, NOT_SETUP_FIELDS, NOT_STATED,
                         PAPER, SOURCES, Checkpoint, Compared, OneOf, PaperSetup, Positions, Schedule, Span, Stated,
                         code, implied, matches, not_stated, paper)

__all__ = [
    "BEST_ON_LONGER", "CHO_ADDITION", "CHO_FIG3", "CHO_FIG4", "CHO_MINESWEEPER", "CHO_NX2", "CODE", "COLUMNS",
    "COMPARED", "COMPARED_PATHS", "IMPLIED", "NOT_STATED", "PAPER",
    "Checkpoint", "Compared", "Departure", "EXTRA_DEPARTURES", "IMPLEMENTATION_FIELDS", "INERT_UNLESS", "LABELLED",
    "NONE", "NOT_SETUP_FIELDS", "OneOf", "PAPER_SETUPS", "PaperSetup", "Positions", "REFERENCE", "REFERENCE_OF",
    "REFERENCE_OVERRIDES", "REPRODUCED_CLAIMS", "REPRODUCES", "REPRODUCTIONS", "SABBAGHI_A1", "SABBAGHI_A2", "SABBAGHI_A3", "SABBAGHI_M1", "SABBAGHI_M1_APE", "SABBAGHI_M1_RPE",
    "SABBAGHI_M2_K3", "SABBAGHI_M3", "SABBAGHI_M3_APE",
    "THESIS_AGENDA", "SOURCES", "Schedule", "Span", "Stated", "code", "config_differences",
    "config_fields", "departures", "departures_table", "implied", "labelled_departures", "matches", "not_stated",
    "paper", "read_path", "reference_additions", "reference_recipe", "setup_of", "stale_labels", "to_markdown",
    "unlabelled_departures",
]
