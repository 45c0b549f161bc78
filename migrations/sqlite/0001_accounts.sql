-- Accounts, organisations, memberships, sessions, invitations and the audit log.
-- Ids are UUIDs (16-byte blobs); times are UTC text with a fixed width
-- (YYYY-MM-DDTHH:MM:SS.ffffffZ), so that they sort and compare as text.
-- Every tenant table has org_id NOT NULL, an index led by org_id, and a
-- UNIQUE (org_id, id) key that child tables reference together with org_id.

CREATE TABLE users (
    id                  BLOB PRIMARY KEY NOT NULL,
    email               TEXT NOT NULL UNIQUE,
    name                TEXT NOT NULL,
    password_hash       TEXT NOT NULL,
    lang                TEXT NOT NULL CHECK (lang IN ('en', 'de', 'nb')),
    created_at          TEXT NOT NULL,
    password_changed_at TEXT NOT NULL
) STRICT;

CREATE TABLE orgs (
    id         BLOB PRIMARY KEY NOT NULL,
    slug       TEXT NOT NULL UNIQUE,
    name       TEXT NOT NULL,
    created_at TEXT NOT NULL
) STRICT;

CREATE TABLE memberships (
    id         BLOB PRIMARY KEY NOT NULL,
    org_id     BLOB NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    user_id    BLOB NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role       TEXT NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
    created_at TEXT NOT NULL,
    UNIQUE (org_id, id),
    UNIQUE (org_id, user_id)
) STRICT;
CREATE INDEX memberships_user ON memberships (user_id);

CREATE TABLE invites (
    id          BLOB PRIMARY KEY NOT NULL,
    org_id      BLOB NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    email       TEXT NOT NULL,
    role        TEXT NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
    token_hash  BLOB NOT NULL UNIQUE,
    created_by  BLOB NOT NULL REFERENCES users (id),
    created_at  TEXT NOT NULL,
    expires_at  TEXT NOT NULL,
    accepted_at TEXT,
    accepted_by BLOB REFERENCES users (id),
    revoked_at  TEXT,
    UNIQUE (org_id, id)
) STRICT;
CREATE INDEX invites_org ON invites (org_id, created_at);

CREATE TABLE sessions (
    id_hash      BLOB PRIMARY KEY NOT NULL,
    user_id      BLOB NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    org_id       BLOB REFERENCES orgs (id) ON DELETE SET NULL,
    created_at   TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    expires_at   TEXT NOT NULL
) STRICT;
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE audit_log (
    id            BLOB PRIMARY KEY NOT NULL,
    org_id        BLOB NOT NULL REFERENCES orgs (id),
    at            TEXT NOT NULL,
    actor_user_id BLOB REFERENCES users (id),
    actor_label   TEXT NOT NULL,
    action        TEXT NOT NULL,
    detail        TEXT NOT NULL,
    UNIQUE (org_id, id)
) STRICT;
CREATE INDEX audit_log_org_at ON audit_log (org_id, at);

-- The audit log is append-only.
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
