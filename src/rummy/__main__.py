"""``python -m rummy``."""

import sys

from rummy.cli import main

sys.exit(main())
