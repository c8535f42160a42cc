"""The lab: recipes and their store (the zoo), the CLIs, the benchmarks and the scale tooling (sweeps, throughput,
batched seeds) (layer 7). It imports the core and analysis, never the course."""
