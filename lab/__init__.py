"""The experiment tools behind the measured figures of docs/bots.md.

Run one from the repository root with ``python -m lab NAME [ARGS]``; ``python -m lab``
lists them. README.md in this folder says what each reproduces and which section of
the docs it backs. They are not part of the installed package: they measure it.
"""
