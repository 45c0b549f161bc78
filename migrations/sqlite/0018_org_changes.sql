-- A number per organisation that grows with every change to what its
-- dashboard counts: its services, follow-ups, vendors, findings,
-- incidents and its own row (the data class policy's review). The store
-- keeps the dashboard it last counted beside that number and counts again
-- only when the number (or the day) has changed: at 5,000 services the
-- count is a pass over 5,000 index entries, reading the number is one row.
-- Triggers keep it, so no write can forget it; a store story compares the
-- kept dashboard with a fresh count after a write to each table.
-- No row yet means 0.

CREATE TABLE org_changes (
    org_id BLOB PRIMARY KEY NOT NULL,
    n      INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TRIGGER services_changed_insert AFTER INSERT ON services BEGIN
    INSERT INTO org_changes (org_id, n) VALUES (NEW.org_id, 1) ON CONFLICT (org_id) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER services_changed_update AFTER UPDATE ON services BEGIN
    INSERT INTO org_changes (org_id, n) VALUES (NEW.org_id, 1) ON CONFLICT (org_id) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER services_changed_delete AFTER DELETE ON services BEGIN
    INSERT INTO org_changes (org_id, n) VALUES (OLD.org_id, 1) ON CONFLICT (org_id) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER follow_ups_changed_insert AFTER INSERT ON follow_ups BEGIN
    INSERT INTO org_changes (org_id, n) VALUES (NEW.org_id, 1) ON CONFLICT (org_id) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER follow_ups_changed_update AFTER UPDATE ON follow_ups BEGIN
    INSERT INTO org_changes (org_id, n) VALUES (NEW.org_id, 1) ON CONFLICT (org_id) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER follow_ups_changed_delete AFTER DELETE ON follow_ups BEGIN
    INSERT INTO org_changes (org_id, n) VALUES (OLD.org_id, 1) ON CONFLICT (org_id) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER vendors_changed_insert AFTER INSERT ON vendors BEGIN
    INSERT INTO org_changes (org_id, n) VALUES (NEW.org_id, 1) ON CONFLICT (org_id) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER vendors_changed_update AFTER UPDATE ON vendors BEGIN
    INSERT INTO org_changes (org_id, n) VALUES (NEW.org_id, 1) ON CONFLICT (org_id) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER vendors_changed_delete AFTER DELETE ON vendors BEGIN
    INSERT INTO org_changes (org_id, n) VALUES (OLD.org_id, 1) ON CONFLICT (org_id) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER findings_changed_insert AFTER INSERT ON findings BEGIN
    INSERT INTO org_changes (org_id, n) VALUES (NEW.org_id, 1) ON CONFLICT (org_id) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER findings_changed_update AFTER UPDATE ON findings BEGIN
    INSERT INTO org_changes (org_id, n) VALUES (NEW.org_id, 1) ON CONFLICT (org_id) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER findings_changed_delete AFTER DELETE ON findings BEGIN
    INSERT INTO org_changes (org_id, n) VALUES (OLD.org_id, 1) ON CONFLICT (org_id) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER incidents_changed_insert AFTER INSERT ON incidents BEGIN
    INSERT INTO org_changes (org_id, n) VALUES (NEW.org_id, 1) ON CONFLICT (org_id) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER incidents_changed_update AFTER UPDATE ON incidents BEGIN
    INSERT INTO org_changes (org_id, n) VALUES (NEW.org_id, 1) ON CONFLICT (org_id) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER incidents_changed_delete AFTER DELETE ON incidents BEGIN
    INSERT INTO org_changes (org_id, n) VALUES (OLD.org_id, 1) ON CONFLICT (org_id) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER orgs_changed_update AFTER UPDATE ON orgs BEGIN
    INSERT INTO org_changes (org_id, n) VALUES (NEW.id, 1) ON CONFLICT (org_id) DO UPDATE SET n = n + 1;
END;
