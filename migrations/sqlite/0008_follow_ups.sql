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
    id         BLOB PRIMARY KEY NOT NULL,
    org_id     BLOB NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    service_id BLOB NOT NULL,
    request_id BLOB,
    reason     TEXT NOT NULL,
    status     TEXT NOT NULL CHECK (status IN ('open', 'done', 'cancelled')),
    due_on     TEXT NOT NULL,
    note       TEXT,
    sequence   INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    closed_at  TEXT,
    closed_by  TEXT,
    UNIQUE (org_id, id),
    FOREIGN KEY (org_id, service_id) REFERENCES services (org_id, id) ON DELETE CASCADE,
    FOREIGN KEY (org_id, request_id) REFERENCES question_requests (org_id, id) ON DELETE CASCADE
) STRICT;
CREATE INDEX follow_ups_due ON follow_ups (org_id, status, due_on);
CREATE INDEX follow_ups_service ON follow_ups (org_id, service_id, status);
CREATE INDEX follow_ups_request ON follow_ups (org_id, request_id);

ALTER TABLE orgs ADD COLUMN reminders INTEGER NOT NULL DEFAULT 1 CHECK (reminders IN (0, 1));
ALTER TABLE orgs ADD COLUMN max_reminders INTEGER NOT NULL DEFAULT 4;
ALTER TABLE orgs ADD COLUMN review_days INTEGER NOT NULL DEFAULT 7;
ALTER TABLE orgs ADD COLUMN reassess_months INTEGER NOT NULL DEFAULT 12;

ALTER TABLE question_requests ADD COLUMN reminders INTEGER NOT NULL DEFAULT 1 CHECK (reminders IN (0, 1));
ALTER TABLE question_requests ADD COLUMN reminders_sent INTEGER NOT NULL DEFAULT 0;
ALTER TABLE question_requests ADD COLUMN no_answer_at TEXT;
ALTER TABLE question_requests ADD COLUMN token_sealed BLOB;

ALTER TABLE memberships ADD COLUMN digest TEXT NOT NULL DEFAULT 'off' CHECK (digest IN ('off', 'daily', 'weekly'));
ALTER TABLE memberships ADD COLUMN calendar_token_hash BLOB;
ALTER TABLE memberships ADD COLUMN calendar_version INTEGER NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX memberships_calendar ON memberships (calendar_token_hash);

-- Requests waiting for an answer get their follow-up: due on the deadline.
INSERT INTO follow_ups (id, org_id, service_id, request_id, reason, status, due_on, created_at, updated_at)
SELECT randomblob(16), r.org_id, r.service_id, r.id, 'answer_due', 'open', r.deadline,
       strftime('%Y-%m-%dT%H:%M:%f', 'now') || '000Z', strftime('%Y-%m-%dT%H:%M:%f', 'now') || '000Z'
FROM question_requests r
WHERE r.status <> 'submitted' AND r.revoked_at IS NULL;
