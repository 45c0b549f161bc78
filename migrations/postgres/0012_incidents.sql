-- Vendor incidents: the register every breach goes into (Art. 33(5) GDPR),
-- notified or not. Times are UTC; `we_aware_at` starts the 72-hour clock
-- when personal data may be involved. The Art. 33 and Art. 34 decisions
-- are separate, each with its rationale. An incident names its vendors,
-- the services it affects (linking suspends their clearance decisions for
-- protected classes), and the data classes involved. Its timeline is
-- append-only (PostgreSQL grants the app no UPDATE or DELETE on it).

CREATE TABLE incidents (
    id                  uuid PRIMARY KEY,
    org_id              uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    title               text NOT NULL,
    description         text,
    source_links        text NOT NULL DEFAULT '[]',
    exposure_start      timestamptz,
    exposure_end        timestamptz,
    vendor_aware_at     timestamptz,
    vendor_fixed_at     timestamptz,
    vendor_notified_at  timestamptz,
    vendor_notified_how text,
    disclosed_at        timestamptz,
    we_aware_at         timestamptz NOT NULL,
    affected            text NOT NULL CHECK (affected IN ('unknown', 'yes', 'no')),
    affected_evidence   text,
    personal_data       boolean NOT NULL DEFAULT false,
    risk                text NOT NULL CHECK (risk IN ('not_assessed', 'none', 'risk', 'high')),
    state               text NOT NULL CHECK (state IN ('open', 'closed')),
    art33_decision      text CHECK (art33_decision IN ('notify', 'not_required')),
    art33_rationale     text,
    art33_notified_at   timestamptz,
    art33_authority     text,
    art33_reference     text,
    art33_delay_reason  text,
    art33_decided_by    text,
    art33_decided_at    timestamptz,
    art34_decision      text CHECK (art34_decision IN ('inform', 'not_required')),
    art34_rationale     text,
    art34_informed_on   date,
    art34_decided_by    text,
    art34_decided_at    timestamptz,
    created_by          text NOT NULL,
    created_at          timestamptz NOT NULL,
    updated_at          timestamptz NOT NULL,
    closed_at           timestamptz,
    UNIQUE (org_id, id)
);
CREATE INDEX incidents_register ON incidents (org_id, state, we_aware_at);

CREATE TABLE incident_vendors (
    org_id      uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    incident_id uuid NOT NULL,
    vendor_id   uuid NOT NULL,
    PRIMARY KEY (org_id, incident_id, vendor_id),
    FOREIGN KEY (org_id, incident_id) REFERENCES incidents (org_id, id) ON DELETE CASCADE,
    FOREIGN KEY (org_id, vendor_id) REFERENCES vendors (org_id, id) ON DELETE CASCADE
);
CREATE INDEX incident_vendors_vendor ON incident_vendors (org_id, vendor_id);

CREATE TABLE incident_services (
    org_id      uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    incident_id uuid NOT NULL,
    service_id  uuid NOT NULL,
    linked_at   timestamptz NOT NULL,
    PRIMARY KEY (org_id, incident_id, service_id),
    FOREIGN KEY (org_id, incident_id) REFERENCES incidents (org_id, id) ON DELETE CASCADE,
    FOREIGN KEY (org_id, service_id) REFERENCES services (org_id, id) ON DELETE CASCADE
);
CREATE INDEX incident_services_service ON incident_services (org_id, service_id);

CREATE TABLE incident_data_classes (
    org_id        uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    incident_id   uuid NOT NULL,
    data_class_id uuid NOT NULL,
    PRIMARY KEY (org_id, incident_id, data_class_id),
    FOREIGN KEY (org_id, incident_id) REFERENCES incidents (org_id, id) ON DELETE CASCADE,
    FOREIGN KEY (org_id, data_class_id) REFERENCES data_classes (org_id, id) ON DELETE CASCADE
);
CREATE INDEX incident_data_classes_class ON incident_data_classes (org_id, data_class_id);

CREATE TABLE incident_entries (
    id          uuid PRIMARY KEY,
    org_id      uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    incident_id uuid NOT NULL,
    seq         bigint NOT NULL,
    kind        text NOT NULL,
    detail      text NOT NULL,
    actor       text NOT NULL,
    at          timestamptz NOT NULL,
    FOREIGN KEY (org_id, incident_id) REFERENCES incidents (org_id, id) ON DELETE CASCADE
);
CREATE INDEX incident_entries_incident ON incident_entries (org_id, incident_id, seq);

ALTER TABLE incidents ENABLE ROW LEVEL SECURITY;
ALTER TABLE incidents FORCE ROW LEVEL SECURITY;
CREATE POLICY incidents_tenant ON incidents
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());

ALTER TABLE incident_vendors ENABLE ROW LEVEL SECURITY;
ALTER TABLE incident_vendors FORCE ROW LEVEL SECURITY;
CREATE POLICY incident_vendors_tenant ON incident_vendors
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());

ALTER TABLE incident_services ENABLE ROW LEVEL SECURITY;
ALTER TABLE incident_services FORCE ROW LEVEL SECURITY;
CREATE POLICY incident_services_tenant ON incident_services
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());

ALTER TABLE incident_data_classes ENABLE ROW LEVEL SECURITY;
ALTER TABLE incident_data_classes FORCE ROW LEVEL SECURITY;
CREATE POLICY incident_data_classes_tenant ON incident_data_classes
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());

ALTER TABLE incident_entries ENABLE ROW LEVEL SECURITY;
ALTER TABLE incident_entries FORCE ROW LEVEL SECURITY;
CREATE POLICY incident_entries_tenant ON incident_entries
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());

-- Since when the latest open incident that may affect the service was
-- linked to it (kept by the store): clearance decisions for protected classes made
-- before then are suspended until decided again.
ALTER TABLE services ADD COLUMN suspended_since timestamptz;
