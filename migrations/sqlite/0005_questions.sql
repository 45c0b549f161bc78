-- The questions sent to vendors: one request per contact written to, with
-- the exact questions it asked (copied when sent), the vendor's answers and
-- the review of each answer; the timeline of each service's exchange; and
-- the state of each service's assessment.

ALTER TABLE services ADD COLUMN assessment TEXT NOT NULL DEFAULT 'not_asked'
    CHECK (assessment IN ('not_asked', 'asked', 'answered', 'cleared', 'cleared_with_conditions', 'not_cleared'));
ALTER TABLE services ADD COLUMN assessment_note TEXT;
-- The dashboard's figures and the list's count read only this index
-- (no visit to the wide service rows).
CREATE INDEX services_figures ON services (org_id, archived_at, status, personal, known_findings, assessment);
ALTER TABLE services ADD COLUMN follow_up_on TEXT;

-- The organisation's question set, one row per version (never changed).
CREATE TABLE question_sets (
    org_id     BLOB NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,
    items      TEXT NOT NULL,
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL,
    PRIMARY KEY (org_id, version)
) STRICT;

-- One row per use of the send form: the same key twice sends once.
CREATE TABLE question_sends (
    org_id   BLOB NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    send_key TEXT NOT NULL,
    PRIMARY KEY (org_id, send_key)
) STRICT;

CREATE TABLE question_requests (
    id              BLOB PRIMARY KEY NOT NULL,
    org_id          BLOB NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    service_id      BLOB NOT NULL,
    send_key        TEXT NOT NULL,
    -- Who was asked, as written to (the contact may change or go later).
    vendor_name     TEXT NOT NULL,
    recipient_name  TEXT NOT NULL,
    recipient_email TEXT NOT NULL,
    lang            TEXT NOT NULL CHECK (lang IN ('en', 'de', 'nb')),
    deadline        TEXT NOT NULL,
    -- The version of the question set the questions came from.
    set_version     INTEGER NOT NULL,
    -- The request this one asks again.
    previous_id     BLOB,
    token_hash      BLOB NOT NULL UNIQUE,
    expires_at      TEXT NOT NULL,
    revoked_at      TEXT,
    mail_id         BLOB,
    sent_by         TEXT NOT NULL,
    sent_at         TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('sent', 'draft', 'submitted')),
    saved_at        TEXT,
    submitted_at    TEXT,
    responder_name  TEXT,
    responder_role  TEXT,
    responder_email TEXT,
    -- 'portal' (answered through the link) or 'manual' (entered by a member).
    answered_via    TEXT CHECK (answered_via IN ('portal', 'manual')),
    received_on     TEXT,
    received_source TEXT,
    UNIQUE (org_id, id),
    FOREIGN KEY (org_id, service_id) REFERENCES services (org_id, id) ON DELETE CASCADE
) STRICT;
CREATE INDEX question_requests_service ON question_requests (org_id, service_id, sent_at);
CREATE INDEX question_requests_send ON question_requests (org_id, send_key);

-- The services a request asks about (one, or several of the same vendor's),
-- in the order the mail names them; the first is the request's service_id.
CREATE TABLE question_request_services (
    org_id     BLOB NOT NULL,
    request_id BLOB NOT NULL,
    service_id BLOB NOT NULL,
    position   INTEGER NOT NULL,
    PRIMARY KEY (org_id, request_id, service_id),
    FOREIGN KEY (org_id, request_id) REFERENCES question_requests (org_id, id) ON DELETE CASCADE,
    FOREIGN KEY (org_id, service_id) REFERENCES services (org_id, id) ON DELETE CASCADE
) STRICT;
CREATE INDEX question_request_services_service ON question_request_services (org_id, service_id);

CREATE TABLE question_items (
    org_id         BLOB NOT NULL,
    request_id     BLOB NOT NULL,
    position       INTEGER NOT NULL,
    code           TEXT NOT NULL,
    question       TEXT NOT NULL,
    why            TEXT NOT NULL,
    -- When asked again: what the vendor answered before.
    earlier_answer TEXT,
    answer         TEXT,
    review         TEXT CHECK (review IN ('satisfactory', 'unclear', 'missing')),
    review_note    TEXT,
    reviewed_by    TEXT,
    reviewed_at    TEXT,
    PRIMARY KEY (org_id, request_id, position),
    FOREIGN KEY (org_id, request_id) REFERENCES question_requests (org_id, id) ON DELETE CASCADE
) STRICT;

-- Documents attached to answers, by the vendor or by a member.
CREATE TABLE attachments (
    id          BLOB PRIMARY KEY NOT NULL,
    org_id      BLOB NOT NULL,
    request_id  BLOB NOT NULL,
    filename    TEXT NOT NULL,
    media_type  TEXT NOT NULL,
    size        INTEGER NOT NULL,
    data        BLOB NOT NULL,
    uploaded_at TEXT NOT NULL,
    uploaded_by TEXT NOT NULL,
    UNIQUE (org_id, id),
    FOREIGN KEY (org_id, request_id) REFERENCES question_requests (org_id, id) ON DELETE CASCADE
) STRICT;
CREATE INDEX attachments_request ON attachments (org_id, request_id);

CREATE TABLE question_events (
    id         BLOB PRIMARY KEY NOT NULL,
    org_id     BLOB NOT NULL,
    service_id BLOB NOT NULL,
    request_id BLOB,
    at         TEXT NOT NULL,
    kind       TEXT NOT NULL,
    actor      TEXT NOT NULL,
    detail     TEXT NOT NULL,
    FOREIGN KEY (org_id, service_id) REFERENCES services (org_id, id) ON DELETE CASCADE
) STRICT;
CREATE INDEX question_events_service ON question_events (org_id, service_id, at);
