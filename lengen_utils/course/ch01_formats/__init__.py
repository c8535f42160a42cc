"""Notebook 01 (notebooks/01_data_formats.ipynb): data formats and position IDs."""
