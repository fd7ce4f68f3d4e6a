"""The command line's own error."""


class CliError(Exception):
    """A user error on the command line: printed without a traceback, exit status 2."""
