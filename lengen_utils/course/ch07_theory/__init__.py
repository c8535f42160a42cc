"""Notebook 07 (notebooks/07_theory.ipynb): theory, why relative and coupled positions generalize."""
