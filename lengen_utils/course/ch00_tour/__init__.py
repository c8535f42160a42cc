"""Notebook 00 (notebooks/00_setup_and_tour.ipynb): setup and a tour."""
