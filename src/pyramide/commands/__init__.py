"""Sub-commands of the ``pyramide`` command line, one module each.

Each module exposes ``register(subparsers)``, which adds its parser and sets
``func`` to a callable taking the parsed arguments and returning an exit code.
"""
