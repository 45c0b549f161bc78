-- A number per organisation that grows with every change to what its
-- dashboard counts: its services, follow-ups, vendors, findings,
-- incidents and its own row (the data class policy's review). The store
-- keeps the dashboard it last counted beside that number and counts again
-- only when the number (or the day) has changed: at 5,000 services the
-- count is a pass over 5,000 index entries, reading the number is one row.
-- Triggers keep it, so no write can forget it; a store story compares the
-- kept dashboard with a fresh count after a write to each table.
-- No row yet means 0.
--
-- The triggers are deferred to the commit, and a transaction raises each
-- organisation's number once (the organisations done are listed in the
-- transaction's setting aivet.changed):
-- * a number raised while the transaction still writes would hold the
--   organisation's row locked across its later writes, and two
--   transactions writing the same rows in turn could deadlock on it;
-- * a statement of 5,000 rows would otherwise write 5,000 versions of
--   one row in one transaction.
-- A writer's scope at commit may be another organisation's than the
-- row's (a transaction that moved on), so the function raises the number
-- in the system scope and then puts the scope back.

CREATE TABLE org_changes (
    org_id uuid PRIMARY KEY,
    n      bigint NOT NULL
);
ALTER TABLE org_changes ENABLE ROW LEVEL SECURITY;
ALTER TABLE org_changes FORCE ROW LEVEL SECURITY;
CREATE POLICY org_changes_tenant ON org_changes
    USING (org_id = aivet_org() OR aivet_system()) WITH CHECK (org_id = aivet_org() OR aivet_system());

CREATE FUNCTION aivet_org_changed() RETURNS trigger LANGUAGE plpgsql AS
$$
DECLARE
    org uuid;
    done text := coalesce(current_setting('aivet.changed', true), '');
    system text;
BEGIN
    IF TG_TABLE_NAME = 'orgs' THEN
        org := NEW.id;
    ELSIF TG_OP = 'DELETE' THEN
        org := OLD.org_id;
    ELSE
        org := NEW.org_id;
    END IF;
    IF strpos(done, org::text) > 0 THEN
        RETURN NULL;
    END IF;
    system := coalesce(current_setting('aivet.system', true), '');
    PERFORM set_config('aivet.system', 'on', true);
    INSERT INTO org_changes (org_id, n) VALUES (org, 1)
        ON CONFLICT (org_id) DO UPDATE SET n = org_changes.n + 1;
    PERFORM set_config('aivet.system', system, true);
    PERFORM set_config('aivet.changed', done || org::text || ' ', true);
    RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER services_changed AFTER INSERT OR UPDATE OR DELETE ON services
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION aivet_org_changed();
CREATE CONSTRAINT TRIGGER follow_ups_changed AFTER INSERT OR UPDATE OR DELETE ON follow_ups
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION aivet_org_changed();
CREATE CONSTRAINT TRIGGER vendors_changed AFTER INSERT OR UPDATE OR DELETE ON vendors
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION aivet_org_changed();
CREATE CONSTRAINT TRIGGER findings_changed AFTER INSERT OR UPDATE OR DELETE ON findings
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION aivet_org_changed();
CREATE CONSTRAINT TRIGGER incidents_changed AFTER INSERT OR UPDATE OR DELETE ON incidents
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION aivet_org_changed();
CREATE CONSTRAINT TRIGGER orgs_changed AFTER UPDATE ON orgs
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION aivet_org_changed();
