"""``python -m lengen_utils.lab.ledger``: see :func:`lengen_utils.lab.ledger.main`."""
import sys

from . import main

sys.exit(main())
