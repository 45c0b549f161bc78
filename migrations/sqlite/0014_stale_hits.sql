-- A service whose engine, version or status was saved and whose advisory
-- hits were not matched again yet. The save sets it in its own
-- transaction; writing the service's hits clears it. Should the process
-- end in between, the hourly sweep matches the organisation again.

ALTER TABLE services ADD COLUMN hits_stale INTEGER NOT NULL DEFAULT 0 CHECK (hits_stale IN (0, 1));
CREATE INDEX services_hits_stale ON services (org_id) WHERE hits_stale = 1;
