"""The course: the notebooks' helpers, each section's measured prose and claim checks, plots, widgets, exercises and
the Colab setup (layer 8, the top)."""
