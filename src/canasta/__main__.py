"""``python -m canasta``: the command line (see :mod:`canasta.cli`)."""

import sys

from canasta.cli import main

sys.exit(main())
