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
    id               uuid PRIMARY KEY,
    org_id           uuid REFERENCES orgs (id) ON DELETE CASCADE,
    kind             text NOT NULL,
    key              text NOT NULL UNIQUE,
    payload          text NOT NULL,
    status           text NOT NULL CHECK (status IN ('queued', 'running', 'done', 'retrying', 'failed')),
    run_at           timestamptz NOT NULL,
    attempts         integer NOT NULL DEFAULT 0,
    last_error       text,
    lease_owner      text,
    lease_expires_at timestamptz,
    created_at       timestamptz NOT NULL,
    finished_at      timestamptz
);
CREATE INDEX jobs_due ON jobs (status, run_at);
CREATE INDEX jobs_org ON jobs (org_id, status, run_at);

-- The job worker works across organisations (set_config('aivet.system',
-- 'on', true)); members see their organisation's jobs only.
ALTER TABLE jobs ENABLE ROW LEVEL SECURITY;
ALTER TABLE jobs FORCE ROW LEVEL SECURITY;
CREATE POLICY jobs_tenant ON jobs
    USING (org_id = aivet_org() OR aivet_system())
    WITH CHECK (org_id = aivet_org() OR aivet_system());

-- Requests sent before jobs existed get their deadline's job: due when
-- the deadline's day has ended (in UTC; new requests use the
-- organisation's time zone). Row-level security is lifted for this one
-- statement, inside the migration's transaction.
ALTER TABLE question_requests NO FORCE ROW LEVEL SECURITY;
ALTER TABLE jobs NO FORCE ROW LEVEL SECURITY;
INSERT INTO jobs (id, org_id, kind, key, payload, status, run_at, attempts, created_at)
SELECT gen_random_uuid(), r.org_id, 'deadline_passed', 'deadline_passed:' || r.id::text,
       '{"request":"' || r.id::text || '"}', 'queued', (r.deadline + 1)::timestamp AT TIME ZONE 'UTC', 0, now()
FROM question_requests r
WHERE r.status <> 'submitted' AND r.revoked_at IS NULL;
ALTER TABLE question_requests FORCE ROW LEVEL SECURITY;
ALTER TABLE jobs FORCE ROW LEVEL SECURITY;
