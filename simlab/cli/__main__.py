"""``python -m simlab.cli``: the ``simlab`` command."""

from simlab.cli import main

if __name__ == "__main__":
    main()
