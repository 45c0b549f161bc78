-- The durable outbox: one row per mail, rendered when it is queued (in the
-- same transaction as the change that caused it), sent by a worker that
-- claims rows with a lease. Rows are never deleted on failure.
-- org_id is empty for mails that belong to a person, not an organisation
-- (password resets); the settings page lists an organisation's own mails.

CREATE TABLE outbox (
    id               uuid PRIMARY KEY,
    org_id           uuid REFERENCES orgs (id),
    kind             text NOT NULL,
    recipient        text NOT NULL,
    subject          text NOT NULL,
    message          bytea NOT NULL,
    message_id       text NOT NULL UNIQUE,
    status           text NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'retrying', 'failed')),
    attempts         integer NOT NULL DEFAULT 0,
    created_at       timestamptz NOT NULL,
    next_attempt_at  timestamptz NOT NULL,
    give_up_at       timestamptz NOT NULL,
    sent_at          timestamptz,
    last_error       text,
    lease_owner      text,
    lease_expires_at timestamptz
);
CREATE INDEX outbox_org ON outbox (org_id, created_at);
CREATE INDEX outbox_due ON outbox (status, next_attempt_at);

-- The mail worker works across organisations: its transactions say so with
-- set_config('aivet.system', 'on', true). Everyone else sees their
-- organisation's mails only.
CREATE FUNCTION aivet_system() RETURNS boolean LANGUAGE sql STABLE AS
$$ SELECT coalesce(current_setting('aivet.system', true), '') = 'on' $$;

ALTER TABLE outbox ENABLE ROW LEVEL SECURITY;
ALTER TABLE outbox FORCE ROW LEVEL SECURITY;
CREATE POLICY outbox_tenant ON outbox
    USING (org_id = aivet_org() OR aivet_system())
    WITH CHECK (org_id = aivet_org() OR aivet_system());
