"""Running safely: the words every layer shares (exit codes, statuses), the one tree of errors, safe files and
outputs, limits and budgets, supervised children and process groups.  Imports nothing else of tesearch."""
