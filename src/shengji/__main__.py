"""``python -m shengji`` runs the ``shengji`` command."""

from shengji.cli import main

raise SystemExit(main())
