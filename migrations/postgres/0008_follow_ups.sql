-- Follow-ups: every open item has a date and a reason (an answer due, a
-- review due, an assessment to repeat). One row per item; done and
-- cancelled ones stay as the history. `sequence` grows with every change
-- of the date, so calendars move the event instead of adding one.
-- The organisation's follow-up policy; per request whether reminders go
-- out, how many did, when it was given up as "no answer", and its answer
-- link sealed at rest (a reminder carries the same link); per member the
-- digest mail and the calendar feed (only a hash of its token).
-- The reasons grow with the features (decision expiry, incidents), so they
-- have no CHECK list; the store reads them as the domain's closed choice.

CREATE TABLE follow_ups (
    id         uuid PRIMARY KEY,
    org_id     uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    service_id uuid NOT NULL,
    request_id uuid,
    reason     text NOT NULL,
    status     text NOT NULL CHECK (status IN ('open', 'done', 'cancelled')),
    due_on     date NOT NULL,
    note       text,
    sequence   integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    closed_at  timestamptz,
    closed_by  text,
    UNIQUE (org_id, id),
    FOREIGN KEY (org_id, service_id) REFERENCES services (org_id, id) ON DELETE CASCADE,
    FOREIGN KEY (org_id, request_id) REFERENCES question_requests (org_id, id) ON DELETE CASCADE
);
CREATE INDEX follow_ups_due ON follow_ups (org_id, status, due_on);
CREATE INDEX follow_ups_service ON follow_ups (org_id, service_id, status);
CREATE INDEX follow_ups_request ON follow_ups (org_id, request_id);

ALTER TABLE follow_ups ENABLE ROW LEVEL SECURITY;
ALTER TABLE follow_ups FORCE ROW LEVEL SECURITY;
CREATE POLICY follow_ups_tenant ON follow_ups
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());

ALTER TABLE orgs ADD COLUMN reminders boolean NOT NULL DEFAULT true;
ALTER TABLE orgs ADD COLUMN max_reminders integer NOT NULL DEFAULT 4;
ALTER TABLE orgs ADD COLUMN review_days integer NOT NULL DEFAULT 7;
ALTER TABLE orgs ADD COLUMN reassess_months integer NOT NULL DEFAULT 12;

ALTER TABLE question_requests ADD COLUMN reminders boolean NOT NULL DEFAULT true;
ALTER TABLE question_requests ADD COLUMN reminders_sent integer NOT NULL DEFAULT 0;
ALTER TABLE question_requests ADD COLUMN no_answer_at timestamptz;
ALTER TABLE question_requests ADD COLUMN token_sealed bytea;

ALTER TABLE memberships ADD COLUMN digest text NOT NULL DEFAULT 'off' CHECK (digest IN ('off', 'daily', 'weekly'));
ALTER TABLE memberships ADD COLUMN calendar_token_hash bytea;
ALTER TABLE memberships ADD COLUMN calendar_version integer NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX memberships_calendar ON memberships (calendar_token_hash);

-- A calendar feed is found by its token's hash alone (no session): the
-- one membership whose hash it is, and what that membership may see.
CREATE FUNCTION aivet_calendar_token() RETURNS bytea LANGUAGE sql STABLE AS
$$ SELECT decode(NULLIF(current_setting('aivet.calendar_token', true), ''), 'hex') $$;
CREATE POLICY memberships_by_calendar ON memberships FOR SELECT
    USING (calendar_token_hash = aivet_calendar_token());

-- The job worker finds the members who want a digest, and their
-- organisations' zones (set_config('aivet.system', 'on', true)).
CREATE POLICY memberships_system ON memberships FOR SELECT USING (aivet_system());
CREATE POLICY orgs_system ON orgs FOR SELECT USING (aivet_system());

-- Requests waiting for an answer get their follow-up: due on the deadline.
ALTER TABLE question_requests NO FORCE ROW LEVEL SECURITY;
ALTER TABLE follow_ups NO FORCE ROW LEVEL SECURITY;
INSERT INTO follow_ups (id, org_id, service_id, request_id, reason, status, due_on, created_at, updated_at)
SELECT gen_random_uuid(), r.org_id, r.service_id, r.id, 'answer_due', 'open', r.deadline, now(), now()
FROM question_requests r
WHERE r.status <> 'submitted' AND r.revoked_at IS NULL;
ALTER TABLE question_requests FORCE ROW LEVEL SECURITY;
ALTER TABLE follow_ups FORCE ROW LEVEL SECURITY;
