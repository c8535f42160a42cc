"""Notebook 04, section 6: the positional maps of RPE and UPE trained with weight decay (Sabbaghi Figures 11 and 12,
Appendix C.3), measured. Offsets are key minus query: the paper's P_{-1} (the carry) is our p_{+1}."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ..common.claims import claim
from ...analysis.interpret import PositionalMaps, effective_offsets


def map_stats(m: PositionalMaps, span: int) -> dict[int, dict]:
    """Per layer: the three largest offsets, p_+1's share of the squared norms the effective offsets."""
    rows = {}
    for layer in range(len(m.p)):
        norms = m.norms(layer)[m.max_distance - span:m.max_distance + span + 1]
        rows[layer + 1] = {"largest offsets": ", ".join(f"{d:+d}" for d in m.largest(layer, 3)),
                           "share of p_+1": float(norms[span + 1] ** 2 / (norms ** 2).sum()),
                           "effective offsets": round(effective_offsets(norms), 1)}
    return rows


def measure(maps: Mapping[str, Sequence[PositionalMaps]], frame: int) -> dict:
    """Every seed's maps in numbers: where p_+1 leads, the others' largest offsets, effective offsets, p_{-(l+1)}."""
    far = -(frame + 1)
    layers = {label: [(m, layer) for m in ms for layer in range(len(m.p))] for label, ms in maps.items()}
    return {"far": far, "layers": {label: len(ls) for label, ls in layers.items()},
            "carry": {label: sum(m.largest(layer, 1) == [1] for m, layer in ls) for label, ls in layers.items()},
            "others": [m.largest(layer, 1)[0] for ls in layers.values() for m, layer in ls
                       if m.largest(layer, 1) != [1]],
            "effective": {label: [row["effective offsets"] for m in ms for row in map_stats(m, frame + 1).values()]
                          for label, ms in maps.items()},
            "far_norm": {label: [(float(m.norms(layer)[m.max_distance + far]), float(np.median(m.norms(layer))))
                                 for m, layer in ls] for label, ls in layers.items()}}


def check_maps(stats: Mapping) -> None:
    """p_+1 leads some layers; RPE's multiplier offset lives, UPE's decays; UPE is not less dispersed."""
    carry, layers = stats["carry"], stats["layers"]
    claim(all(0 < carry[k] < layers[k] for k in carry), "p_+1 should be the largest vector in some layers, not in all",
          f"{carry} of {layers}")
    odd = [d for d in stats["others"] if d not in (-1, -2) and abs(d) < 12]
    claim(not odd, "every other layer's largest vector should be p_-1, p_-2 or a far offset (|d| >= 12), as the "
          "text says", f"also {sorted(set(odd))}")
    rpe = min(v / t for v, t in stats["far_norm"]["RPE"])
    claim(rpe >= 0.5, f"RPE's p_{{{stats['far']}}} (its multiplier offset) should stay in use (norm >= half a layer's "
          "median)", f"{rpe:.2f} of the median")
    upe = max(v / t for v, t in stats["far_norm"]["UPE"])
    claim(upe < 0.1, f"weight decay should remove UPE's unused p_{{{stats['far']}}} (norm < 10% of a layer's median)",
          f"{upe:.2f} of the median")
    eff = {label: np.median(values) for label, values in stats["effective"].items()}
    claim(eff["UPE"] >= eff["RPE"], "UPE should not be less dispersed than RPE at our scale, as the text says",
          f"{eff['UPE']:.1f} vs {eff['RPE']:.1f} effective offsets", "Else the paper's \"less dispersed\" shows here.")


def summary_rows(stats: Mapping) -> dict[str, dict[str, str]]:
    """Per encoding, from :func:`measure`: where p_+1 leads, the multiplier offset's norm, the effective offsets."""
    return {label: {"layers where p_+1 is the largest": f"{stats['carry'][label]} of {stats['layers'][label]}",
                    f"norm of p_{stats['far']} / the layer's median, largest": f"{max(v / t for v, t in far):.3f}",
                    "effective offsets, median": f"{np.median(stats['effective'][label]):.1f}"}
            for label, far in stats["far_norm"].items()}
