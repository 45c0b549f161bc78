-- Durable jobs: everything that runs later or on a schedule. One row per
-- job, claimed by a worker with a lease (as the outbox is), retried with
-- backoff, never deleted: done and failed jobs stay as the record of what
-- ran. The key makes scheduling idempotent: several processes that
-- schedule the same job (the hourly sweep, a request's deadline) create
-- one row. org_id is empty for the server's own housekeeping. The kinds
-- grow with the features, so they have no CHECK list (which SQLite could
-- only change by rebuilding the table): a kind this version cannot read
-- fails visibly when it is run.

CREATE TABLE jobs (
    id               BLOB PRIMARY KEY NOT NULL,
    org_id           BLOB REFERENCES orgs (id) ON DELETE CASCADE,
    kind             TEXT NOT NULL,
    key              TEXT NOT NULL UNIQUE,
    payload          TEXT NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'retrying', 'failed')),
    run_at           TEXT NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    last_error       TEXT,
    lease_owner      TEXT,
    lease_expires_at TEXT,
    created_at       TEXT NOT NULL,
    finished_at      TEXT
) STRICT;
CREATE INDEX jobs_due ON jobs (status, run_at);
CREATE INDEX jobs_org ON jobs (org_id, status, run_at);

-- Requests sent before jobs existed get their deadline's job: due when
-- the deadline's day has ended (in UTC; new requests use the
-- organisation's time zone).
INSERT INTO jobs (id, org_id, kind, key, payload, status, run_at, attempts, created_at)
SELECT randomblob(16), r.org_id, 'deadline_passed',
       'deadline_passed:' || lower(substr(hex(r.id), 1, 8) || '-' || substr(hex(r.id), 9, 4) || '-' ||
           substr(hex(r.id), 13, 4) || '-' || substr(hex(r.id), 17, 4) || '-' || substr(hex(r.id), 21, 12)),
       '{"request":"' || lower(substr(hex(r.id), 1, 8) || '-' || substr(hex(r.id), 9, 4) || '-' ||
           substr(hex(r.id), 13, 4) || '-' || substr(hex(r.id), 17, 4) || '-' || substr(hex(r.id), 21, 12)) || '"}',
       'queued', strftime('%Y-%m-%dT%H:%M:%f', date(r.deadline, '+1 day')) || '000Z', 0,
       strftime('%Y-%m-%dT%H:%M:%f', 'now') || '000Z'
FROM question_requests r
WHERE r.status <> 'submitted' AND r.revoked_at IS NULL;
