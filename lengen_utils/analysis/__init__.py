"""Analysis on top of the core: exact complexity distributions, theory, hand-built constructions, attention and
residual-stream probes, generalizable lengths (layer 6)."""
