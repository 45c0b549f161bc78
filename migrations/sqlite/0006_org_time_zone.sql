-- Each organisation has an IANA time zone: dates are stored in UTC and
-- shown, and "today" and "due on" computed, in the organisation's zone.
-- Existing organisations get the zone their first owner's language
-- suggests (as new ones do at sign-up).
ALTER TABLE orgs ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'Europe/London';
UPDATE orgs SET time_zone = COALESCE((
    SELECT CASE u.lang WHEN 'de' THEN 'Europe/Berlin' WHEN 'nb' THEN 'Europe/Oslo' ELSE 'Europe/London' END
    FROM memberships m JOIN users u ON u.id = m.user_id
    WHERE m.org_id = orgs.id AND m.role = 'owner'
    ORDER BY m.created_at LIMIT 1
), 'Europe/London');
