-- The durable outbox: one row per mail, rendered when it is queued (in the
-- same transaction as the change that caused it), sent by a worker that
-- claims rows with a lease. Rows are never deleted on failure.
-- org_id is empty for mails that belong to a person, not an organisation
-- (password resets); the settings page lists an organisation's own mails.

CREATE TABLE outbox (
    id               BLOB PRIMARY KEY NOT NULL,
    org_id           BLOB REFERENCES orgs (id),
    kind             TEXT NOT NULL,
    recipient        TEXT NOT NULL,
    subject          TEXT NOT NULL,
    message          BLOB NOT NULL,
    message_id       TEXT NOT NULL UNIQUE,
    status           TEXT NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'retrying', 'failed')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    created_at       TEXT NOT NULL,
    next_attempt_at  TEXT NOT NULL,
    give_up_at       TEXT NOT NULL,
    sent_at          TEXT,
    last_error       TEXT,
    lease_owner      TEXT,
    lease_expires_at TEXT
) STRICT;
CREATE INDEX outbox_org ON outbox (org_id, created_at);
CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
