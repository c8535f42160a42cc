"""Notebook 03 (notebooks/03_relative_position_encoding.ipynb): relative position encoding."""
