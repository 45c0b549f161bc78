-- The inventory: data classes, vendors with their contacts, AI services with
-- the data classes they receive, and what the documents say (findings).
-- Names are unique per organisation regardless of case (name_key is the
-- lower-cased name). Dates without time are 'YYYY-MM-DD' text.

CREATE TABLE data_classes (
    id          BLOB PRIMARY KEY NOT NULL,
    org_id      BLOB NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    name_key    TEXT NOT NULL,
    personal    INTEGER NOT NULL CHECK (personal IN (0, 1)),
    position    INTEGER NOT NULL,
    archived_at TEXT,
    UNIQUE (org_id, id),
    UNIQUE (org_id, name_key)
) STRICT;

CREATE TABLE vendors (
    id                BLOB PRIMARY KEY NOT NULL,
    org_id            BLOB NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    name              TEXT NOT NULL,
    name_key          TEXT NOT NULL,
    website           TEXT,
    role              TEXT NOT NULL CHECK (role IN ('model_provider', 'inference_host', 'application', 'integrator')),
    dpa_url           TEXT,
    privacy_url       TEXT,
    subprocessors_url TEXT,
    status_url        TEXT,
    trust_url         TEXT,
    notes             TEXT,
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL,
    archived_at       TEXT,
    UNIQUE (org_id, id),
    UNIQUE (org_id, name_key)
) STRICT;

CREATE TABLE vendor_contacts (
    id         BLOB PRIMARY KEY NOT NULL,
    org_id     BLOB NOT NULL,
    vendor_id  BLOB NOT NULL,
    name       TEXT NOT NULL,
    email      TEXT NOT NULL,
    lang       TEXT NOT NULL CHECK (lang IN ('en', 'de', 'nb')),
    role       TEXT NOT NULL CHECK (role IN ('security', 'dpo', 'account_manager', 'other')),
    is_primary INTEGER NOT NULL CHECK (is_primary IN (0, 1)),
    created_at TEXT NOT NULL,
    UNIQUE (org_id, id),
    FOREIGN KEY (org_id, vendor_id) REFERENCES vendors (org_id, id) ON DELETE CASCADE
) STRICT;
CREATE INDEX vendor_contacts_vendor ON vendor_contacts (org_id, vendor_id);

CREATE TABLE services (
    id                 BLOB PRIMARY KEY NOT NULL,
    org_id             BLOB NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    name               TEXT NOT NULL,
    name_key           TEXT NOT NULL,
    purpose            TEXT,
    vendor_id          BLOB NOT NULL,
    integrator_id      BLOB,
    model_provider_id  BLOB,
    inference_host_id  BLOB,
    model              TEXT,
    engine             TEXT,
    deployment         TEXT NOT NULL CHECK (deployment IN ('unknown', 'shared', 'dedicated', 'on_premises')),
    owner_id           BLOB,
    status             TEXT NOT NULL CHECK (status IN ('in_use', 'trial', 'retired')),
    dpa_signed_on      TEXT,
    dpa_url            TEXT,
    notice_hours       INTEGER,
    notice_channel     TEXT,
    authority_notifier TEXT NOT NULL CHECK (authority_notifier IN ('unclear', 'us', 'vendor')),
    -- Kept by the store on every change, so that lists and the dashboard
    -- need no per-row subqueries: receives a personal data class; how many
    -- of the three findings are known.
    personal           INTEGER NOT NULL DEFAULT 0 CHECK (personal IN (0, 1)),
    known_findings     INTEGER NOT NULL DEFAULT 0,
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL,
    archived_at        TEXT,
    UNIQUE (org_id, id),
    UNIQUE (org_id, name_key),
    FOREIGN KEY (org_id, vendor_id) REFERENCES vendors (org_id, id),
    FOREIGN KEY (org_id, integrator_id) REFERENCES vendors (org_id, id),
    FOREIGN KEY (org_id, model_provider_id) REFERENCES vendors (org_id, id),
    FOREIGN KEY (org_id, inference_host_id) REFERENCES vendors (org_id, id),
    FOREIGN KEY (org_id, owner_id) REFERENCES memberships (org_id, id)
) STRICT;
CREATE INDEX services_vendor ON services (org_id, vendor_id);
CREATE INDEX services_integrator ON services (org_id, integrator_id);
CREATE INDEX services_model_provider ON services (org_id, model_provider_id);
CREATE INDEX services_inference_host ON services (org_id, inference_host_id);
CREATE INDEX services_owner ON services (org_id, owner_id);
CREATE INDEX services_updated ON services (org_id, updated_at);
CREATE INDEX services_status ON services (org_id, status);

CREATE TABLE service_data_classes (
    org_id        BLOB NOT NULL,
    service_id    BLOB NOT NULL,
    data_class_id BLOB NOT NULL,
    PRIMARY KEY (org_id, service_id, data_class_id),
    FOREIGN KEY (org_id, service_id) REFERENCES services (org_id, id) ON DELETE CASCADE,
    FOREIGN KEY (org_id, data_class_id) REFERENCES data_classes (org_id, id)
) STRICT;
CREATE INDEX service_data_classes_class ON service_data_classes (org_id, data_class_id);

CREATE TABLE findings (
    id         BLOB PRIMARY KEY NOT NULL,
    org_id     BLOB NOT NULL,
    service_id BLOB NOT NULL,
    topic      TEXT NOT NULL CHECK (topic IN ('separation', 'retention', 'notification')),
    status     TEXT NOT NULL CHECK (status IN ('unknown', 'stated', 'verified')),
    summary    TEXT,
    source_url TEXT,
    checked_on TEXT,
    updated_at TEXT NOT NULL,
    UNIQUE (org_id, id),
    UNIQUE (org_id, service_id, topic),
    FOREIGN KEY (org_id, service_id) REFERENCES services (org_id, id) ON DELETE CASCADE
) STRICT;
