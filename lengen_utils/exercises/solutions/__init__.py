"""Solutions of the notebooks' coding exercises, one module per notebook (``solutions.nb01`` ...).

Try the exercise first; ``exercises.reveal(solutions.nb01.some_function)`` shows one collapsed."""
