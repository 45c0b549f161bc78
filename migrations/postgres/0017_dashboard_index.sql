-- The dashboard counts its services in one pass (services by status with
-- their personal data, findings, assessment, clearance, advisory flags and
-- whether they have an open follow-up). This index holds every column of
-- the pass, so it reads no table row. It begins with the columns of
-- services_figures, which it replaces.

DROP INDEX services_figures;
CREATE INDEX services_dashboard ON services (org_id, archived_at, status, personal, known_findings, assessment,
    clearance_gap, clearance_open, clearance_until, advisory_affected, advisory_unknown, id);
