"""Playing in the terminal: ``shengji play`` and ``shengji replay``.

- :mod:`~shengji.terminal.screen` draws one seat's view with rich (80x24 friendly);
- :mod:`~shengji.terminal.prompt` reads and parses the person's input, with completion;
- :mod:`~shengji.terminal.session` is the game loop (the person, computer players, records);
- :mod:`~shengji.terminal.replay` steps through a recorded game;
- :mod:`~shengji.terminal.app` turns the command-line arguments into a session.
"""
