"""The course's figures: one standard (:mod:`.style`), and one function per figure type. Every
function returns the matplotlib ``Figure`` (PNG inline in notebooks), never calls ``plt.show``, and
never runs a model: the arrays come from :mod:`lengen_utils.analysis.interpret` or the zoo's metrics.

* :mod:`.style` -- fonts, the colour-blind-safe palette, legends below the axes, tick thinning;
* :mod:`.tables` -- sequences as coloured cells (formats, position IDs, σ(i));
* :mod:`.curves` -- accuracy against length or level (one seed, or a median and band over seeds),
  loss curves, complexity histograms;
* :mod:`.heatmaps` -- per-digit accuracy, relative vectors, Gram matrices, 2-D relative biases;
* :mod:`.attention` -- attention weights: one example, models side by side, by relative offset;

A chapter's own figures live in its folder: notebook 04's learned p_d and c_r maps and UPE's vector pairs in
:mod:`lengen_utils.course.ch04_upe.plots`, notebook 09's (N, M) grid in :mod:`lengen_utils.course.ch09_nxm.plots`.

``attention_maps`` and ``relative_vectors`` (they run a model) live in :mod:`lengen_utils.analysis.interpret`;
they are re-exported here only so that notebooks written before the split keep working.
"""
from __future__ import annotations

from ...analysis.interpret import attention_maps, relative_vectors
from .attention import attention_heatmap, attention_side_by_side, offset_attention_map
from .curves import (accuracy_by_level, accuracy_vs_length, complexity_histogram, loss_curve, median_band,
                     per_position_loss, selection_curve)
from .heatmaps import gram_heatmaps, per_digit_heatmap, relative_bias_2d, relative_vector_map
from .style import (MAX_WIDTH, MIN_FONT, PALETTE, ROLE_COLOURS, check_figure, math, series_styles, thin_ticks,
                    use_course_style)
from .tables import format_table, highlight_table, position_table, token_table

__all__ = ["relative_bias_2d", "use_course_style", "PALETTE", "ROLE_COLOURS", "MIN_FONT", "MAX_WIDTH", "series_styles", "math",
           "thin_ticks", "check_figure",
           "token_table", "format_table", "position_table", "highlight_table",
           "accuracy_vs_length", "median_band", "loss_curve", "accuracy_by_level", "per_position_loss",
           "complexity_histogram", "selection_curve",
           "per_digit_heatmap", "relative_vector_map", "attention_heatmap", "gram_heatmaps",
           "attention_side_by_side", "offset_attention_map",
           "attention_maps", "relative_vectors"]
