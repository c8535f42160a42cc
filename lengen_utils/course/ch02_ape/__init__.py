"""Notebook 02 (notebooks/02_ape_failure.ipynb): absolute positions fail beyond the trained length."""
