"""Notebook sections whose prose and claim checks are built from data: each module serves one section, so that
the notebook cell that shows a measured sentence or checks a claim is a single call."""
