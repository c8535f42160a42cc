"""Notebook 04 (notebooks/04_uniform_positions_multiplication.ipynb): uniform positions and multiplication."""
