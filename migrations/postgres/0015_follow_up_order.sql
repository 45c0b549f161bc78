-- The board, the digest and the calendar list follow-ups by day, then by
-- service name. The service's name key (its name in lower case, as in
-- `services.name_key`) is kept on each follow-up so that the index gives
-- the whole order (day, service, reason, id): a page of the earliest rows
-- is read without sorting every open follow-up of a day, and a member's
-- whole list (digest, calendar) without a sort at all. Renaming a service
-- rewrites its follow-ups' key.

-- The update runs over every organisation: row-level security is lifted
-- for it (as in 0008) and put back at the end.
ALTER TABLE follow_ups NO FORCE ROW LEVEL SECURITY;
ALTER TABLE services NO FORCE ROW LEVEL SECURITY;

ALTER TABLE follow_ups ADD COLUMN service_key text NOT NULL DEFAULT '';
UPDATE follow_ups SET service_key = (
    SELECT s.name_key FROM services s WHERE s.org_id = follow_ups.org_id AND s.id = follow_ups.service_id
);
DROP INDEX follow_ups_due;
CREATE INDEX follow_ups_due ON follow_ups (org_id, status, due_on, service_key, reason, id);

ALTER TABLE follow_ups FORCE ROW LEVEL SECURITY;
ALTER TABLE services FORCE ROW LEVEL SECURITY;
