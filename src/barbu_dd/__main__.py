"""``python -m barbu_dd``."""

from .cli import main

main()
