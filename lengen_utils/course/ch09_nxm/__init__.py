"""Notebook 09 (notebooks/09_nxm_multiplication.ipynb): N x M multiplication with both operands longer than trained."""
