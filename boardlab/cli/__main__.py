"""``python -m boardlab.cli``: the same as the ``boardlab`` command."""

from . import main

main()
