"""An experiment as data (layer 7, lab): one seed of it (:class:`~.entry.ZooEntry`), its seeds and test plan
(:class:`~.recipe.Recipe`), and a chapter's rows of them with named axes (:class:`~.recipe.RecipeTable`).

It imports only the core, so that a chapter's recipes module (``course/chNN_<topic>/recipes.py``) is plain data that
loads nothing else; the zoo (:mod:`lengen_utils.lab.zoo`) registers, trains and stores what these describe, and finds
the chapters' recipes modules through the package's entry points (group ``lengen_utils.recipes``), never by importing
the course.
"""
