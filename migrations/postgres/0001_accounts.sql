-- Accounts, organisations, memberships, sessions, invitations and the audit log.
-- Every tenant table has org_id NOT NULL, an index led by org_id, a UNIQUE
-- (org_id, id) key that child tables reference together with org_id, and
-- row-level security, ENABLED and FORCED, as a second wall behind the
-- application's own org_id filters.
--
-- The application sets its context per transaction with
--   SELECT set_config('aivet.org_id', $1, true), set_config('aivet.user_id', $2, true)
-- Without a context, tenant tables show no rows at all.

CREATE FUNCTION aivet_org() RETURNS uuid LANGUAGE sql STABLE AS
$$ SELECT NULLIF(current_setting('aivet.org_id', true), '')::uuid $$;
CREATE FUNCTION aivet_user() RETURNS uuid LANGUAGE sql STABLE AS
$$ SELECT NULLIF(current_setting('aivet.user_id', true), '')::uuid $$;
CREATE FUNCTION aivet_invite_token() RETURNS bytea LANGUAGE sql STABLE AS
$$ SELECT decode(NULLIF(current_setting('aivet.invite_token', true), ''), 'hex') $$;

CREATE TABLE users (
    id                  uuid PRIMARY KEY,
    email               text NOT NULL UNIQUE,
    name                text NOT NULL,
    password_hash       text NOT NULL,
    lang                text NOT NULL CHECK (lang IN ('en', 'de', 'nb')),
    created_at          timestamptz NOT NULL,
    password_changed_at timestamptz NOT NULL
);

CREATE TABLE orgs (
    id         uuid PRIMARY KEY,
    slug       text NOT NULL UNIQUE,
    name       text NOT NULL,
    created_at timestamptz NOT NULL
);

CREATE TABLE memberships (
    id         uuid PRIMARY KEY,
    org_id     uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role       text NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
    created_at timestamptz NOT NULL,
    UNIQUE (org_id, id),
    UNIQUE (org_id, user_id)
);
CREATE INDEX memberships_user ON memberships (user_id);

CREATE TABLE invites (
    id          uuid PRIMARY KEY,
    org_id      uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    email       text NOT NULL,
    role        text NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
    token_hash  bytea NOT NULL UNIQUE,
    created_by  uuid NOT NULL REFERENCES users (id),
    created_at  timestamptz NOT NULL,
    expires_at  timestamptz NOT NULL,
    accepted_at timestamptz,
    accepted_by uuid REFERENCES users (id),
    revoked_at  timestamptz,
    UNIQUE (org_id, id)
);
CREATE INDEX invites_org ON invites (org_id, created_at);

CREATE TABLE sessions (
    id_hash      bytea PRIMARY KEY,
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    org_id       uuid REFERENCES orgs (id) ON DELETE SET NULL,
    created_at   timestamptz NOT NULL,
    last_seen_at timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE audit_log (
    id            uuid PRIMARY KEY,
    org_id        uuid NOT NULL REFERENCES orgs (id),
    at            timestamptz NOT NULL,
    actor_user_id uuid REFERENCES users (id),
    actor_label   text NOT NULL,
    action        text NOT NULL,
    detail        text NOT NULL,
    UNIQUE (org_id, id)
);
CREATE INDEX audit_log_org_at ON audit_log (org_id, at);

-- Append-only even for the table owner (the app role only gets SELECT, INSERT).
CREATE FUNCTION aivet_append_only() RETURNS trigger LANGUAGE plpgsql AS
$$ BEGIN RAISE EXCEPTION '% is append-only', TG_TABLE_NAME; END $$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION aivet_append_only();

-- Row-level security.
ALTER TABLE orgs ENABLE ROW LEVEL SECURITY;
ALTER TABLE orgs FORCE ROW LEVEL SECURITY;
-- An organisation is visible inside its own context, and to its members
-- (the organisation switcher lists them).
CREATE POLICY orgs_read ON orgs FOR SELECT USING (
    id = aivet_org()
    OR id IN (SELECT m.org_id FROM memberships m WHERE m.user_id = aivet_user())
);
CREATE POLICY orgs_create ON orgs FOR INSERT WITH CHECK (id = aivet_org());
CREATE POLICY orgs_update ON orgs FOR UPDATE USING (id = aivet_org()) WITH CHECK (id = aivet_org());

ALTER TABLE memberships ENABLE ROW LEVEL SECURITY;
ALTER TABLE memberships FORCE ROW LEVEL SECURITY;
CREATE POLICY memberships_tenant ON memberships
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());
-- A signed-in user sees their own memberships in every organisation.
CREATE POLICY memberships_own ON memberships FOR SELECT USING (user_id = aivet_user());

ALTER TABLE invites ENABLE ROW LEVEL SECURITY;
ALTER TABLE invites FORCE ROW LEVEL SECURITY;
CREATE POLICY invites_tenant ON invites
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());
-- Whoever holds the link may read that one invitation.
CREATE POLICY invites_by_token ON invites FOR SELECT USING (token_hash = aivet_invite_token());

ALTER TABLE audit_log ENABLE ROW LEVEL SECURITY;
ALTER TABLE audit_log FORCE ROW LEVEL SECURITY;
CREATE POLICY audit_log_tenant ON audit_log
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());
