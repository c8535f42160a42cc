"""``python -m lengen_utils.zoo``: see :mod:`lengen_utils.zoo.commands`."""
import sys

from .commands import main

sys.exit(main())
