-- The inventory: data classes, vendors with their contacts, AI services with
-- the data classes they receive, and what the documents say (findings).
-- Names are unique per organisation regardless of case (name_key is the
-- lower-cased name). Same rules as 0001: org_id NOT NULL, indexes led by
-- org_id, composite (org_id, id) references, row-level security forced.

CREATE TABLE data_classes (
    id          uuid PRIMARY KEY,
    org_id      uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    name        text NOT NULL,
    name_key    text NOT NULL,
    personal    boolean NOT NULL,
    position    integer NOT NULL,
    archived_at timestamptz,
    UNIQUE (org_id, id),
    UNIQUE (org_id, name_key)
);

CREATE TABLE vendors (
    id                uuid PRIMARY KEY,
    org_id            uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    name              text NOT NULL,
    name_key          text NOT NULL,
    website           text,
    role              text NOT NULL CHECK (role IN ('model_provider', 'inference_host', 'application', 'integrator')),
    dpa_url           text,
    privacy_url       text,
    subprocessors_url text,
    status_url        text,
    trust_url         text,
    notes             text,
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL,
    archived_at       timestamptz,
    UNIQUE (org_id, id),
    UNIQUE (org_id, name_key)
);

CREATE TABLE vendor_contacts (
    id         uuid PRIMARY KEY,
    org_id     uuid NOT NULL,
    vendor_id  uuid NOT NULL,
    name       text NOT NULL,
    email      text NOT NULL,
    lang       text NOT NULL CHECK (lang IN ('en', 'de', 'nb')),
    role       text NOT NULL CHECK (role IN ('security', 'dpo', 'account_manager', 'other')),
    is_primary boolean NOT NULL,
    created_at timestamptz NOT NULL,
    UNIQUE (org_id, id),
    FOREIGN KEY (org_id, vendor_id) REFERENCES vendors (org_id, id) ON DELETE CASCADE
);
CREATE INDEX vendor_contacts_vendor ON vendor_contacts (org_id, vendor_id);

CREATE TABLE services (
    id                 uuid PRIMARY KEY,
    org_id             uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    name               text NOT NULL,
    name_key           text NOT NULL,
    purpose            text,
    vendor_id          uuid NOT NULL,
    integrator_id      uuid,
    model_provider_id  uuid,
    inference_host_id  uuid,
    model              text,
    engine             text,
    deployment         text NOT NULL CHECK (deployment IN ('unknown', 'shared', 'dedicated', 'on_premises')),
    owner_id           uuid,
    status             text NOT NULL CHECK (status IN ('in_use', 'trial', 'retired')),
    dpa_signed_on      date,
    dpa_url            text,
    notice_hours       integer,
    notice_channel     text,
    authority_notifier text NOT NULL CHECK (authority_notifier IN ('unclear', 'us', 'vendor')),
    -- Kept by the store on every change, so that lists and the dashboard
    -- need no per-row subqueries: receives a personal data class; how many
    -- of the three findings are known.
    personal           boolean NOT NULL DEFAULT false,
    known_findings     integer NOT NULL DEFAULT 0,
    created_at         timestamptz NOT NULL,
    updated_at         timestamptz NOT NULL,
    archived_at        timestamptz,
    UNIQUE (org_id, id),
    UNIQUE (org_id, name_key),
    FOREIGN KEY (org_id, vendor_id) REFERENCES vendors (org_id, id),
    FOREIGN KEY (org_id, integrator_id) REFERENCES vendors (org_id, id),
    FOREIGN KEY (org_id, model_provider_id) REFERENCES vendors (org_id, id),
    FOREIGN KEY (org_id, inference_host_id) REFERENCES vendors (org_id, id),
    FOREIGN KEY (org_id, owner_id) REFERENCES memberships (org_id, id)
);
CREATE INDEX services_vendor ON services (org_id, vendor_id);
CREATE INDEX services_integrator ON services (org_id, integrator_id);
CREATE INDEX services_model_provider ON services (org_id, model_provider_id);
CREATE INDEX services_inference_host ON services (org_id, inference_host_id);
CREATE INDEX services_owner ON services (org_id, owner_id);
CREATE INDEX services_updated ON services (org_id, updated_at);
CREATE INDEX services_status ON services (org_id, status);

CREATE TABLE service_data_classes (
    org_id        uuid NOT NULL,
    service_id    uuid NOT NULL,
    data_class_id uuid NOT NULL,
    PRIMARY KEY (org_id, service_id, data_class_id),
    FOREIGN KEY (org_id, service_id) REFERENCES services (org_id, id) ON DELETE CASCADE,
    FOREIGN KEY (org_id, data_class_id) REFERENCES data_classes (org_id, id)
);
CREATE INDEX service_data_classes_class ON service_data_classes (org_id, data_class_id);

CREATE TABLE findings (
    id         uuid PRIMARY KEY,
    org_id     uuid NOT NULL,
    service_id uuid NOT NULL,
    topic      text NOT NULL CHECK (topic IN ('separation', 'retention', 'notification')),
    status     text NOT NULL CHECK (status IN ('unknown', 'stated', 'verified')),
    summary    text,
    source_url text,
    checked_on date,
    updated_at timestamptz NOT NULL,
    UNIQUE (org_id, id),
    UNIQUE (org_id, service_id, topic),
    FOREIGN KEY (org_id, service_id) REFERENCES services (org_id, id) ON DELETE CASCADE
);

ALTER TABLE data_classes ENABLE ROW LEVEL SECURITY;
ALTER TABLE data_classes FORCE ROW LEVEL SECURITY;
CREATE POLICY data_classes_tenant ON data_classes
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());

ALTER TABLE vendors ENABLE ROW LEVEL SECURITY;
ALTER TABLE vendors FORCE ROW LEVEL SECURITY;
CREATE POLICY vendors_tenant ON vendors
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());

ALTER TABLE vendor_contacts ENABLE ROW LEVEL SECURITY;
ALTER TABLE vendor_contacts FORCE ROW LEVEL SECURITY;
CREATE POLICY vendor_contacts_tenant ON vendor_contacts
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());

ALTER TABLE services ENABLE ROW LEVEL SECURITY;
ALTER TABLE services FORCE ROW LEVEL SECURITY;
CREATE POLICY services_tenant ON services
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());

ALTER TABLE service_data_classes ENABLE ROW LEVEL SECURITY;
ALTER TABLE service_data_classes FORCE ROW LEVEL SECURITY;
CREATE POLICY service_data_classes_tenant ON service_data_classes
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());

ALTER TABLE findings ENABLE ROW LEVEL SECURITY;
ALTER TABLE findings FORCE ROW LEVEL SECURITY;
CREATE POLICY findings_tenant ON findings
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());
