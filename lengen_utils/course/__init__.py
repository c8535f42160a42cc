"""The course (layer 8, the top): the notebooks' helpers (notebook), plots, widgets and the Colab setup (colab), and
one folder per notebook, ``ch00_tour`` ... ``ch08_beyond``, holding that notebook's sections (their measured prose and
claim checks), its coding exercises (``exercises``) and their ``solutions``. What more than one chapter uses lives in
``common`` (the exercises' machinery, paper_scale, paper_claims, seeds, baselines); a chapter never imports another."""
