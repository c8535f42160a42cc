"""``python -m lengen_utils.lab.zoo``: see :mod:`lengen_utils.lab.zoo.commands`."""
import sys

from .commands import main

sys.exit(main())
