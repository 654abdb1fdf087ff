"""Tables: the Table type and its file format, laying words out, building and verifying a table (Theorem 1,
prover side), what making one ended with (Outcome), the checked way in, the keep-better writer, pictures and the
interactive view."""
