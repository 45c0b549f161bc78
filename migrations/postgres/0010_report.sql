-- The commands that work on the database without a session
-- (`aivet report --org <slug>`) find an organisation by its slug: in that
-- scope exactly the one row with the slug is visible, nothing else.
CREATE POLICY orgs_by_slug ON orgs FOR SELECT USING (
    slug = coalesce(current_setting('aivet.org_slug', true), '') AND slug <> ''
);
