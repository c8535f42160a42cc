"""Notebook 05 (notebooks/05_position_coupling.ipynb, the lesson) and its bonus 05b_coupling_lab: position coupling."""
