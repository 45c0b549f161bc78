-- Engine advisories. A service's inference engine becomes structured:
-- which engine, which version, and where the version came from; the free
-- text of earlier versions stays, and is read into the new columns once
-- where it clearly names an engine (by the store, with the domain's
-- parser: `engine_parsed` marks the rows already read). Owners import OSV
-- records of their own next to the ones aivet ships. What matches is kept
-- per service (`advisory_hits`) and recomputed when an advisory is
-- imported or an engine changes, not on every page view;
-- `advisories_matched` names the catalogue the hits were computed with.

ALTER TABLE services ADD COLUMN engine_kind text CHECK (engine_kind IN ('sglang', 'vllm', 'tensorrt_llm', 'tgi', 'llama_cpp', 'ollama', 'other'));
ALTER TABLE services ADD COLUMN engine_version text;
ALTER TABLE services ADD COLUMN engine_source text CHECK (engine_source IN ('vendor_answer', 'contract', 'own_deployment'));
ALTER TABLE services ADD COLUMN engine_parsed boolean NOT NULL DEFAULT false;
ALTER TABLE services NO FORCE ROW LEVEL SECURITY;
UPDATE services SET engine_parsed = true WHERE engine IS NULL;
ALTER TABLE services FORCE ROW LEVEL SECURITY;

ALTER TABLE orgs ADD COLUMN advisories_matched text;

CREATE TABLE advisories (
    org_id      uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    id          text NOT NULL,
    osv         text NOT NULL,
    imported_by text NOT NULL,
    imported_at timestamptz NOT NULL,
    PRIMARY KEY (org_id, id)
);

CREATE TABLE advisory_hits (
    org_id      uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    service_id  uuid NOT NULL,
    advisory_id text NOT NULL,
    exposure    text NOT NULL CHECK (exposure IN ('affected', 'unknown')),
    fixed       text,
    PRIMARY KEY (org_id, service_id, advisory_id),
    FOREIGN KEY (org_id, service_id) REFERENCES services (org_id, id) ON DELETE CASCADE
);

ALTER TABLE advisories ENABLE ROW LEVEL SECURITY;
ALTER TABLE advisories FORCE ROW LEVEL SECURITY;
CREATE POLICY advisories_tenant ON advisories
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());

ALTER TABLE advisory_hits ENABLE ROW LEVEL SECURITY;
ALTER TABLE advisory_hits FORCE ROW LEVEL SECURITY;
CREATE POLICY advisory_hits_tenant ON advisory_hits
    USING (org_id = aivet_org()) WITH CHECK (org_id = aivet_org());
