-- Data clearance: which data classes may go into which AI service.
-- The organisation's policy marks the classes that need a cleared
-- assessment (and a decision) before they may go into any AI service;
-- existing organisations start with personal data, special categories and
-- confidential data protected, as new ones do. `policy_reviewed_at` is set
-- when an owner has looked at the policy once (step 4 of the guide).
-- One decision per service and class: allowed, allowed with a condition,
-- or not allowed, with an optional last day and the evidence it cites
-- (findings by topic, answers by request and position, as JSON).

ALTER TABLE data_classes ADD COLUMN needs_clearance INTEGER NOT NULL DEFAULT 0 CHECK (needs_clearance IN (0, 1));
UPDATE data_classes SET needs_clearance = 1
WHERE personal = 1 OR name_key IN ('confidential', 'vertraulich', 'konfidensielt');

ALTER TABLE orgs ADD COLUMN policy_reviewed_at TEXT;
ALTER TABLE orgs ADD COLUMN policy_reviewed_by TEXT;
ALTER TABLE orgs ADD COLUMN expiry_notice_days INTEGER NOT NULL DEFAULT 14;

CREATE TABLE clearances (
    org_id        BLOB NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    service_id    BLOB NOT NULL,
    data_class_id BLOB NOT NULL,
    clearance     TEXT NOT NULL CHECK (clearance IN ('allowed', 'conditional', 'not_allowed')),
    condition     TEXT,
    expires_on    TEXT,
    evidence      TEXT NOT NULL DEFAULT '[]',
    decided_by    TEXT NOT NULL,
    decided_at    TEXT NOT NULL,
    PRIMARY KEY (org_id, service_id, data_class_id),
    FOREIGN KEY (org_id, service_id) REFERENCES services (org_id, id) ON DELETE CASCADE,
    FOREIGN KEY (org_id, data_class_id) REFERENCES data_classes (org_id, id) ON DELETE CASCADE
) STRICT;
CREATE INDEX clearances_class ON clearances (org_id, data_class_id);

-- What the figures need without joins (kept by the store on every change
-- they depend on; `CONFLICT` in clearance_sql.rs reads them): how many
-- received classes may not go in whatever the day, how many protected ones
-- nobody decided, and the earliest last day of a received class's decision.
ALTER TABLE services ADD COLUMN clearance_gap INTEGER NOT NULL DEFAULT 0;
ALTER TABLE services ADD COLUMN clearance_open INTEGER NOT NULL DEFAULT 0;
ALTER TABLE services ADD COLUMN clearance_until TEXT;
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
