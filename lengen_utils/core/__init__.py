"""The core: problems, formats and position IDs, tasks, the model, training and evaluation (layers 0-5).

Nothing here imports analysis/, lab/ or course/ (tests/test_layers.py checks the order inside too).
"""
