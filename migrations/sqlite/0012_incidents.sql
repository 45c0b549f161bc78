-- Vendor incidents: the register every breach goes into (Art. 33(5) GDPR),
-- notified or not. Times are UTC; `we_aware_at` starts the 72-hour clock
-- when personal data may be involved. The Art. 33 and Art. 34 decisions
-- are separate, each with its rationale. An incident names its vendors,
-- the services it affects (linking suspends their clearance decisions for
-- protected classes), and the data classes involved. Its timeline is
-- append-only (PostgreSQL grants the app no UPDATE or DELETE on it).

CREATE TABLE incidents (
    id                  BLOB PRIMARY KEY NOT NULL,
    org_id              BLOB NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    title               TEXT NOT NULL,
    description         TEXT,
    source_links        TEXT NOT NULL DEFAULT '[]',
    exposure_start      TEXT,
    exposure_end        TEXT,
    vendor_aware_at     TEXT,
    vendor_fixed_at     TEXT,
    vendor_notified_at  TEXT,
    vendor_notified_how TEXT,
    disclosed_at        TEXT,
    we_aware_at         TEXT NOT NULL,
    affected            TEXT NOT NULL CHECK (affected IN ('unknown', 'yes', 'no')),
    affected_evidence   TEXT,
    personal_data       INTEGER NOT NULL DEFAULT 0 CHECK (personal_data IN (0, 1)),
    risk                TEXT NOT NULL CHECK (risk IN ('not_assessed', 'none', 'risk', 'high')),
    state               TEXT NOT NULL CHECK (state IN ('open', 'closed')),
    art33_decision      TEXT CHECK (art33_decision IN ('notify', 'not_required')),
    art33_rationale     TEXT,
    art33_notified_at   TEXT,
    art33_authority     TEXT,
    art33_reference     TEXT,
    art33_delay_reason  TEXT,
    art33_decided_by    TEXT,
    art33_decided_at    TEXT,
    art34_decision      TEXT CHECK (art34_decision IN ('inform', 'not_required')),
    art34_rationale     TEXT,
    art34_informed_on   TEXT,
    art34_decided_by    TEXT,
    art34_decided_at    TEXT,
    created_by          TEXT NOT NULL,
    created_at          TEXT NOT NULL,
    updated_at          TEXT NOT NULL,
    closed_at           TEXT,
    UNIQUE (org_id, id)
) STRICT;
CREATE INDEX incidents_register ON incidents (org_id, state, we_aware_at);

CREATE TABLE incident_vendors (
    org_id      BLOB NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    incident_id BLOB NOT NULL,
    vendor_id   BLOB NOT NULL,
    PRIMARY KEY (org_id, incident_id, vendor_id),
    FOREIGN KEY (org_id, incident_id) REFERENCES incidents (org_id, id) ON DELETE CASCADE,
    FOREIGN KEY (org_id, vendor_id) REFERENCES vendors (org_id, id) ON DELETE CASCADE
) STRICT;
CREATE INDEX incident_vendors_vendor ON incident_vendors (org_id, vendor_id);

CREATE TABLE incident_services (
    org_id      BLOB NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    incident_id BLOB NOT NULL,
    service_id  BLOB NOT NULL,
    linked_at   TEXT NOT NULL,
    PRIMARY KEY (org_id, incident_id, service_id),
    FOREIGN KEY (org_id, incident_id) REFERENCES incidents (org_id, id) ON DELETE CASCADE,
    FOREIGN KEY (org_id, service_id) REFERENCES services (org_id, id) ON DELETE CASCADE
) STRICT;
CREATE INDEX incident_services_service ON incident_services (org_id, service_id);

CREATE TABLE incident_data_classes (
    org_id        BLOB NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    incident_id   BLOB NOT NULL,
    data_class_id BLOB NOT NULL,
    PRIMARY KEY (org_id, incident_id, data_class_id),
    FOREIGN KEY (org_id, incident_id) REFERENCES incidents (org_id, id) ON DELETE CASCADE,
    FOREIGN KEY (org_id, data_class_id) REFERENCES data_classes (org_id, id) ON DELETE CASCADE
) STRICT;
CREATE INDEX incident_data_classes_class ON incident_data_classes (org_id, data_class_id);

CREATE TABLE incident_entries (
    id          BLOB PRIMARY KEY NOT NULL,
    org_id      BLOB NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    incident_id BLOB NOT NULL,
    seq         INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    detail      TEXT NOT NULL,
    actor       TEXT NOT NULL,
    at          TEXT NOT NULL,
    FOREIGN KEY (org_id, incident_id) REFERENCES incidents (org_id, id) ON DELETE CASCADE
) STRICT;
CREATE INDEX incident_entries_incident ON incident_entries (org_id, incident_id, seq);

-- Since when the latest open incident that may affect the service was
-- linked to it (kept by the store): clearance decisions for protected classes made
-- before then are suspended until decided again.
ALTER TABLE services ADD COLUMN suspended_since TEXT;
