-- The report needs no new table: exports are recorded in the audit log.
-- (PostgreSQL's 0009 lets the command line find an organisation by its
-- slug past row-level security; SQLite has no row-level security.)
SELECT 1;
