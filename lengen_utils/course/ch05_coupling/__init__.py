"""Notebook 05 (notebooks/05_position_coupling.ipynb): position coupling."""
