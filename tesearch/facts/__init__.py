"""What is known about a network before any table: lower bounds, word-choice bounds, the Instance (the
facts computed once) and the info report."""
