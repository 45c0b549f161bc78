-- Whether a service has an advisory hit that affects it, and one whose
-- exposure is unknown, kept on the service beside its hits: the dashboard
-- counts services, and the hits are many (every advisory of an engine on
-- a service whose version is not known). Writing a service's hits sets
-- them, in the same transaction.

ALTER TABLE services ADD COLUMN advisory_affected boolean NOT NULL DEFAULT false;
ALTER TABLE services ADD COLUMN advisory_unknown boolean NOT NULL DEFAULT false;
UPDATE services SET
    advisory_affected = EXISTS (SELECT 1 FROM advisory_hits h
        WHERE h.org_id = services.org_id AND h.service_id = services.id AND h.exposure = 'affected'),
    advisory_unknown = EXISTS (SELECT 1 FROM advisory_hits h
        WHERE h.org_id = services.org_id AND h.service_id = services.id AND h.exposure = 'unknown');
