-- Data clearance: which data classes may go into which AI service.
-- The organisation's policy marks the classes that need a cleared
-- assessment (and a decision) before they may go into any AI service;
-- existing organisations start with personal data, special categories and
-- confidential data protected, as new ones do. `policy_reviewed_at` is set
-- when an owner has looked at the policy once (step 4 of the guide).
-- One decision per service and class: allowed, allowed with a condition,
-- or not allowed, with an optional last day and the evidence it cites
-- (findings by topic, answers by request and position, as JSON).

ALTER TABLE data_classes ADD COLUMN needs_clearance boolean NOT NULL DEFAULT false;
UPDATE data_classes SET needs_clearance = true
WHERE personal OR name_key IN ('confidential', 'vertraulich', 'konfidensielt');

ALTER TABLE orgs ADD COLUMN policy_reviewed_at timestamptz;
ALTER TABLE orgs ADD COLUMN policy_reviewed_by text;
ALTER TABLE orgs ADD COLUMN expiry_notice_days integer NOT NULL DEFAULT 14;

CREATE TABLE clearances (
    org_id        uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    service_id    uuid NOT NULL,
    data_class_id uuid NOT NULL,
    clearance     text NOT NULL CHECK (clearance IN ('allowed', 'conditional', 'not_allowed')),
    condition     text,
    expires_on    date,
    evidence      text NOT NULL DEFAULT '[]',
    decided_by    text NOT NULL,
    decided_at    timestamptz NOT NULL,
    PRIMARY KEY (org_id, service_id, data_class_id),
    FOREIGN KEY (org_id, service_id) REFERENCES services (org_id, id) ON DELETE CASCADE,
    FOREIGN KEY (org_id, data_class_id) REFERENCES data_classes (org_id, id) ON DELETE CASCADE
);
CREATE INDEX clearances_class ON clearances (org_id, data_class_id);

ALTER TABLE clearances ENABLE ROW LEVEL SECURITY;
ALTER TABLE clearances FORCE ROW LEVEL SECURITY;
CREATE POLICY clearances_tenant ON clearances
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());
