"""Notebook 08 (notebooks/08_beyond_position_encodings.ipynb): beyond position encodings."""
