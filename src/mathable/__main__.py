"""``python -m mathable``: the ``mathable`` command."""

from mathable.cli.main import main

if __name__ == "__main__":
    main()
