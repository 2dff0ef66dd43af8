"""``python -m boardlab``: the same as the ``boardlab`` command."""

from boardlab.cli import main

if __name__ == "__main__":
    main()
