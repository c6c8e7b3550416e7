"""The browser game: a thin FastAPI server over the engine, with SQLite storage."""
