"""``python -m canasta``: the command line (see `canasta.cli`)."""

import sys

from canasta.cli import main

sys.exit(main())
