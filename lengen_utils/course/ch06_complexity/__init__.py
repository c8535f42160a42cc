"""Notebook 06 (notebooks/06_task_complexity.ipynb): task complexity, cascades of carries."""
