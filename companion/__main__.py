"""``python -m companion`` is the ``mjc`` command line."""

import sys

from .cli import main

sys.exit(main())
