//! Vendor incidents as members work with them: recording and changing an
//! incident (which links services, suspends their clearance decisions and
//! starts the Art. 33 clock), the two decisions, notes, closing, the
//! register with its CSV, the clocks on the dashboard, and the alerts to
//! the owners (a job per alert).

use crate::inventory::require_editor;
use crate::inventory_csv::{csv_line_with, defuse, excel_separator};
use crate::{Auth, ServiceError, Services};
use aivet_domain::incident::{
    alerts_after, art33_deadline, clock, Art33Form, Art34Form, Clock, IncidentForm, IncidentState,
};
use aivet_domain::inventory::long_text;
use aivet_domain::{Fmt, IncidentId, Lang, Msg, OrgId, VendorId, Zone};
use aivet_mail::{Art33AlertMail, Recipient};
use aivet_store::incident::{
    IncidentChoices, IncidentDetail, IncidentFilter, IncidentRow, RegisterRow,
};
use aivet_store::jobs::JobLease;
use aivet_store::{AuditEvent, StoreError};
use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};

type Result<T> = std::result::Result<T, ServiceError>;

/// An incident with its clock at this moment.
#[derive(Clone, Debug)]
pub struct IncidentCase {
    pub detail: IncidentDetail,
    pub clock: Clock,
    pub zone: Zone,
    pub now: DateTime<Utc>,
}

/// The register's filter as the page sends it.
#[derive(Clone, Debug, Default)]
pub struct RegisterQuery {
    pub state: Option<IncidentState>,
    pub vendor: Option<VendorId>,
    pub year: Option<i32>,
}

/// The clock of a stored incident at `now`.
pub fn clock_of(r: &IncidentRow, now: DateTime<Utc>) -> Clock {
    clock(r.personal_data, r.we_aware_at, r.art33(), now)
}

/// The clock of an incident without an Art. 33 decision whose personal
/// data may be involved (what the dashboard shows).
pub fn pending_clock(p: &aivet_store::incident::PendingClock, now: DateTime<Utc>) -> Clock {
    clock(true, p.we_aware_at, None, now)
}

/// The day an affected service's incident follow-up is due: the deadline's
/// day when the clock runs, otherwise a week after we became aware (never
/// before today).
fn follow_up_on(
    zone: Zone,
    personal_data: bool,
    aware: DateTime<Utc>,
    today: NaiveDate,
) -> NaiveDate {
    let due = if personal_data {
        zone.today(art33_deadline(aware))
    } else {
        zone.today(aware + Duration::days(7))
    };
    due.max(today)
}

fn map_refs(e: StoreError) -> ServiceError {
    match e {
        StoreError::UnknownRefs(fields) => ServiceError::Invalid(
            fields
                .into_iter()
                .map(|f| (f, Msg::ErrChoiceInvalid))
                .collect(),
        ),
        other => other.into(),
    }
}

impl Services {
    /// The injected clock's "now" (a new incident's "we became aware").
    pub fn now(&self) -> DateTime<Utc> {
        self.clock.now()
    }

    pub async fn incident_choices(&self, auth: &Auth) -> Result<IncidentChoices> {
        let t = auth.tenant()?;
        Ok(self.store.incident_choices(t).await?)
    }

    pub async fn record_incident(&self, auth: &Auth, form: &IncidentForm) -> Result<IncidentId> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let now = self.clock.now();
        let d = form.parse(t.zone(), now).map_err(ServiceError::Invalid)?;
        let alerts = alerts_after(d.we_aware_at, now);
        let due = follow_up_on(t.zone(), d.personal_data, d.we_aware_at, self.today(t));
        let event = AuditEvent::IncidentRecorded {
            incident: IncidentId(uuid::Uuid::nil()),
            title: d.title.clone(),
        };
        self.store
            .record_incident(t, &d, &alerts, due, event, now)
            .await
            .map_err(map_refs)
    }

    pub async fn update_incident(
        &self,
        auth: &Auth,
        id: IncidentId,
        form: &IncidentForm,
    ) -> Result<()> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let now = self.clock.now();
        let d = form.parse(t.zone(), now).map_err(ServiceError::Invalid)?;
        let alerts = alerts_after(d.we_aware_at, now);
        let due = follow_up_on(t.zone(), d.personal_data, d.we_aware_at, self.today(t));
        self.store
            .update_incident(t, id, &d, &alerts, due, now)
            .await
            .map_err(map_refs)
    }

    pub async fn incident(&self, auth: &Auth, id: IncidentId) -> Result<IncidentCase> {
        let t = auth.tenant()?;
        let now = self.clock.now();
        let detail = self.store.incident(t, id).await?;
        Ok(IncidentCase {
            clock: clock_of(&detail.incident, now),
            detail,
            zone: t.zone(),
            now,
        })
    }

    /// The incident as its edit form shows it.
    pub async fn incident_draft(
        &self,
        auth: &Auth,
        id: IncidentId,
    ) -> Result<aivet_domain::incident::IncidentDraft> {
        let t = auth.tenant()?;
        Ok(self.store.incident_draft(t, id).await?.1)
    }

    pub async fn incident_register(
        &self,
        auth: &Auth,
        q: &RegisterQuery,
    ) -> Result<Vec<(RegisterRow, Clock)>> {
        let t = auth.tenant()?;
        let now = self.clock.now();
        let zone = t.zone();
        let year = q.year.and_then(|y| {
            let start = NaiveDate::from_ymd_opt(y, 1, 1)?;
            let next = NaiveDate::from_ymd_opt(y + 1, 1, 1)?;
            Some((zone.start_of(start), zone.start_of(next)))
        });
        let filter = IncidentFilter {
            state: q.state,
            vendor: q.vendor,
            year,
        };
        Ok(self
            .store
            .incident_register(t, &filter)
            .await?
            .into_iter()
            .map(|r| {
                let c = clock_of(&r.incident, now);
                (r, c)
            })
            .collect())
    }

    /// The years that have incidents, newest first, for the filter.
    pub fn incident_years(&self, auth: &Auth, rows: &[(RegisterRow, Clock)]) -> Vec<i32> {
        let zone = auth.tenant().map(|t| t.zone()).unwrap_or_default();
        let mut years: Vec<i32> = rows
            .iter()
            .map(|(r, _)| zone.today(r.incident.we_aware_at).year())
            .collect();
        years.push(zone.today(self.clock.now()).year());
        years.sort_unstable_by(|a, b| b.cmp(a));
        years.dedup();
        years
    }

    pub async fn decide_art33(&self, auth: &Auth, id: IncidentId, form: &Art33Form) -> Result<()> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let now = self.clock.now();
        let (row, _) = self.store.incident_draft(t, id).await?;
        let d = form
            .parse(row.we_aware_at, t.zone(), now)
            .map_err(ServiceError::Invalid)?;
        let at = d.notified_at.unwrap_or(now);
        let late = at > art33_deadline(row.we_aware_at);
        Ok(self.store.decide_art33(t, id, &d, late, now).await?)
    }

    pub async fn decide_art34(&self, auth: &Auth, id: IncidentId, form: &Art34Form) -> Result<()> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let d = form.parse(self.today(t)).map_err(ServiceError::Invalid)?;
        Ok(self.store.decide_art34(t, id, &d, self.clock.now()).await?)
    }

    pub async fn add_incident_note(&self, auth: &Auth, id: IncidentId, text: &str) -> Result<()> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let text = long_text(text)
            .and_then(|n| n.ok_or(Msg::ErrNoteRequired))
            .map_err(|m| ServiceError::Invalid(vec![("note", m)]))?;
        Ok(self
            .store
            .add_incident_note(t, id, &text, self.clock.now())
            .await?)
    }

    pub async fn set_incident_state(
        &self,
        auth: &Auth,
        id: IncidentId,
        state: IncidentState,
    ) -> Result<()> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let now = self.clock.now();
        let (row, _) = self.store.incident_draft(t, id).await?;
        let alerts = alerts_after(row.we_aware_at, now);
        Ok(self
            .store
            .set_incident_state(t, id, state, &alerts, now)
            .await?)
    }

    /// The register as CSV (spreadsheet-safe like the services' export),
    /// headed in `lang`, times in the organisation's zone.
    pub async fn incidents_csv(
        &self,
        auth: &Auth,
        q: &RegisterQuery,
        lang: Lang,
        for_excel: bool,
    ) -> Result<String> {
        let zone = auth.tenant()?.zone();
        let rows = self.incident_register(auth, q).await?;
        let fmt = |at: Option<DateTime<Utc>>| {
            at.map(|a| zone.local(a).format("%Y-%m-%d %H:%M").to_string())
                .unwrap_or_default()
        };
        let header: Vec<&str> = [
            Msg::FieldIncidentTitle,
            Msg::FieldStatus,
            Msg::FieldIncidentVendors,
            Msg::FieldIncidentServices,
            Msg::FieldWeAware,
            Msg::ColDeadline,
            Msg::FieldAffected,
            Msg::FieldPersonalDataInvolved,
            Msg::FieldRisk,
            Msg::Art33Heading,
            Msg::FieldRationale,
            Msg::FieldNotifiedAt,
            Msg::FieldAuthority,
            Msg::FieldAuthorityReference,
            Msg::FieldDelayReason,
            Msg::Art34Heading,
            Msg::FieldInformedOn,
            Msg::FieldExposureStart,
            Msg::FieldExposureEnd,
            Msg::FieldVendorAware,
            Msg::FieldVendorFixed,
            Msg::FieldVendorNotified,
            Msg::FieldDisclosed,
        ]
        .iter()
        .map(|m| m.text(lang))
        .collect();
        let mut text = String::from(if for_excel { "\u{feff}" } else { "" });
        let separator = excel_separator(for_excel.then_some(lang));
        let line = |out: &mut String, cells: Vec<String>| {
            csv_line_with(out, cells.iter().map(|c| defuse(c)), separator);
        };
        line(&mut text, header.iter().map(|h| (*h).to_owned()).collect());
        for (r, c) in &rows {
            let i = &r.incident;
            let yes_no = |b: bool| if b { Msg::Yes } else { Msg::No }.text(lang).to_owned();
            line(
                &mut text,
                vec![
                    i.title.clone(),
                    i.state.label().text(lang).to_owned(),
                    lang.list(&r.vendors),
                    lang.list(&r.services),
                    fmt(Some(i.we_aware_at)),
                    fmt(c
                        .deadline()
                        .filter(|_| i.personal_data || i.art33_decision.is_some())),
                    i.affected.label().text(lang).to_owned(),
                    yes_no(i.personal_data),
                    i.risk.label().text(lang).to_owned(),
                    i.art33_decision
                        .map(|d| d.label().text(lang).to_owned())
                        .unwrap_or_default(),
                    i.art33_rationale.clone().unwrap_or_default(),
                    fmt(i.art33_notified_at),
                    i.art33_authority.clone().unwrap_or_default(),
                    i.art33_reference.clone().unwrap_or_default(),
                    i.art33_delay_reason.clone().unwrap_or_default(),
                    i.art34_decision
                        .map(|d| d.label().text(lang).to_owned())
                        .unwrap_or_default(),
                    i.art34_informed_on
                        .map(|d| d.to_string())
                        .unwrap_or_default(),
                    fmt(i.exposure_start),
                    fmt(i.exposure_end),
                    fmt(i.vendor_aware_at),
                    fmt(i.vendor_fixed_at),
                    fmt(i.vendor_notified_at),
                    fmt(i.disclosed_at),
                ],
            );
        }
        Ok(text)
    }

    /// The Art. 33 alert job: mails the owners unless the alert is stale
    /// (a decision was recorded, the incident was closed or no longer
    /// involves personal data, or "we became aware" was moved since).
    pub(crate) async fn run_art33_alert(
        &self,
        lease: &JobLease,
        org: OrgId,
        id: IncidentId,
        hours: u8,
        aware: DateTime<Utc>,
    ) -> std::result::Result<bool, StoreError> {
        let now = self.clock.now();
        let Some(target) = self.store.alert_target(org, id).await? else {
            return self.store.finish_job_mailing(lease, &[], now).await;
        };
        let i = &target.incident;
        let current = i.state == IncidentState::Open
            && i.personal_data
            && i.art33_decision.is_none()
            && i.we_aware_at == aware;
        if !current {
            return self.store.finish_job_mailing(lease, &[], now).await;
        }
        let deadline = art33_deadline(i.we_aware_at);
        let missed = now >= deadline;
        let mut mails = Vec::with_capacity(target.owners.len());
        for p in &target.owners {
            let fmt = Fmt::new(p.lang, target.zone);
            let mail = Art33AlertMail {
                org_name: target.org_name.clone(),
                name: p.name.clone(),
                title: i.title.clone(),
                hours,
                missed,
                deadline: fmt.date_time_zone(deadline),
                left: if missed {
                    String::new()
                } else {
                    fmt.duration(deadline - now)
                },
                link: format!("{}/incidents/{}", self.base_url, i.id),
            };
            let to = Recipient {
                name: Some(p.name.clone()),
                email: p.email.clone(),
                lang: p.lang,
            };
            mails.push(
                self.mail
                    .mailer
                    .compose(&to, None, Some(org), &mail, now)
                    .map_err(|e| StoreError::Config(format!("art33 alert mail: {e}")))?,
            );
        }
        let done = self
            .store
            .finish_alert(lease, org, id, hours, &mails, now)
            .await?;
        if done && !mails.is_empty() {
            self.mail.wake.notify_one();
        }
        Ok(done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn an_incident_follow_up_is_due_on_the_deadlines_day_or_a_week_later() {
        let oslo = Zone::parse("Europe/Oslo").unwrap();
        let aware = Utc.with_ymd_and_hms(2026, 12, 1, 22, 30, 0).unwrap();
        let today = NaiveDate::from_ymd_opt(2026, 12, 1).unwrap();
        // 72 h after 23:30 local on 1 Dec is 23:30 on 4 Dec.
        assert_eq!(
            follow_up_on(oslo, true, aware, today),
            NaiveDate::from_ymd_opt(2026, 12, 4).unwrap()
        );
        assert_eq!(
            follow_up_on(oslo, false, aware, today),
            NaiveDate::from_ymd_opt(2026, 12, 8).unwrap()
        );
        // Recorded long after: not in the past.
        let later = NaiveDate::from_ymd_opt(2027, 1, 10).unwrap();
        assert_eq!(follow_up_on(oslo, true, aware, later), later);
    }
}
