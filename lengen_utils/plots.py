"""The course's plots: one style, and one function per figure type. Every function returns the
matplotlib ``Figure`` (PNG inline in notebooks) and never calls ``plt.show`` itself."""
from __future__ import annotations

import matplotlib

PALETTE = "colorblind"


def use_course_style() -> None:
    """seaborn's whitegrid look, a colour-blind-safe palette, PNG output at a readable size."""
    import seaborn as sns

    sns.set_theme(style="whitegrid", palette=PALETTE, context="notebook")
    matplotlib.rcParams.update({"figure.dpi": 100, "savefig.dpi": 150, "figure.figsize": (7, 4),
                                "axes.titleweight": "bold"})
    try:  # inline figures as PNG, not SVG (smaller notebooks, same look everywhere)
        from matplotlib_inline.backend_inline import set_matplotlib_formats

        set_matplotlib_formats("png")
    except ImportError:
        pass
