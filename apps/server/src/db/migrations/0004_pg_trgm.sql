-- Trigram indexes for list searches (ILIKE '%…%'); PGlite loads the extension in embedded-worker.mjs.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
