-- Password reset links: only a keyed hash of the token is stored; single use,
-- short-lived. They belong to a person, not an organisation.
CREATE TABLE password_resets (
    token_hash BLOB PRIMARY KEY NOT NULL,
    user_id    BLOB NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at    TEXT
) STRICT;
CREATE INDEX password_resets_user ON password_resets (user_id);
