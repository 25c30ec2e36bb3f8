"""The full-screen terminal game (Textual)."""
