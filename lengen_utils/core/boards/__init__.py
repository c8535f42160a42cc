"""The 2-D task's boards (Cho et al. Section 6.2, the minesweeper generator): :mod:`.board` (a board and its
samplers), :mod:`.format` (its tokens) and :mod:`.task` (the task class beside the arithmetic one)."""
