-- The questions sent to vendors: one request per contact written to, with
-- the exact questions it asked (copied when sent), the vendor's answers and
-- the review of each answer; the timeline of each service's exchange; and
-- the state of each service's assessment. Same rules as 0001.

CREATE FUNCTION aivet_request_token() RETURNS bytea LANGUAGE sql STABLE AS
$$ SELECT decode(NULLIF(current_setting('aivet.request_token', true), ''), 'hex') $$;

ALTER TABLE services ADD COLUMN assessment text NOT NULL DEFAULT 'not_asked'
    CHECK (assessment IN ('not_asked', 'asked', 'answered', 'cleared', 'cleared_with_conditions', 'not_cleared'));
ALTER TABLE services ADD COLUMN assessment_note text;
-- The dashboard's figures and the list's count read only this index
-- (no visit to the wide service rows).
CREATE INDEX services_figures ON services (org_id, archived_at, status, personal, known_findings, assessment);
ALTER TABLE services ADD COLUMN follow_up_on date;

-- The organisation's question set, one row per version (never changed).
CREATE TABLE question_sets (
    org_id     uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    version    integer NOT NULL,
    items      text NOT NULL,
    created_at timestamptz NOT NULL,
    created_by text NOT NULL,
    PRIMARY KEY (org_id, version)
);

-- One row per use of the send form: the same key twice sends once.
CREATE TABLE question_sends (
    org_id   uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    send_key text NOT NULL,
    PRIMARY KEY (org_id, send_key)
);

CREATE TABLE question_requests (
    id              uuid PRIMARY KEY,
    org_id          uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    service_id      uuid NOT NULL,
    send_key        text NOT NULL,
    vendor_name     text NOT NULL,
    recipient_name  text NOT NULL,
    recipient_email text NOT NULL,
    lang            text NOT NULL CHECK (lang IN ('en', 'de', 'nb')),
    deadline        date NOT NULL,
    set_version     integer NOT NULL,
    previous_id     uuid,
    token_hash      bytea NOT NULL UNIQUE,
    expires_at      timestamptz NOT NULL,
    revoked_at      timestamptz,
    mail_id         uuid,
    sent_by         text NOT NULL,
    sent_at         timestamptz NOT NULL,
    status          text NOT NULL CHECK (status IN ('sent', 'draft', 'submitted')),
    saved_at        timestamptz,
    submitted_at    timestamptz,
    responder_name  text,
    responder_role  text,
    responder_email text,
    answered_via    text CHECK (answered_via IN ('portal', 'manual')),
    received_on     date,
    received_source text,
    UNIQUE (org_id, id),
    FOREIGN KEY (org_id, service_id) REFERENCES services (org_id, id) ON DELETE CASCADE
);
CREATE INDEX question_requests_service ON question_requests (org_id, service_id, sent_at);
CREATE INDEX question_requests_send ON question_requests (org_id, send_key);

-- The services a request asks about (one, or several of the same vendor's),
-- in the order the mail names them; the first is the request's service_id.
CREATE TABLE question_request_services (
    org_id     uuid NOT NULL,
    request_id uuid NOT NULL,
    service_id uuid NOT NULL,
    position   integer NOT NULL,
    PRIMARY KEY (org_id, request_id, service_id),
    FOREIGN KEY (org_id, request_id) REFERENCES question_requests (org_id, id) ON DELETE CASCADE,
    FOREIGN KEY (org_id, service_id) REFERENCES services (org_id, id) ON DELETE CASCADE
);
CREATE INDEX question_request_services_service ON question_request_services (org_id, service_id);

CREATE TABLE question_items (
    org_id         uuid NOT NULL,
    request_id     uuid NOT NULL,
    position       integer NOT NULL,
    code           text NOT NULL,
    question       text NOT NULL,
    why            text NOT NULL,
    earlier_answer text,
    answer         text,
    review         text CHECK (review IN ('satisfactory', 'unclear', 'missing')),
    review_note    text,
    reviewed_by    text,
    reviewed_at    timestamptz,
    PRIMARY KEY (org_id, request_id, position),
    FOREIGN KEY (org_id, request_id) REFERENCES question_requests (org_id, id) ON DELETE CASCADE
);

CREATE TABLE attachments (
    id          uuid PRIMARY KEY,
    org_id      uuid NOT NULL,
    request_id  uuid NOT NULL,
    filename    text NOT NULL,
    media_type  text NOT NULL,
    size        integer NOT NULL,
    data        bytea NOT NULL,
    uploaded_at timestamptz NOT NULL,
    uploaded_by text NOT NULL,
    UNIQUE (org_id, id),
    FOREIGN KEY (org_id, request_id) REFERENCES question_requests (org_id, id) ON DELETE CASCADE
);
CREATE INDEX attachments_request ON attachments (org_id, request_id);

CREATE TABLE question_events (
    id         uuid PRIMARY KEY,
    org_id     uuid NOT NULL,
    service_id uuid NOT NULL,
    request_id uuid,
    at         timestamptz NOT NULL,
    kind       text NOT NULL,
    actor      text NOT NULL,
    detail     text NOT NULL,
    FOREIGN KEY (org_id, service_id) REFERENCES services (org_id, id) ON DELETE CASCADE
);
CREATE INDEX question_events_service ON question_events (org_id, service_id, at);

ALTER TABLE question_sets ENABLE ROW LEVEL SECURITY;
ALTER TABLE question_sets FORCE ROW LEVEL SECURITY;
CREATE POLICY question_sets_tenant ON question_sets
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());

ALTER TABLE question_sends ENABLE ROW LEVEL SECURITY;
ALTER TABLE question_sends FORCE ROW LEVEL SECURITY;
CREATE POLICY question_sends_tenant ON question_sends
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());

ALTER TABLE question_requests ENABLE ROW LEVEL SECURITY;
ALTER TABLE question_requests FORCE ROW LEVEL SECURITY;
CREATE POLICY question_requests_tenant ON question_requests
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());
-- Whoever holds an answer link may find that one request (and then works
-- in its organisation's context).
CREATE POLICY question_requests_by_token ON question_requests FOR SELECT
    USING (token_hash = aivet_request_token());

ALTER TABLE question_items ENABLE ROW LEVEL SECURITY;
ALTER TABLE question_items FORCE ROW LEVEL SECURITY;
CREATE POLICY question_items_tenant ON question_items
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());

ALTER TABLE question_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE question_events FORCE ROW LEVEL SECURITY;
CREATE POLICY question_events_tenant ON question_events
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());

ALTER TABLE attachments ENABLE ROW LEVEL SECURITY;
ALTER TABLE attachments FORCE ROW LEVEL SECURITY;
CREATE POLICY attachments_tenant ON attachments
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());

ALTER TABLE question_request_services ENABLE ROW LEVEL SECURITY;
ALTER TABLE question_request_services FORCE ROW LEVEL SECURITY;
CREATE POLICY question_request_services_tenant ON question_request_services
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());
