//! The store's behaviour, told as stories, run against SQLite and PostgreSQL
//! alike; then the schema and isolation rules of shared/SECURITY.md (T4–T6,
//! D1, D3) checked on the real databases.

use aivet_domain::{Email, InviteId, Lang, MembershipId, OrgName, PersonName, Role, Slug};
use aivet_store::testing::{Backend, TestDb};
use aivet_store::{AuditEvent, DynStore, NewUser, StoreError, Tenant};
use chrono::{DateTime, Duration, TimeZone, Utc};

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 30, 9, 0, 0).unwrap()
}

fn new_user(email: &str, name: &str) -> NewUser {
    NewUser {
        email: Email::parse(email).unwrap(),
        name: PersonName::parse(name).unwrap(),
        password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA".into(),
        lang: Lang::De,
    }
}

async fn open(db: &TestDb) -> DynStore {
    aivet_store::open(db.url(), db.admin_url())
        .await
        .expect("open store")
}

async fn org_with_owner(store: &DynStore, email: &str, org: &str) -> (aivet_store::User, Tenant) {
    store
        .sign_up(
            new_user(email, "Owner"),
            &OrgName::parse(org).unwrap(),
            &Slug::from_name(org),
            t0(),
        )
        .await
        .expect("sign up")
}

macro_rules! on_both {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[tokio::test] async fn $name() { super::$name(super::Backend::Sqlite).await })*
        }
        mod postgres {
            $(#[tokio::test] async fn $name() { super::$name(super::Backend::Postgres).await })*
        }
    };
}

on_both!(
    sign_up_creates_user_org_and_owner,
    sessions_live_and_end,
    invitations_are_single_use,
    members_and_the_last_owner,
    foreign_ids_are_not_found,
    lists_are_scoped_to_the_tenant,
    audit_log_is_append_only,
    schema_follows_the_tenant_rules,
    outbox_leases_retries_and_scoping,
    a_new_organisation_has_default_data_classes,
    vendors_and_their_contacts,
    services_findings_lists_and_counts,
    removing_a_member_keeps_their_services,
    an_import_is_all_or_nothing,
    inventory_is_scoped_to_the_tenant,
    follow_ups_are_listed_earliest_first_up_to_a_limit,
    follow_ups_of_a_day_follow_the_service_names,
    the_kept_dashboard_is_the_counted_one_after_every_write,
    a_service_page_is_its_parts_in_one_read,
    jobs_are_scheduled_once_and_leased,
    a_batch_of_reminders_skips_the_job_whose_lease_was_lost,
    a_lost_lease_writes_nothing,
    concurrent_workers_run_each_job_once,
    job_problems_are_scoped_and_retried,
    time_zones_are_kept_per_organisation,
    check_lists_are_the_domains_choices,
    conflicts_in_sql_agree_with_the_rule,
    clearance_decisions_are_checked_scoped_and_followed_up,
    an_incident_suspends_decisions_until_decided_again,
    the_register_keeps_every_incident_scoped_and_filtered,
);

#[path = "story/clearance.rs"]
mod clearance;
use clearance::*;

#[path = "story/incidents.rs"]
mod incidents;
use incidents::*;

#[path = "story/inventory.rs"]
mod inventory;
use inventory::*;

#[path = "story/jobs.rs"]
mod jobs;
use jobs::*;

async fn sign_up_creates_user_org_and_owner(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let (user, t) = org_with_owner(&store, "Kari@Example.no", "Bærum Regnskap AS").await;
    assert_eq!(user.email, "kari@example.no");
    assert_eq!(t.role(), Role::Owner);
    let org = store.org(&t).await.unwrap();
    assert_eq!(org.slug, "baerum-regnskap-as");
    assert_eq!(org.name, "Bærum Regnskap AS");

    let again = store
        .sign_up(
            new_user("KARI@example.no", "Other"),
            &OrgName::parse("X").unwrap(),
            &Slug::from_name("X"),
            t0(),
        )
        .await;
    assert!(matches!(again, Err(StoreError::EmailTaken)), "{again:?}");

    // A second organisation with the same name gets its own slug.
    let t2 = store
        .create_org(
            user.id,
            &OrgName::parse("Bærum Regnskap AS").unwrap(),
            &Slug::from_name("Bærum Regnskap AS"),
            t0(),
        )
        .await
        .unwrap();
    assert_eq!(store.org(&t2).await.unwrap().slug, "baerum-regnskap-as-2");
    let orgs = store.orgs_of_user(user.id).await.unwrap();
    assert_eq!(orgs.len(), 2);
    assert!(orgs.iter().all(|o| o.role == Role::Owner));
    // The header's menu lists them up to its limit, past it only the current one.
    let menu = store.org_menu(user.id, Some(&t2), 2).await.unwrap();
    assert!(!menu.many);
    assert_eq!(menu.orgs.len(), 2);
    assert_eq!(menu.current.map(|o| o.org_id), Some(t2.org_id()));
    let menu = store.org_menu(user.id, Some(&t2), 1).await.unwrap();
    assert!(menu.many);
    assert!(menu.orgs.is_empty());
    assert_eq!(menu.current.map(|o| o.org_id), Some(t2.org_id()));
    assert!(store
        .org_menu(user.id, None, 1)
        .await
        .unwrap()
        .current
        .is_none());
    // A new session starts in the first by name, then slug.
    let first = store.first_tenant(user.id).await.unwrap().unwrap();
    assert_eq!((first.org_id(), first.role()), (t.org_id(), Role::Owner));

    let creds = store
        .credentials(&Email::parse("kari@example.no").unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(creds.user_id, user.id);
    assert!(store
        .credentials(&Email::parse("nobody@example.no").unwrap())
        .await
        .unwrap()
        .is_none());
    assert_eq!(store.user(user.id).await.unwrap().lang, Lang::De);
    store.set_user_lang(user.id, Lang::Nb).await.unwrap();
    assert_eq!(store.user(user.id).await.unwrap().lang, Lang::Nb);
}

async fn sessions_live_and_end(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let (user, t) = org_with_owner(&store, "a@example.com", "A").await;
    store
        .create_session(
            b"one",
            user.id,
            Some(t.org_id()),
            t0(),
            t0() + Duration::hours(12),
        )
        .await
        .unwrap();
    store
        .create_session(b"two", user.id, None, t0(), t0() + Duration::hours(1))
        .await
        .unwrap();
    let view = store.session_view(b"one", Some(25)).await.unwrap().unwrap();
    let s = &view.session;
    assert_eq!(
        (s.user_id, s.org_id, s.created_at),
        (user.id, Some(t.org_id()), t0())
    );
    assert_eq!(s.user, user, "the session comes with its user");
    // ... and with the membership and the menu, read in the same transaction
    // as the separate calls read them.
    assert_eq!(view.tenant.as_ref(), Some(&t));
    assert_eq!(
        view.menu,
        Some(store.org_menu(user.id, Some(&t), 25).await.unwrap())
    );
    assert_eq!(
        view.menu
            .as_ref()
            .and_then(|m| m.current.as_ref())
            .map(|o| o.org_id),
        Some(t.org_id())
    );
    let view = store.session_view(b"one", None).await.unwrap().unwrap();
    assert_eq!((view.tenant.as_ref(), view.menu), (Some(&t), None));
    // With more organisations: the menu in its order up to the limit, past
    // it only the current one, as the separate call reads it.
    for name in ["Zeta", "Alpha"] {
        store
            .create_org(
                user.id,
                &OrgName::parse(name).unwrap(),
                &Slug::from_name(name),
                t0(),
            )
            .await
            .unwrap();
    }
    for limit in [1, 2, 3, 25] {
        let view = store
            .session_view(b"one", Some(limit))
            .await
            .unwrap()
            .unwrap();
        let menu = store.org_menu(user.id, Some(&t), limit).await.unwrap();
        assert_eq!(menu.many, limit < 3, "limit {limit}");
        assert_eq!(view.menu, Some(menu), "limit {limit}");
    }
    let view = store.session_view(b"one", Some(3)).await.unwrap().unwrap();
    let menu = view.menu.unwrap();
    let names: Vec<&str> = menu.orgs.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["A", "Alpha", "Zeta"], "by name");
    assert_eq!(menu.current.map(|o| o.org_id), Some(t.org_id()));
    // A session without an organisation has neither.
    let view = store.session_view(b"two", Some(25)).await.unwrap().unwrap();
    assert_eq!((view.tenant, view.menu), (None, None));
    // Nor one in an organisation the user no longer belongs to.
    let (_, other) = org_with_owner(&store, "b@example.com", "B").await;
    store
        .create_session(
            b"four",
            user.id,
            Some(other.org_id()),
            t0(),
            t0() + Duration::hours(1),
        )
        .await
        .unwrap();
    let view = store
        .session_view(b"four", Some(25))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (view.session.org_id, view.tenant, view.menu),
        (Some(other.org_id()), None, None)
    );
    store.delete_session(b"four").await.unwrap();
    store
        .touch_session(b"one", t0() + Duration::minutes(5))
        .await
        .unwrap();
    assert_eq!(
        store
            .session_view(b"one", None)
            .await
            .unwrap()
            .unwrap()
            .session
            .last_seen_at,
        t0() + Duration::minutes(5)
    );
    // Expiry compares times correctly, including sub-second ones.
    assert_eq!(
        store
            .delete_expired_sessions(t0() + Duration::minutes(59) + Duration::milliseconds(999))
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        store
            .delete_expired_sessions(t0() + Duration::hours(1))
            .await
            .unwrap(),
        1
    );
    store
        .create_session(b"three", user.id, None, t0(), t0() + Duration::hours(1))
        .await
        .unwrap();
    assert_eq!(
        store.delete_other_sessions(user.id, b"one").await.unwrap(),
        1
    );
    assert!(store.session_view(b"three", None).await.unwrap().is_none());
    store.delete_session(b"one").await.unwrap();
    assert!(store.session_view(b"one", None).await.unwrap().is_none());
}

async fn invitations_are_single_use(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let (owner, t) = org_with_owner(&store, "owner@example.com", "Acme").await;
    let email = Email::parse("new@example.com").unwrap();
    let inv = store
        .create_invite(
            &t,
            &email,
            Role::Editor,
            b"hash-1",
            t0(),
            t0() + Duration::days(7),
            None,
        )
        .await
        .unwrap();
    assert_eq!(
        store.pending_invites(&t, t0()).await.unwrap(),
        vec![inv.clone()]
    );
    let open_inv = store.open_invite(b"hash-1", t0()).await.unwrap().unwrap();
    assert_eq!(open_inv.org_name, "Acme");
    assert!(store.open_invite(b"other", t0()).await.unwrap().is_none());
    // Expired links are not open.
    assert!(store
        .open_invite(b"hash-1", t0() + Duration::days(7))
        .await
        .unwrap()
        .is_none());

    let (joined, jt) = store
        .sign_up_with_invite(b"hash-1", new_user("new@example.com", "New"), t0())
        .await
        .unwrap();
    assert_eq!(
        (jt.org_id(), jt.role(), jt.user_id()),
        (t.org_id(), Role::Editor, joined.id)
    );
    assert!(
        store.open_invite(b"hash-1", t0()).await.unwrap().is_none(),
        "used"
    );
    assert!(matches!(
        store.accept_invite(b"hash-1", owner.id, t0()).await,
        Err(StoreError::NotFound)
    ));
    assert!(store.pending_invites(&t, t0()).await.unwrap().is_empty());

    // Inviting a member again is refused; a revoked link is dead.
    assert!(matches!(
        store
            .create_invite(
                &t,
                &email,
                Role::Viewer,
                b"hash-2",
                t0(),
                t0() + Duration::days(7),
                None
            )
            .await,
        Err(StoreError::AlreadyMember)
    ));
    let inv3 = store
        .create_invite(
            &t,
            &Email::parse("third@example.com").unwrap(),
            Role::Viewer,
            b"hash-3",
            t0(),
            t0() + Duration::days(7),
            None,
        )
        .await
        .unwrap();
    store.revoke_invite(&t, inv3.id, t0()).await.unwrap();
    assert!(store.open_invite(b"hash-3", t0()).await.unwrap().is_none());
    assert!(matches!(
        store.revoke_invite(&t, inv3.id, t0()).await,
        Err(StoreError::NotFound)
    ));

    // An existing user accepts an invitation into a second organisation.
    let (other, ot) = org_with_owner(&store, "other@example.com", "Other").await;
    store
        .create_invite(
            &ot,
            &Email::parse("owner@example.com").unwrap(),
            Role::Viewer,
            b"hash-4",
            t0(),
            t0() + Duration::days(7),
            None,
        )
        .await
        .unwrap();
    let accepted = store
        .accept_invite(b"hash-4", owner.id, t0())
        .await
        .unwrap();
    assert_eq!(
        (accepted.org_id(), accepted.role()),
        (ot.org_id(), Role::Viewer)
    );
    assert_eq!(store.orgs_of_user(owner.id).await.unwrap().len(), 2);
    assert_eq!(
        store
            .tenant_for(owner.id, ot.org_id())
            .await
            .unwrap()
            .role(),
        Role::Viewer
    );
    let _ = other;
}

async fn members_and_the_last_owner(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let (_, t) = org_with_owner(&store, "owner@example.com", "Acme").await;
    let ev = || AuditEvent::SignedIn;
    assert!(matches!(
        store.remove_member(&t, t.membership_id(), ev(), t0()).await,
        Err(StoreError::LastOwner)
    ));
    assert!(matches!(
        store
            .set_member_role(&t, t.membership_id(), Role::Editor, ev(), t0())
            .await,
        Err(StoreError::LastOwner)
    ));
    store
        .create_invite(
            &t,
            &Email::parse("b@example.com").unwrap(),
            Role::Viewer,
            b"h",
            t0(),
            t0() + Duration::days(1),
            None,
        )
        .await
        .unwrap();
    let (_, bt) = store
        .sign_up_with_invite(b"h", new_user("b@example.com", "Bea"), t0())
        .await
        .unwrap();
    let m = store
        .set_member_role(&t, bt.membership_id(), Role::Owner, ev(), t0())
        .await
        .unwrap();
    assert_eq!(m.role, Role::Owner);
    // Now there are two owners: the first may step down.
    store
        .set_member_role(&t, t.membership_id(), Role::Editor, ev(), t0())
        .await
        .unwrap();
    let members = store.members(&t).await.unwrap();
    assert_eq!(members.len(), 2);
    let removed = store
        .remove_member(&t, t.membership_id(), ev(), t0())
        .await
        .unwrap();
    assert_eq!(removed.email, "owner@example.com");
    assert!(matches!(
        store.tenant_for(t.user_id(), t.org_id()).await,
        Err(StoreError::NotFound)
    ));
    assert!(store.first_tenant(t.user_id()).await.unwrap().is_none());
}

async fn foreign_ids_are_not_found(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let (_, a) = org_with_owner(&store, "a@example.com", "A").await;
    let (bu, bt) = org_with_owner(&store, "b@example.com", "B").await;
    let b_inv = store
        .create_invite(
            &bt,
            &Email::parse("x@example.com").unwrap(),
            Role::Viewer,
            b"hb",
            t0(),
            t0() + Duration::days(1),
            None,
        )
        .await
        .unwrap();
    let ev = || AuditEvent::SignedIn;
    let random_member = MembershipId(uuid::Uuid::new_v4());
    let random_invite = InviteId(uuid::Uuid::new_v4());
    for id in [bt.membership_id(), random_member] {
        assert!(matches!(
            store.remove_member(&a, id, ev(), t0()).await,
            Err(StoreError::NotFound)
        ));
        assert!(matches!(
            store
                .set_member_role(&a, id, Role::Viewer, ev(), t0())
                .await,
            Err(StoreError::NotFound)
        ));
    }
    for id in [b_inv.id, random_invite] {
        assert!(matches!(
            store.revoke_invite(&a, id, t0()).await,
            Err(StoreError::NotFound)
        ));
    }
    assert!(matches!(
        store.tenant_for(a.user_id(), bt.org_id()).await,
        Err(StoreError::NotFound)
    ));
    // B is unchanged.
    assert_eq!(store.members(&bt).await.unwrap().len(), 1);
    assert_eq!(store.pending_invites(&bt, t0()).await.unwrap().len(), 1);
    assert_eq!(
        store.tenant_for(bu.id, bt.org_id()).await.unwrap().role(),
        Role::Owner
    );
}

async fn lists_are_scoped_to_the_tenant(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let mut tenants = Vec::new();
    for i in 0..4 {
        let (_, t) = org_with_owner(
            &store,
            &format!("owner{i}@example.com"),
            &format!("Org {i}"),
        )
        .await;
        for j in 0..(i + 1) {
            store
                .create_invite(
                    &t,
                    &Email::parse(&format!("inv{i}-{j}@example.com")).unwrap(),
                    Role::Viewer,
                    format!("h{i}-{j}").as_bytes(),
                    t0(),
                    t0() + Duration::days(1),
                    None,
                )
                .await
                .unwrap();
        }
        tenants.push(t);
    }
    for (i, t) in tenants.iter().enumerate() {
        let invites = store.pending_invites(t, t0()).await.unwrap();
        assert_eq!(invites.len(), i + 1);
        assert!(invites
            .iter()
            .all(|inv| inv.org_id == t.org_id() && inv.email.starts_with(&format!("inv{i}-"))));
        let members = store.members(t).await.unwrap();
        assert_eq!(members.len(), 1);
        assert_eq!(members[0].email, format!("owner{i}@example.com"));
        let audit = store.audit_entries(t, 100).await.unwrap();
        assert!(
            audit
                .iter()
                .all(|e| e.actor_label == format!("owner{i}@example.com")),
            "{audit:?}"
        );
        assert_eq!(
            audit.len(),
            1 + (i + 1),
            "sign-up plus one entry per invitation"
        );
    }
}

async fn audit_log_is_append_only(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let (_, t) = org_with_owner(&store, "a@example.com", "A").await;
    store
        .audit(
            &t,
            AuditEvent::VendorCreated {
                name: "Acme\r\nforged: line".into(),
            },
            t0() + Duration::seconds(1),
        )
        .await
        .unwrap();
    let entries = store.audit_entries(&t, 10).await.unwrap();
    assert_eq!(entries[0].action, "vendor.created");
    assert!(
        !entries[0].detail.contains('\n') && !entries[0].detail.contains('\r'),
        "fields are stored as JSON, line breaks escaped: {}",
        entries[0].detail
    );
    assert_eq!(
        entries[0].event(),
        Some(AuditEvent::VendorCreated {
            name: "Acme\r\nforged: line".into()
        }),
        "read back as written"
    );
    assert_eq!(entries[1].action, "account.signed_up");
    match b {
        Backend::Sqlite => {
            let s = aivet_store::sqlite::SqliteStore::open(db.url())
                .await
                .unwrap();
            assert!(sqlx::query("UPDATE audit_log SET action = 'x'")
                .execute(s.pool())
                .await
                .is_err());
            assert!(sqlx::query("DELETE FROM audit_log")
                .execute(s.pool())
                .await
                .is_err());
        }
        Backend::Postgres => {
            let s = aivet_store::postgres::PgStore::open(db.url(), None)
                .await
                .unwrap();
            // The app role has no UPDATE or DELETE on the table at all.
            let mut tx = s.pool().begin().await.unwrap();
            sqlx::query("SELECT set_config('aivet.org_id', $1, true)")
                .bind(t.org_id().to_string())
                .execute(&mut *tx)
                .await
                .unwrap();
            let e = sqlx::query("UPDATE audit_log SET action = 'x'")
                .execute(&mut *tx)
                .await
                .unwrap_err();
            assert!(e.to_string().contains("permission denied"), "{e}");
            drop(tx);
            // Even the owner, inside the organisation's context, cannot change it.
            let admin = sqlx::PgPool::connect(db.admin_url().unwrap())
                .await
                .unwrap();
            let mut tx = admin.begin().await.unwrap();
            sqlx::query("SELECT set_config('aivet.org_id', $1, true)")
                .bind(t.org_id().to_string())
                .execute(&mut *tx)
                .await
                .unwrap();
            let e = sqlx::query("DELETE FROM audit_log")
                .execute(&mut *tx)
                .await
                .unwrap_err();
            assert!(e.to_string().contains("append-only"), "{e}");
        }
    }
    assert_eq!(store.audit_entries(&t, 10).await.unwrap().len(), 2);
}

/// Tables whose rows belong to a person or to the system, with an optional
/// organisation: a session remembers which organisation it works in; the
/// outbox also carries a person's own mails (password resets); jobs also
/// do the server's own housekeeping. They are scoped by other means (the
/// session's hash; RLS with the worker's context).
const PERSONAL_TABLES: &[&str] = &["sessions", "outbox", "jobs"];

/// T4: every tenant table has org_id NOT NULL, an index led by org_id, and
/// every reference to another tenant table includes org_id.
async fn schema_follows_the_tenant_rules(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let _store = open(&db).await;
    let schema = match b {
        Backend::Sqlite => sqlite_schema(db.url()).await,
        Backend::Postgres => pg_schema(db.admin_url().unwrap()).await,
    };
    let tenant_tables: Vec<&Table> = schema
        .iter()
        .filter(|t| {
            t.columns.iter().any(|(c, _)| c == "org_id")
                && !PERSONAL_TABLES.contains(&t.name.as_str())
        })
        .collect();
    assert!(
        tenant_tables.len() >= 3,
        "expected tenant tables, found {:?}",
        tenant_tables.iter().map(|t| &t.name).collect::<Vec<_>>()
    );
    for t in &tenant_tables {
        let (_, not_null) = t.columns.iter().find(|(c, _)| c == "org_id").unwrap();
        assert!(not_null, "{}.org_id must be NOT NULL", t.name);
        assert!(
            t.index_first_columns.iter().any(|c| c == "org_id"),
            "{} needs an index led by org_id",
            t.name
        );
        for fk in &t.foreign_keys {
            let parent_is_tenant = tenant_tables.iter().any(|p| p.name == fk.parent);
            if parent_is_tenant {
                assert!(
                    fk.columns.iter().any(|c| c == "org_id"),
                    "{} references {} without org_id",
                    t.name,
                    fk.parent
                );
            }
        }
    }
}

#[derive(Debug)]
struct Table {
    name: String,
    columns: Vec<(String, bool)>,
    index_first_columns: Vec<String>,
    foreign_keys: Vec<ForeignKey>,
}

#[derive(Debug)]
struct ForeignKey {
    parent: String,
    columns: Vec<String>,
}

async fn sqlite_schema(url: &str) -> Vec<Table> {
    let pool = sqlx::SqlitePool::connect(url).await.unwrap();
    let names: Vec<(String,)> =
        sqlx::query_as("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_sqlx%'")
            .fetch_all(&pool)
            .await
            .unwrap();
    let mut out = Vec::new();
    for (name,) in names {
        let cols: Vec<(i64, String, String, i64, Option<String>, i64)> =
            sqlx::query_as(&format!("PRAGMA table_info({name})"))
                .fetch_all(&pool)
                .await
                .unwrap();
        let indexes: Vec<(i64, String, i64, String, i64)> =
            sqlx::query_as(&format!("PRAGMA index_list({name})"))
                .fetch_all(&pool)
                .await
                .unwrap();
        let mut firsts = Vec::new();
        for (_, index, ..) in indexes {
            let info: Vec<(i64, i64, Option<String>)> =
                sqlx::query_as(&format!("PRAGMA index_info('{index}')"))
                    .fetch_all(&pool)
                    .await
                    .unwrap();
            if let Some((_, _, Some(c))) = info.iter().min_by_key(|(seq, ..)| *seq) {
                firsts.push(c.clone());
            }
        }
        // PRAGMA foreign_key_list: id, seq, table, from, to, on_update, on_delete, match.
        type FkRow = (
            i64,
            i64,
            String,
            String,
            Option<String>,
            String,
            String,
            String,
        );
        let fks: Vec<FkRow> = sqlx::query_as(&format!("PRAGMA foreign_key_list({name})"))
            .fetch_all(&pool)
            .await
            .unwrap();
        let mut foreign_keys: Vec<ForeignKey> = Vec::new();
        for (id, _, parent, from, ..) in fks {
            match foreign_keys.get_mut(id as usize) {
                Some(fk) => fk.columns.push(from),
                None => foreign_keys.push(ForeignKey {
                    parent,
                    columns: vec![from],
                }),
            }
        }
        out.push(Table {
            name,
            columns: cols
                .into_iter()
                .map(|(_, n, _, notnull, _, pk)| (n, notnull == 1 || pk == 1))
                .collect(),
            index_first_columns: firsts,
            foreign_keys,
        });
    }
    out
}

async fn pg_schema(url: &str) -> Vec<Table> {
    let pool = sqlx::PgPool::connect(url).await.unwrap();
    let names: Vec<(String,)> = sqlx::query_as(
        "SELECT tablename::text FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE '_sqlx%'",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    let mut out = Vec::new();
    for (name,) in names {
        let columns: Vec<(String, bool)> = sqlx::query_as(
            "SELECT column_name::text, is_nullable = 'NO' FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1",
        )
        .bind(&name)
        .fetch_all(&pool)
        .await
        .unwrap();
        let firsts: Vec<(String,)> = sqlx::query_as(
            "SELECT a.attname::text FROM pg_index i
             JOIN pg_class c ON c.oid = i.indrelid
             JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = i.indkey[0]
             WHERE c.relname = $1",
        )
        .bind(&name)
        .fetch_all(&pool)
        .await
        .unwrap();
        let fks: Vec<(String, Vec<String>)> = sqlx::query_as(
            "SELECT p.relname::text, ARRAY(SELECT a.attname::text FROM unnest(con.conkey) k JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k)
             FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid JOIN pg_class p ON p.oid = con.confrelid
             WHERE con.contype = 'f' AND c.relname = $1",
        )
        .bind(&name)
        .fetch_all(&pool)
        .await
        .unwrap();
        out.push(Table {
            name,
            columns,
            index_first_columns: firsts.into_iter().map(|f| f.0).collect(),
            foreign_keys: fks
                .into_iter()
                .map(|(parent, columns)| ForeignKey { parent, columns })
                .collect(),
        });
    }
    out
}

fn mail(org: Option<aivet_domain::OrgId>, to: &str, at: DateTime<Utc>) -> aivet_store::NewMail {
    let id = aivet_domain::MailId(uuid::Uuid::new_v4());
    aivet_store::NewMail {
        id,
        org_id: org,
        kind: "test",
        recipient: to.into(),
        subject: format!("to {to}"),
        message: format!("Subject: to {to}\r\n\r\nhello\r\n").into_bytes(),
        message_id: format!("<{}@test>", id.0.simple()),
        created_at: at,
        give_up_at: at + Duration::days(3),
    }
}

async fn outbox_leases_retries_and_scoping(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let (_, a) = org_with_owner(&store, "a@example.com", "A").await;
    let (_, bt) = org_with_owner(&store, "b@example.com", "B").await;
    store
        .enqueue_mail(&a, mail(None, "x@example.com", t0()))
        .await
        .unwrap();
    store
        .enqueue_mail(&bt, mail(None, "y@example.com", t0()))
        .await
        .unwrap();
    store
        .enqueue_account_mail(mail(Some(a.org_id()), "z@example.com", t0()))
        .await
        .unwrap();
    assert_eq!(store.next_mail_due().await.unwrap(), Some(t0()));

    // Each organisation sees its own mails only; the account mail belongs to none.
    let a_mails = store.org_mails(&a, 10).await.unwrap();
    assert_eq!(
        a_mails
            .iter()
            .map(|m| m.recipient.as_str())
            .collect::<Vec<_>>(),
        vec!["x@example.com"]
    );
    assert_eq!(store.org_mails(&bt, 10).await.unwrap().len(), 1);

    // Two workers: a claimed mail is not claimed again while its lease runs.
    let lease = t0() + Duration::minutes(2);
    let first = store.claim_mails("w1", t0(), lease, 2).await.unwrap();
    let second = store.claim_mails("w2", t0(), lease, 10).await.unwrap();
    assert_eq!(first.len() + second.len(), 3);
    assert!(first.iter().all(|m| !second.iter().any(|s| s.id == m.id)));
    assert!(store
        .claim_mails("w3", t0(), lease, 10)
        .await
        .unwrap()
        .is_empty());
    assert_eq!(first[0].attempts, 1);

    // Only the lease owner records the outcome.
    let m = &first[0];
    assert!(!store.mark_mail_sent(m.id, "w2", t0()).await.unwrap());
    assert!(store
        .mark_mail_retry(m.id, "w1", t0() + Duration::minutes(5), "451 try later")
        .await
        .unwrap());
    assert!(store
        .claim_mails(
            "w3",
            t0() + Duration::minutes(1),
            t0() + Duration::minutes(3),
            10
        )
        .await
        .unwrap()
        .is_empty());
    // A crashed worker's lease runs out; the mail is claimed again (same Message-ID).
    let again = store
        .claim_mails(
            "w3",
            t0() + Duration::minutes(5),
            t0() + Duration::minutes(7),
            10,
        )
        .await
        .unwrap();
    let ids: Vec<_> = again.iter().map(|c| c.message_id.clone()).collect();
    assert_eq!(
        again.len(),
        3,
        "the retried one and the two whose leases expired: {ids:?}"
    );
    let retried = again.iter().find(|c| c.id == m.id).unwrap();
    assert_eq!((retried.attempts, &retried.message_id), (2, &m.message_id));
    for c in &again {
        assert!(store
            .mark_mail_failed(c.id, "w3", "550 no such user")
            .await
            .unwrap());
    }
    let a_mail = &store.org_mails(&a, 10).await.unwrap()[0];
    assert_eq!(a_mail.status, aivet_store::MailStatus::Failed);
    assert_eq!(a_mail.last_error.as_deref(), Some("550 no such user"));
    assert_eq!(store.next_mail_due().await.unwrap(), None);

    // Retry: only the own organisation's failed mails.
    let b_mail = store.org_mails(&bt, 10).await.unwrap()[0].id;
    assert!(matches!(
        store.retry_mail(&a, b_mail, t0()).await,
        Err(StoreError::NotFound)
    ));
    store
        .retry_mail(&a, a_mail.id, t0() + Duration::minutes(10))
        .await
        .unwrap();
    let c = store
        .claim_mails(
            "w4",
            t0() + Duration::minutes(10),
            t0() + Duration::minutes(12),
            10,
        )
        .await
        .unwrap();
    assert_eq!(c.len(), 1);
    assert!(store
        .mark_mail_sent(c[0].id, "w4", t0() + Duration::minutes(10))
        .await
        .unwrap());
    let sent = &store.org_mails(&a, 10).await.unwrap()[0];
    assert_eq!(
        (sent.status, sent.sent_at),
        (
            aivet_store::MailStatus::Sent,
            Some(t0() + Duration::minutes(10))
        )
    );
    assert_eq!(
        store.org_mails(&bt, 10).await.unwrap()[0].status,
        aivet_store::MailStatus::Failed
    );
}

/// The closed choices of the domain, as the schema's CHECK lists must
/// name them: (table, column) → codes. A new CHECK list, or a code added
/// on one side only, fails here.
fn domain_choices() -> std::collections::BTreeMap<(String, String), Vec<String>> {
    use aivet_domain::inventory::{
        AuthorityNotifier, ContactRole, Deployment, FindingStatus, FindingTopic, ServiceStatus,
        VendorRole,
    };
    use aivet_domain::questions::{AnsweredVia, Assessment, RequestStatus, Review};
    fn codes<T: Copy>(all: &[T], code: fn(T) -> &'static str) -> Vec<String> {
        all.iter().map(|v| code(*v).to_owned()).collect()
    }
    let langs: Vec<String> = Lang::ALL.iter().map(|l| l.code().to_owned()).collect();
    let roles: Vec<String> = Role::ALL.iter().map(|r| r.as_str().to_owned()).collect();
    let entries: Vec<(&str, &str, Vec<String>)> = vec![
        ("users", "lang", langs.clone()),
        ("memberships", "role", roles.clone()),
        ("invites", "role", roles),
        (
            "outbox",
            "status",
            codes(aivet_domain::mail::MailStatus::ALL, |s| s.as_str()),
        ),
        (
            "jobs",
            "status",
            codes(aivet_domain::jobs::JobStatus::ALL, |s| s.as_str()),
        ),
        (
            "vendors",
            "role",
            codes(VendorRole::ALL, VendorRole::as_str),
        ),
        (
            "clearances",
            "clearance",
            codes(
                aivet_domain::clearance::Clearance::ALL,
                aivet_domain::clearance::Clearance::as_str,
            ),
        ),
        (
            "vendor_contacts",
            "role",
            codes(ContactRole::ALL, ContactRole::as_str),
        ),
        ("vendor_contacts", "lang", langs.clone()),
        (
            "services",
            "status",
            codes(ServiceStatus::ALL, ServiceStatus::as_str),
        ),
        (
            "services",
            "deployment",
            codes(Deployment::ALL, Deployment::as_str),
        ),
        (
            "services",
            "authority_notifier",
            codes(AuthorityNotifier::ALL, AuthorityNotifier::as_str),
        ),
        (
            "services",
            "assessment",
            codes(Assessment::ALL, Assessment::as_str),
        ),
        (
            "findings",
            "topic",
            codes(FindingTopic::ALL, FindingTopic::as_str),
        ),
        (
            "findings",
            "status",
            codes(FindingStatus::ALL, FindingStatus::as_str),
        ),
        (
            "question_requests",
            "status",
            codes(RequestStatus::ALL, RequestStatus::as_str),
        ),
        (
            "question_requests",
            "answered_via",
            codes(AnsweredVia::ALL, AnsweredVia::as_str),
        ),
        ("question_requests", "lang", langs),
        (
            "question_items",
            "review",
            codes(Review::ALL, Review::as_str),
        ),
        (
            "follow_ups",
            "status",
            codes(aivet_domain::follow_ups::FollowUpStatus::ALL, |r| {
                r.as_str()
            }),
        ),
        (
            "incidents",
            "affected",
            codes(aivet_domain::incident::Affected::ALL, |c| c.as_str()),
        ),
        (
            "incidents",
            "risk",
            codes(aivet_domain::incident::Risk::ALL, |c| c.as_str()),
        ),
        (
            "incidents",
            "state",
            codes(aivet_domain::incident::IncidentState::ALL, |c| c.as_str()),
        ),
        (
            "incidents",
            "art33_decision",
            codes(aivet_domain::incident::Art33Choice::ALL, |c| c.as_str()),
        ),
        (
            "incidents",
            "art34_decision",
            codes(aivet_domain::incident::Art34Choice::ALL, |c| c.as_str()),
        ),
        (
            "services",
            "engine_kind",
            codes(aivet_domain::advisory::Engine::ALL, |c| c.as_str()),
        ),
        (
            "services",
            "engine_source",
            codes(aivet_domain::advisory::VersionSource::ALL, |c| c.as_str()),
        ),
        (
            "advisory_hits",
            "exposure",
            vec!["affected".to_owned(), "unknown".to_owned()],
        ),
        (
            "memberships",
            "digest",
            codes(aivet_domain::follow_ups::Digest::ALL, |d| d.as_str()),
        ),
    ];
    entries
        .into_iter()
        .map(|(t, c, mut v)| {
            v.sort();
            ((t.to_owned(), c.to_owned()), v)
        })
        .collect()
}

/// The quoted strings of a text, in order.
fn quoted(text: &str) -> Vec<String> {
    text.split('\'')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// The CHECK lists that copy the domain's codes (`status IN ('a', 'b')`)
/// name exactly the domain's codes, on both databases.
async fn check_lists_are_the_domains_choices(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let _store = open(&db).await;
    let mut found: std::collections::BTreeMap<(String, String), Vec<String>> = Default::default();
    match b {
        Backend::Sqlite => {
            let pool = sqlx::SqlitePool::connect(db.url()).await.unwrap();
            let tables: Vec<(String, String)> = sqlx::query_as(
                "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND sql IS NOT NULL",
            )
            .fetch_all(&pool)
            .await
            .unwrap();
            // A column added later keeps its CHECK in the table's SQL too.
            for (table, sql) in tables {
                let mut rest = sql.as_str();
                while let Some(at) = rest.find("CHECK (") {
                    let check = &rest[at + 7..];
                    let end = check.find("))").map(|e| e + 1).unwrap_or(check.len());
                    if let Some((column, list)) = check[..end].split_once(" IN (") {
                        let values = quoted(list);
                        if !values.is_empty() {
                            found.insert((table.clone(), column.trim().to_owned()), values);
                        }
                    }
                    rest = &check[end..];
                }
            }
        }
        Backend::Postgres => {
            let mut conn =
                <sqlx::PgConnection as sqlx::Connection>::connect(db.admin_url().unwrap())
                    .await
                    .unwrap();
            let rows: Vec<(String, String)> = sqlx::query_as(
                "SELECT conrelid::regclass::text, pg_get_constraintdef(oid) FROM pg_constraint
                 WHERE contype = 'c' AND connamespace = 'public'::regnamespace",
            )
            .fetch_all(&mut conn)
            .await
            .unwrap();
            for (table, def) in rows {
                // CHECK ((status = ANY (ARRAY['queued'::text, …])))
                let column = def
                    .trim_start_matches("CHECK ")
                    .trim_start_matches('(')
                    .split([' ', ')'])
                    .next()
                    .unwrap_or_default()
                    .to_owned();
                let values = quoted(&def);
                if !values.is_empty() {
                    found.insert((table, column), values);
                }
            }
        }
    }
    for values in found.values_mut() {
        values.sort();
    }
    assert_eq!(
        found,
        domain_choices(),
        "{b:?}: the schema's CHECK lists and the domain's choices differ"
    );
}
