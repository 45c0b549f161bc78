-- Data clearance: which data classes may go into which AI service.
-- The organisation's policy marks the classes that need a cleared
-- assessment (and a decision) before they may go into any AI service;
-- existing organisations start with personal data, special categories and
-- confidential data protected, as new ones do. `policy_reviewed_at` is set
-- when an owner has looked at the policy once (step 4 of the guide).
-- One decision per service and class: allowed, allowed with a condition,
-- or not allowed, with an optional last day and the evidence it cites
-- (findings by topic, answers by request and position, as JSON).

-- The updates below run over every organisation: row-level security is
-- lifted for them (as in 0008) and put back at the end.
ALTER TABLE data_classes NO FORCE ROW LEVEL SECURITY;
ALTER TABLE services NO FORCE ROW LEVEL SECURITY;
ALTER TABLE service_data_classes NO FORCE ROW LEVEL SECURITY;

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

-- What the figures need without joins (kept by the store on every change
-- they depend on; `CONFLICT` in clearance_sql.rs reads them): how many
-- received classes may not go in whatever the day, how many protected ones
-- nobody decided, and the earliest last day of a received class's decision.
ALTER TABLE services ADD COLUMN clearance_gap integer NOT NULL DEFAULT 0;
ALTER TABLE services ADD COLUMN clearance_open integer NOT NULL DEFAULT 0;
ALTER TABLE services ADD COLUMN clearance_until date;
CREATE INDEX services_clearance ON services (org_id, archived_at, status, clearance_gap, clearance_open, clearance_until);
UPDATE services SET clearance_gap = (SELECT COUNT(*) FROM service_data_classes d
        JOIN data_classes c ON c.org_id = d.org_id AND c.id = d.data_class_id
        LEFT JOIN clearances k ON k.org_id = d.org_id AND k.service_id = d.service_id AND k.data_class_id = d.data_class_id
      WHERE d.org_id = services.org_id AND d.service_id = services.id
        AND (k.clearance = 'not_allowed'
             OR (c.needs_clearance AND (k.clearance IS NULL OR services.assessment NOT IN ('cleared', 'cleared_with_conditions'))))),
    clearance_open = (SELECT COUNT(*) FROM service_data_classes d
        JOIN data_classes c ON c.org_id = d.org_id AND c.id = d.data_class_id
        LEFT JOIN clearances k ON k.org_id = d.org_id AND k.service_id = d.service_id AND k.data_class_id = d.data_class_id
      WHERE d.org_id = services.org_id AND d.service_id = services.id AND c.needs_clearance AND k.clearance IS NULL);

ALTER TABLE data_classes FORCE ROW LEVEL SECURITY;
ALTER TABLE services FORCE ROW LEVEL SECURITY;
ALTER TABLE service_data_classes FORCE ROW LEVEL SECURITY;
