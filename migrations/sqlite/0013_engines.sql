-- Engine advisories. A service's inference engine becomes structured:
-- which engine, which version, and where the version came from; the free
-- text of earlier versions stays, and is read into the new columns once
-- where it clearly names an engine (by the store, with the domain's
-- parser: `engine_parsed` marks the rows already read). Owners import OSV
-- records of their own next to the ones aivet ships. What matches is kept
-- per service (`advisory_hits`) and recomputed when an advisory is
-- imported or an engine changes, not on every page view;
-- `advisories_matched` names the catalogue the hits were computed with.

ALTER TABLE services ADD COLUMN engine_kind TEXT CHECK (engine_kind IN ('sglang', 'vllm', 'tensorrt_llm', 'tgi', 'llama_cpp', 'ollama', 'other'));
ALTER TABLE services ADD COLUMN engine_version TEXT;
ALTER TABLE services ADD COLUMN engine_source TEXT CHECK (engine_source IN ('vendor_answer', 'contract', 'own_deployment'));
ALTER TABLE services ADD COLUMN engine_parsed INTEGER NOT NULL DEFAULT 0 CHECK (engine_parsed IN (0, 1));
UPDATE services SET engine_parsed = 1 WHERE engine IS NULL;

ALTER TABLE orgs ADD COLUMN advisories_matched TEXT;

CREATE TABLE advisories (
    org_id      BLOB NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    id          TEXT NOT NULL,
    osv         TEXT NOT NULL,
    imported_by TEXT NOT NULL,
    imported_at TEXT NOT NULL,
    PRIMARY KEY (org_id, id)
) STRICT;

CREATE TABLE advisory_hits (
    org_id      BLOB NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    service_id  BLOB NOT NULL,
    advisory_id TEXT NOT NULL,
    exposure    TEXT NOT NULL CHECK (exposure IN ('affected', 'unknown')),
    fixed       TEXT,
    PRIMARY KEY (org_id, service_id, advisory_id),
    FOREIGN KEY (org_id, service_id) REFERENCES services (org_id, id) ON DELETE CASCADE
) STRICT;
