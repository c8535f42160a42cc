"""lengen_utils: the library behind the lengen course on length generalization in arithmetic."""
__version__ = "0.1.0"
