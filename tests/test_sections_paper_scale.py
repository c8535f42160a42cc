"""What notebooks 03, 04 and 05 share "at paper scale": the GPU entries' records, live evaluation and figure (each
chapter's own specs and checks are tested in tests/ch03, tests/ch04 and tests/ch05)."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from lengen_utils.course.ch03_rpe.rpe import PAPER_SCALE as RPE  # noqa: E402
from lengen_utils.course.ch05_coupling.gpu_scale import CHO_PLAIN, COUPLED  # noqa: E402
from lengen_utils.course.common import paper_scale as ps  # noqa: E402


def test_the_specs_name_built_recipes_and_lengths_they_were_recorded_at():
    for spec in (COUPLED, RPE):
        rec = ps.recorded(spec)
        assert rec, spec.recipe
        for points in rec.values():
            assert set(spec.live_lengths) <= set(points), (spec.recipe, sorted(points))


def test_an_unbuilt_or_unknown_recipe_is_named():
    with pytest.raises(KeyError, match="no zoo recipe"):
        ps.seeds(ps.PaperScale("no-such-recipe", (5,), 10, "paper"))


def test_live_evaluation_and_figure_on_the_rpe_encoder():
    live = ps.live_figure(RPE, n=30)                     # 30 problems per length: seconds on the CPU
    assert list(live) == list(ps.recorded(RPE))
    assert live["sabbaghi-rpe-add-5to50-s0"][5] == 1.0
    fig = plt.gcf()
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert any("recorded on the GPU" in t for t in labels) and any("live" in t for t in labels)
    plt.close(fig)


def test_recorded_rows_show_both_checkpoints_of_a_selected_run():
    rows = ps.recorded_rows(CHO_PLAIN, lengths=(30, 100))
    assert any("selected (step" in r for r in rows) and any("final (step" in r for r in rows)
    assert all(set(cells) == {"30 dig", "100 dig"} for cells in rows.values())
