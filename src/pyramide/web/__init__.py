"""The browser game: a thin Starlette server over the engine, with SQLite storage."""
