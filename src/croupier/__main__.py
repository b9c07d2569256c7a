"""``python -m croupier``: the ``croupier`` command line, as its script.

The same group, the same exit statuses and the same program name in
its help and error lines (``croupier``, not ``__main__.py``).
"""

from croupier.cli import main

if __name__ == "__main__":
    main()
