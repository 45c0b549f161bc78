//! Vendor incidents and the GDPR Art. 33 clock.
//!
//! An incident is what a vendor (or the news) reports about a fault in an
//! AI service: when data was exposed, when the vendor knew and fixed it,
//! when it told us, and when *we* became aware. When personal data may be
//! involved, Art. 33(1) gives the controller 72 hours from its own
//! awareness to notify the supervisory authority; the hours run
//! continuously, whatever the calendar says. [`clock`] is that rule,
//! [`alerts_after`] the reminders along it. Everything here is a pure
//! function of the recorded facts and "now".

use crate::i18n::Msg;
use crate::inventory::{choice, long_text, optional_id, short_text, FieldErrors, Fields, WebUrl};
use crate::time::Zone;
use crate::{DataClassId, ServiceId, VendorId};
use chrono::{DateTime, Duration, NaiveDate, NaiveDateTime, Utc};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

choice!(
    /// Whether the incident reached our services and data.
    Affected {
        Unknown = "unknown" => AffectedUnknown,
        Yes = "yes" => AffectedYes,
        No = "no" => AffectedNo,
    }
);

choice!(
    /// The risk to the people whose data may be involved.
    Risk {
        NotAssessed = "not_assessed" => RiskNotAssessed,
        None = "none" => RiskNone,
        Risk = "risk" => RiskSome,
        High = "high" => RiskHigh,
    }
);

choice!(
    /// The Art. 33 decision: notify the supervisory authority, or not.
    Art33Choice {
        Notify = "notify" => Art33Notify,
        NotRequired = "not_required" => Art33NotRequired,
    }
);

choice!(
    /// The Art. 34 decision: inform the people affected, or not.
    Art34Choice {
        Inform = "inform" => Art34Inform,
        NotRequired = "not_required" => Art34NotRequired,
    }
);

choice!(
    /// Whether the incident still needs work.
    IncidentState {
        Open = "open" => IncidentOpen,
        Closed = "closed" => IncidentClosed,
    }
);

/// Hours from our awareness to the Art. 33 deadline.
pub const ART33_HOURS: i64 = 72;

/// The hours elapsed at which the owners are alerted while no Art. 33
/// decision is recorded; the last one says the deadline was missed.
pub const ALERT_HOURS: [u8; 4] = [24, 48, 60, 72];

/// The Art. 33 deadline: 72 hours after we became aware.
pub fn art33_deadline(we_aware_at: DateTime<Utc>) -> DateTime<Utc> {
    we_aware_at + Duration::hours(ART33_HOURS)
}

/// The recorded Art. 33 decision, as the clock needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Art33Decided {
    pub decision: Art33Choice,
    pub decided_at: DateTime<Utc>,
    /// When the authority was notified (for "notify").
    pub notified_at: Option<DateTime<Utc>>,
}

/// An Art. 33 decision as recorded, with who took it and when.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Art33Record {
    pub decision: Art33Choice,
    pub rationale: String,
    pub notified_at: Option<DateTime<Utc>>,
    pub authority: Option<String>,
    pub reference: Option<String>,
    pub delay_reason: Option<String>,
    pub decided_by: String,
    pub decided_at: DateTime<Utc>,
}

impl Art33Record {
    /// The decision as the clock needs it.
    pub fn decided(&self) -> Art33Decided {
        Art33Decided {
            decision: self.decision,
            decided_at: self.decided_at,
            notified_at: self.notified_at,
        }
    }
}

/// An Art. 34 decision as recorded, with who took it and when.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Art34Record {
    pub decision: Art34Choice,
    pub rationale: String,
    pub informed_on: Option<NaiveDate>,
    pub decided_by: String,
    pub decided_at: DateTime<Utc>,
}

/// Where the Art. 33 clock stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Clock {
    /// No personal data may be involved: no clock.
    NotRunning,
    /// Running, with the time left.
    Running {
        deadline: DateTime<Utc>,
        left_minutes: i64,
    },
    /// The deadline passed without a decision.
    Missed {
        deadline: DateTime<Utc>,
        over_minutes: i64,
    },
    /// Decided; `late` when the authority was notified (or the decision
    /// not to notify taken) after the deadline.
    Decided {
        deadline: DateTime<Utc>,
        decision: Art33Choice,
        late: bool,
    },
}

impl Clock {
    /// Whether the clock still asks for a decision.
    pub fn pending(self) -> bool {
        matches!(self, Clock::Running { .. } | Clock::Missed { .. })
    }
    pub fn deadline(self) -> Option<DateTime<Utc>> {
        match self {
            Clock::NotRunning => None,
            Clock::Running { deadline, .. }
            | Clock::Missed { deadline, .. }
            | Clock::Decided { deadline, .. } => Some(deadline),
        }
    }
}

impl Clock {
    /// The clock in a sentence, in `lang`, times in the zone of `fmt`.
    pub fn describe(self, fmt: &crate::time::Fmt, lang: crate::Lang) -> String {
        use crate::msg;
        match self {
            Clock::NotRunning => Msg::ClockNone.text(lang).to_owned(),
            Clock::Running {
                deadline,
                left_minutes,
            } => msg!(
                lang,
                Msg::ClockRunning,
                left = &fmt.duration(Duration::minutes(left_minutes)),
                deadline = &fmt.date_time_zone(deadline)
            ),
            Clock::Missed {
                deadline,
                over_minutes,
            } => msg!(
                lang,
                Msg::ClockMissed,
                over = &fmt.duration(Duration::minutes(over_minutes)),
                deadline = &fmt.date_time_zone(deadline)
            ),
            Clock::Decided { decision, late, .. } => {
                let mut s = msg!(
                    lang,
                    Msg::ClockDecided,
                    decision = decision.label().text(lang)
                );
                if late {
                    s.push_str(" · ");
                    s.push_str(Msg::ClockLate.text(lang));
                }
                s
            }
        }
    }
}

/// The Art. 33 clock of an incident at `now`.
pub fn clock(
    personal_data: bool,
    we_aware_at: DateTime<Utc>,
    decided: Option<Art33Decided>,
    now: DateTime<Utc>,
) -> Clock {
    let deadline = art33_deadline(we_aware_at);
    if let Some(d) = decided {
        let at = match d.decision {
            Art33Choice::Notify => d.notified_at.unwrap_or(d.decided_at),
            Art33Choice::NotRequired => d.decided_at,
        };
        return Clock::Decided {
            deadline,
            decision: d.decision,
            late: at > deadline,
        };
    }
    if !personal_data {
        return Clock::NotRunning;
    }
    if now < deadline {
        Clock::Running {
            deadline,
            left_minutes: (deadline - now).num_minutes(),
        }
    } else {
        Clock::Missed {
            deadline,
            over_minutes: (now - deadline).num_minutes(),
        }
    }
}

/// The alerts still to come after `now`: (hours elapsed, when).
pub fn alerts_after(we_aware_at: DateTime<Utc>, now: DateTime<Utc>) -> Vec<(u8, DateTime<Utc>)> {
    ALERT_HOURS
        .iter()
        .map(|h| (*h, we_aware_at + Duration::hours(i64::from(*h))))
        .filter(|(_, at)| *at > now)
        .collect()
}

/// How long the exposure lasted.
pub fn exposure(start: Option<DateTime<Utc>>, end: Option<DateTime<Utc>>) -> Option<Duration> {
    Some(end? - start?)
}

/// From the vendor's fix to the public report (about seven weeks in the
/// 2026 case).
pub fn disclosure_lag(
    fixed: Option<DateTime<Utc>>,
    disclosed: Option<DateTime<Utc>>,
) -> Option<Duration> {
    Some(disclosed? - fixed?)
}

/// The vendor's notification to us against the deadline its contract
/// names (`notice_hours` of a service's contract facts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NoticeCheck {
    /// The contract names no deadline.
    NoDeadline,
    /// The vendor has not told us (or we do not know when it knew).
    NotYet {
        due: Option<DateTime<Utc>>,
    },
    Within {
        took_minutes: i64,
        hours: i32,
    },
    Late {
        took_minutes: i64,
        hours: i32,
    },
}

pub fn notice_check(
    vendor_aware_at: Option<DateTime<Utc>>,
    vendor_notified_at: Option<DateTime<Utc>>,
    notice_hours: Option<i32>,
) -> NoticeCheck {
    let Some(hours) = notice_hours else {
        return NoticeCheck::NoDeadline;
    };
    match (vendor_aware_at, vendor_notified_at) {
        (Some(aware), Some(told)) => {
            let took = told - aware;
            if took <= Duration::hours(i64::from(hours)) {
                NoticeCheck::Within {
                    took_minutes: took.num_minutes(),
                    hours,
                }
            } else {
                NoticeCheck::Late {
                    took_minutes: took.num_minutes(),
                    hours,
                }
            }
        }
        (aware, _) => NoticeCheck::NotYet {
            due: aware.map(|a| a + Duration::hours(i64::from(hours))),
        },
    }
}

/// A date and time as a form sends it (`YYYY-MM-DDTHH:MM`, the organisation's
/// local time), read in `zone`. A time skipped by the change to summer time
/// is moved forward, an hour that exists twice is taken the first time (as
/// [`Zone::at`] does).
pub fn optional_local_time(input: &str, zone: Zone) -> Result<Option<DateTime<Utc>>, Msg> {
    let s = input.trim();
    if s.is_empty() {
        return Ok(None);
    }
    let naive = ["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"]
        .iter()
        .find_map(|f| NaiveDateTime::parse_from_str(s, f).ok())
        .filter(|n| (1990..=2200).contains(&chrono::Datelike::year(&n.date())))
        .ok_or(Msg::ErrDateTimeInvalid)?;
    Ok(Some(zone.at(naive.date(), naive.time())))
}

/// The form's value of an instant: local time in `zone`, to the minute.
pub fn local_input(at: DateTime<Utc>, zone: Zone) -> String {
    zone.local(at).format("%Y-%m-%dT%H:%M").to_string()
}

/// The raw incident form (dates and times in the organisation's zone).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct IncidentForm {
    pub title: String,
    pub description: String,
    /// One address per line.
    pub source_links: String,
    pub vendors: Vec<String>,
    pub services: Vec<String>,
    pub data_classes: Vec<String>,
    pub exposure_start: String,
    pub exposure_end: String,
    pub vendor_aware_at: String,
    pub vendor_fixed_at: String,
    pub vendor_notified_at: String,
    pub vendor_notified_how: String,
    pub disclosed_at: String,
    pub we_aware_at: String,
    pub affected: String,
    pub affected_evidence: String,
    pub personal_data: String,
    pub risk: String,
}

/// The instants an incident records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Times {
    pub exposure_start: Option<DateTime<Utc>>,
    pub exposure_end: Option<DateTime<Utc>>,
    pub vendor_aware_at: Option<DateTime<Utc>>,
    pub vendor_fixed_at: Option<DateTime<Utc>>,
    pub vendor_notified_at: Option<DateTime<Utc>>,
    pub disclosed_at: Option<DateTime<Utc>>,
}

/// An incident as it will be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IncidentDraft {
    pub title: String,
    pub description: Option<String>,
    pub source_links: Vec<WebUrl>,
    pub vendors: Vec<VendorId>,
    pub services: Vec<ServiceId>,
    pub data_classes: Vec<DataClassId>,
    pub times: Times,
    pub vendor_notified_how: Option<String>,
    pub we_aware_at: DateTime<Utc>,
    pub affected: Affected,
    pub affected_evidence: Option<String>,
    pub personal_data: bool,
    pub risk: Risk,
}

fn ids<T: FromStr + PartialEq + Ord>(
    f: &mut Fields,
    field: &'static str,
    raw: &[String],
) -> Vec<T> {
    let mut out = Vec::new();
    for r in raw {
        if let Some(Some(id)) = f.take(field, optional_id::<T>(r)) {
            if !out.contains(&id) {
                out.push(id);
            }
        }
    }
    out.sort();
    out
}

fn checked(s: &str) -> bool {
    matches!(s.trim(), "true" | "on" | "1" | "yes")
}

impl IncidentForm {
    /// Checks the form: a title, when we became aware (not in the future),
    /// an exposure that does not end before it starts, web addresses as
    /// sources; at least one vendor or service.
    pub fn parse(&self, zone: Zone, now: DateTime<Utc>) -> Result<IncidentDraft, FieldErrors> {
        let mut f = Fields(Vec::new());
        let title = f.take(
            "title",
            short_text(&self.title).and_then(|t| t.ok_or(Msg::ErrIncidentTitleRequired)),
        );
        let description = f
            .take("description", long_text(&self.description))
            .flatten();
        let mut source_links = Vec::new();
        for line in self.source_links.lines().filter(|l| !l.trim().is_empty()) {
            if let Some(Some(u)) = f.take("source_links", WebUrl::parse(line)) {
                if !source_links.contains(&u) {
                    source_links.push(u);
                }
            }
        }
        if source_links.len() > 20 {
            f.0.push(("source_links", Msg::ErrTooMany));
        }
        let vendors = ids::<VendorId>(&mut f, "vendors", &self.vendors);
        let services = ids::<ServiceId>(&mut f, "services", &self.services);
        let data_classes = ids::<DataClassId>(&mut f, "data_classes", &self.data_classes);
        if vendors.is_empty() && services.is_empty() {
            f.0.push(("vendors", Msg::ErrIncidentVendorRequired));
        }
        let mut time = |field: &'static str, raw: &str| {
            f.take(field, optional_local_time(raw, zone)).flatten()
        };
        let times = Times {
            exposure_start: time("exposure_start", &self.exposure_start),
            exposure_end: time("exposure_end", &self.exposure_end),
            vendor_aware_at: time("vendor_aware_at", &self.vendor_aware_at),
            vendor_fixed_at: time("vendor_fixed_at", &self.vendor_fixed_at),
            vendor_notified_at: time("vendor_notified_at", &self.vendor_notified_at),
            disclosed_at: time("disclosed_at", &self.disclosed_at),
        };
        let we_aware_at = time("we_aware_at", &self.we_aware_at);
        if self.we_aware_at.trim().is_empty() {
            f.0.push(("we_aware_at", Msg::ErrAwareRequired));
        }
        // A minute's slack for the clock of the browser that filled it in.
        if we_aware_at.is_some_and(|a| a > now + Duration::minutes(1)) {
            f.0.push(("we_aware_at", Msg::ErrAwareFuture));
        }
        if let (Some(s), Some(e)) = (times.exposure_start, times.exposure_end) {
            if e < s {
                f.0.push(("exposure_end", Msg::ErrEndBeforeStart));
            }
        }
        let vendor_notified_how = f
            .take("vendor_notified_how", short_text(&self.vendor_notified_how))
            .flatten();
        let affected = f.take(
            "affected",
            if self.affected.trim().is_empty() {
                Ok(Affected::Unknown)
            } else {
                self.affected.parse()
            },
        );
        let affected_evidence = f
            .take("affected_evidence", long_text(&self.affected_evidence))
            .flatten();
        let risk = f.take(
            "risk",
            if self.risk.trim().is_empty() {
                Ok(Risk::NotAssessed)
            } else {
                self.risk.parse()
            },
        );
        match (title, we_aware_at, affected, risk) {
            (Some(title), Some(we_aware_at), Some(affected), Some(risk)) if f.0.is_empty() => {
                Ok(IncidentDraft {
                    title,
                    description,
                    source_links,
                    vendors,
                    services,
                    data_classes,
                    times,
                    vendor_notified_how,
                    we_aware_at,
                    affected,
                    affected_evidence,
                    personal_data: checked(&self.personal_data),
                    risk,
                })
            }
            _ => Err(f.0),
        }
    }
}

/// The choice and the rationale every decision needs (neither may be empty).
fn decision_and_rationale<T: FromStr<Err = Msg>>(
    f: &mut Fields,
    decision: &str,
    rationale: &str,
) -> (Option<T>, Option<String>) {
    let decision = f.take(
        "decision",
        if decision.trim().is_empty() {
            Err(Msg::ErrChooseDecision)
        } else {
            decision.parse::<T>()
        },
    );
    let rationale = f.take(
        "rationale",
        long_text(rationale).and_then(|r| r.ok_or(Msg::ErrRationaleRequired)),
    );
    (decision, rationale)
}

/// The raw Art. 33 decision form.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Art33Form {
    pub decision: String,
    pub rationale: String,
    pub notified_at: String,
    pub authority: String,
    pub reference: String,
    pub delay_reason: String,
}

/// An Art. 33 decision as it will be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Art33Draft {
    pub decision: Art33Choice,
    pub rationale: String,
    pub notified_at: Option<DateTime<Utc>>,
    pub authority: Option<String>,
    pub reference: Option<String>,
    pub delay_reason: Option<String>,
}

impl Art33Form {
    /// A decision needs its rationale; "notify" needs when (not in the
    /// future); a notification after the deadline, or a decision not to
    /// notify taken after it, needs the reasons for the delay (Art. 33(1)).
    pub fn parse(
        &self,
        we_aware_at: DateTime<Utc>,
        zone: Zone,
        now: DateTime<Utc>,
    ) -> Result<Art33Draft, FieldErrors> {
        let mut f = Fields(Vec::new());
        let (decision, rationale) =
            decision_and_rationale::<Art33Choice>(&mut f, &self.decision, &self.rationale);
        let notified_at = f
            .take("notified_at", optional_local_time(&self.notified_at, zone))
            .flatten();
        let authority = f.take("authority", short_text(&self.authority)).flatten();
        let reference = f.take("reference", short_text(&self.reference)).flatten();
        let delay_reason = f
            .take("delay_reason", long_text(&self.delay_reason))
            .flatten();
        let deadline = art33_deadline(we_aware_at);
        match decision {
            Some(Art33Choice::Notify) => {
                match notified_at {
                    None if self.notified_at.trim().is_empty() => {
                        f.0.push(("notified_at", Msg::ErrNotifiedAtRequired))
                    }
                    Some(at) if at > now + Duration::minutes(1) => {
                        f.0.push(("notified_at", Msg::ErrNotifiedFuture))
                    }
                    Some(at) if at > deadline && delay_reason.is_none() => {
                        f.0.push(("delay_reason", Msg::ErrDelayReasonRequired))
                    }
                    _ => {}
                }
                if authority.is_none() {
                    f.0.push(("authority", Msg::ErrAuthorityRequired));
                }
            }
            Some(Art33Choice::NotRequired) => {}
            None => {}
        }
        match (decision, rationale) {
            (Some(decision), Some(rationale)) if f.0.is_empty() => {
                let notify = decision == Art33Choice::Notify;
                let late = notified_at.is_some_and(|at| at > deadline);
                Ok(Art33Draft {
                    decision,
                    rationale,
                    notified_at: notified_at.filter(|_| notify),
                    authority: authority.filter(|_| notify),
                    reference: reference.filter(|_| notify),
                    delay_reason: delay_reason.filter(|_| notify && late),
                })
            }
            _ => Err(f.0),
        }
    }
}

/// The raw Art. 34 decision form.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Art34Form {
    pub decision: String,
    pub rationale: String,
    pub informed_on: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Art34Draft {
    pub decision: Art34Choice,
    pub rationale: String,
    pub informed_on: Option<NaiveDate>,
}

impl Art34Form {
    pub fn parse(&self, today: NaiveDate) -> Result<Art34Draft, FieldErrors> {
        let mut f = Fields(Vec::new());
        let (decision, rationale) =
            decision_and_rationale::<Art34Choice>(&mut f, &self.decision, &self.rationale);
        let informed_on = f
            .take(
                "informed_on",
                crate::inventory::optional_date(&self.informed_on),
            )
            .flatten();
        if decision == Some(Art34Choice::Inform) {
            match informed_on {
                None if self.informed_on.trim().is_empty() => {
                    f.0.push(("informed_on", Msg::ErrInformedOnRequired))
                }
                Some(d) if d > today => f.0.push(("informed_on", Msg::ErrInformedFuture)),
                _ => {}
            }
        }
        match (decision, rationale) {
            (Some(decision), Some(rationale)) if f.0.is_empty() => Ok(Art34Draft {
                decision,
                rationale,
                informed_on: informed_on.filter(|_| decision == Art34Choice::Inform),
            }),
            _ => Err(f.0),
        }
    }
}

/// One entry of an incident's own timeline (append-only; who and when are
/// kept beside it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "detail")]
pub enum Entry {
    #[serde(rename = "recorded")]
    Recorded { title: String },
    /// Fields changed (their form names).
    #[serde(rename = "changed")]
    Changed { fields: Vec<String> },
    /// "We became aware" was moved, and the clock with it.
    #[serde(rename = "aware_moved")]
    AwareMoved {
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    },
    #[serde(rename = "service_linked")]
    ServiceLinked { service: String },
    #[serde(rename = "service_unlinked")]
    ServiceUnlinked { service: String },
    #[serde(rename = "note")]
    Note { text: String },
    #[serde(rename = "art33_decided")]
    Art33Decided {
        decision: Art33Choice,
        notified_at: Option<DateTime<Utc>>,
        late: bool,
    },
    #[serde(rename = "art34_decided")]
    Art34Decided {
        decision: Art34Choice,
        informed_on: Option<NaiveDate>,
    },
    #[serde(rename = "alert_sent")]
    AlertSent { hours: u8, to: usize },
    #[serde(rename = "closed")]
    Closed,
    #[serde(rename = "reopened")]
    Reopened,
    /// A stored entry this version cannot read.
    #[serde(skip)]
    Unreadable { kind: String, detail: String },
}

impl Entry {
    pub fn to_stored(&self) -> (String, String) {
        if let Entry::Unreadable { kind, detail } = self {
            return (kind.clone(), detail.clone());
        }
        let mut v = serde_json::to_value(self).unwrap_or_default();
        let kind = v
            .get("kind")
            .and_then(|k| k.as_str())
            .unwrap_or_default()
            .to_owned();
        let detail = v
            .get_mut("detail")
            .map(serde_json::Value::take)
            .unwrap_or(serde_json::Value::Null);
        (kind, detail.to_string())
    }

    pub fn from_stored(kind: &str, detail: &str) -> Entry {
        let mut m = serde_json::Map::new();
        m.insert("kind".into(), serde_json::Value::String(kind.to_owned()));
        if let Ok(d) = serde_json::from_str::<serde_json::Value>(detail) {
            if !d.is_null() {
                m.insert("detail".into(), d);
            }
        }
        serde_json::from_value(serde_json::Value::Object(m)).unwrap_or_else(|_| Entry::Unreadable {
            kind: kind.to_owned(),
            detail: detail.to_owned(),
        })
    }

    /// The entry as a sentence in `lang`, dates in the organisation's zone.
    pub fn describe(&self, fmt: &crate::time::Fmt, lang: crate::Lang) -> String {
        use crate::msg;
        let t = |m: Msg| m.text(lang).to_owned();
        match self {
            Entry::Recorded { title } => msg!(lang, Msg::EntryRecorded, title = title),
            Entry::Changed { fields } => {
                let names: Vec<String> = fields
                    .iter()
                    .map(|f| field_label(f).map(t).unwrap_or_else(|| f.clone()))
                    .collect();
                msg!(lang, Msg::EntryChanged, fields = &lang.list(&names))
            }
            Entry::AwareMoved { from, to } => msg!(
                lang,
                Msg::EntryAwareMoved,
                from = &fmt.date_time_zone(*from),
                to = &fmt.date_time_zone(*to)
            ),
            Entry::ServiceLinked { service } => {
                msg!(lang, Msg::EntryServiceLinked, service = service)
            }
            Entry::ServiceUnlinked { service } => {
                msg!(lang, Msg::EntryServiceUnlinked, service = service)
            }
            Entry::Note { text } => text.clone(),
            Entry::Art33Decided {
                decision,
                notified_at,
                late,
            } => {
                let mut s = msg!(
                    lang,
                    Msg::EntryArt33Decided,
                    decision = decision.label().text(lang)
                );
                if let Some(at) = notified_at {
                    s.push_str(" · ");
                    s.push_str(&fmt.date_time_zone(*at));
                }
                if *late {
                    s.push_str(" · ");
                    s.push_str(Msg::ClockLate.text(lang));
                }
                s
            }
            Entry::Art34Decided {
                decision,
                informed_on,
            } => {
                let mut s = msg!(
                    lang,
                    Msg::EntryArt34Decided,
                    decision = decision.label().text(lang)
                );
                if let Some(d) = informed_on {
                    s.push_str(" · ");
                    s.push_str(&fmt.date(*d));
                }
                s
            }
            Entry::AlertSent { hours, to } => {
                msg!(
                    lang,
                    Msg::EntryAlertSent,
                    hours = *hours as i64,
                    n = *to as i64
                )
            }
            Entry::Closed => t(Msg::EntryClosed),
            Entry::Reopened => t(Msg::EntryReopened),
            Entry::Unreadable { kind, detail } => format!("{kind}: {detail}"),
        }
    }
}

/// The label of an incident form field, for "changed" entries.
pub fn field_label(field: &str) -> Option<Msg> {
    Some(match field {
        "title" => Msg::FieldIncidentTitle,
        "description" => Msg::FieldIncidentDescription,
        "source_links" => Msg::FieldSourceLinks,
        "vendors" => Msg::FieldIncidentVendors,
        "services" => Msg::FieldIncidentServices,
        "data_classes" => Msg::FieldIncidentDataClasses,
        "exposure_start" => Msg::FieldExposureStart,
        "exposure_end" => Msg::FieldExposureEnd,
        "vendor_aware_at" => Msg::FieldVendorAware,
        "vendor_fixed_at" => Msg::FieldVendorFixed,
        "vendor_notified_at" => Msg::FieldVendorNotified,
        "vendor_notified_how" => Msg::FieldVendorNotifiedHow,
        "disclosed_at" => Msg::FieldDisclosed,
        "we_aware_at" => Msg::FieldWeAware,
        "affected" => Msg::FieldAffected,
        "affected_evidence" => Msg::FieldAffectedEvidence,
        "personal_data" => Msg::FieldPersonalDataInvolved,
        "risk" => Msg::FieldRisk,
        _ => return None,
    })
}

/// The fields that differ between two drafts, by form name.
pub fn changed_fields(old: &IncidentDraft, new: &IncidentDraft) -> Vec<String> {
    let mut out = Vec::new();
    let mut cmp = |name: &str, same: bool| {
        if !same {
            out.push(name.to_owned());
        }
    };
    cmp("title", old.title == new.title);
    cmp("description", old.description == new.description);
    cmp("source_links", old.source_links == new.source_links);
    cmp("vendors", old.vendors == new.vendors);
    cmp("services", old.services == new.services);
    cmp("data_classes", old.data_classes == new.data_classes);
    let (a, b) = (old.times, new.times);
    cmp("exposure_start", a.exposure_start == b.exposure_start);
    cmp("exposure_end", a.exposure_end == b.exposure_end);
    cmp("vendor_aware_at", a.vendor_aware_at == b.vendor_aware_at);
    cmp("vendor_fixed_at", a.vendor_fixed_at == b.vendor_fixed_at);
    cmp(
        "vendor_notified_at",
        a.vendor_notified_at == b.vendor_notified_at,
    );
    cmp(
        "vendor_notified_how",
        old.vendor_notified_how == new.vendor_notified_how,
    );
    cmp("disclosed_at", a.disclosed_at == b.disclosed_at);
    cmp("we_aware_at", old.we_aware_at == new.we_aware_at);
    cmp("affected", old.affected == new.affected);
    cmp(
        "affected_evidence",
        old.affected_evidence == new.affected_evidence,
    );
    cmp("personal_data", old.personal_data == new.personal_data);
    cmp("risk", old.risk == new.risk);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn utc(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, mo, d, h, mi, 0).unwrap()
    }
    fn zone(name: &str) -> Zone {
        Zone::parse(name).unwrap()
    }

    #[test]
    fn the_clock_runs_72_hours_through_weekends() {
        // Aware on a Friday afternoon: the deadline is Monday afternoon.
        let aware = utc(2026, 11, 27, 15, 0);
        assert_eq!(art33_deadline(aware), utc(2026, 11, 30, 15, 0));
        let c = clock(true, aware, None, utc(2026, 11, 28, 15, 0));
        assert_eq!(
            c,
            Clock::Running {
                deadline: utc(2026, 11, 30, 15, 0),
                left_minutes: 48 * 60
            }
        );
        assert!(c.pending());
        let c = clock(true, aware, None, utc(2026, 11, 30, 15, 30));
        assert_eq!(
            c,
            Clock::Missed {
                deadline: utc(2026, 11, 30, 15, 0),
                over_minutes: 30
            }
        );
        // Without personal data there is no clock.
        assert_eq!(clock(false, aware, None, aware), Clock::NotRunning);
    }

    #[test]
    fn the_clock_is_72_real_hours_across_a_change_of_summer_time() {
        // Berlin, 29 March 2026 (clocks go forward): aware Saturday 12:00
        // local is 11:00 UTC; 72 hours later is 11:00 UTC on Tuesday,
        // which is 13:00 local, not 12:00.
        let berlin = zone("Europe/Berlin");
        let aware = optional_local_time("2026-03-28T12:00", berlin)
            .unwrap()
            .unwrap();
        assert_eq!(aware, utc(2026, 3, 28, 11, 0));
        let deadline = art33_deadline(aware);
        assert_eq!(local_input(deadline, berlin), "2026-03-31T13:00");
        // Oslo, 25 October 2026 (clocks go back): 13:00 → 12:00 local.
        let oslo = zone("Europe/Oslo");
        let aware = optional_local_time("2026-10-24T13:00", oslo)
            .unwrap()
            .unwrap();
        assert_eq!(local_input(art33_deadline(aware), oslo), "2026-10-27T12:00");
        // A time skipped by the change is moved forward; one that exists
        // twice is taken the first time.
        let skipped = optional_local_time("2026-03-29T02:30", berlin)
            .unwrap()
            .unwrap();
        assert_eq!(skipped, utc(2026, 3, 29, 1, 30));
        let twice = optional_local_time("2026-10-25T02:30", oslo)
            .unwrap()
            .unwrap();
        assert_eq!(twice, utc(2026, 10, 25, 0, 30));
    }

    #[test]
    fn alerts_come_at_24_48_60_hours_and_at_the_deadline() {
        let aware = utc(2026, 12, 1, 9, 0);
        let all = alerts_after(aware, aware);
        assert_eq!(
            all,
            vec![
                (24, utc(2026, 12, 2, 9, 0)),
                (48, utc(2026, 12, 3, 9, 0)),
                (60, utc(2026, 12, 3, 21, 0)),
                (72, utc(2026, 12, 4, 9, 0)),
            ]
        );
        // Recorded 50 hours late: only what is still ahead.
        let late = alerts_after(aware, aware + Duration::hours(50));
        assert_eq!(late.iter().map(|a| a.0).collect::<Vec<_>>(), vec![60, 72]);
        assert!(alerts_after(aware, aware + Duration::hours(72)).is_empty());
    }

    #[test]
    fn a_decision_stops_the_clock_and_says_whether_it_was_late() {
        let aware = utc(2026, 12, 1, 9, 0);
        let decided = |decision, at: DateTime<Utc>, notified| Art33Decided {
            decision,
            decided_at: at,
            notified_at: notified,
        };
        let on_time = decided(
            Art33Choice::Notify,
            utc(2026, 12, 5, 9, 0),
            Some(utc(2026, 12, 3, 9, 0)),
        );
        assert_eq!(
            clock(true, aware, Some(on_time), utc(2026, 12, 9, 0, 0)),
            Clock::Decided {
                deadline: utc(2026, 12, 4, 9, 0),
                decision: Art33Choice::Notify,
                late: false
            }
        );
        let late = decided(
            Art33Choice::Notify,
            utc(2026, 12, 5, 9, 0),
            Some(utc(2026, 12, 4, 9, 1)),
        );
        assert!(matches!(
            clock(true, aware, Some(late), utc(2026, 12, 9, 0, 0)),
            Clock::Decided { late: true, .. }
        ));
        let not_required = decided(Art33Choice::NotRequired, utc(2026, 12, 2, 9, 0), None);
        assert!(!clock(true, aware, Some(not_required), utc(2026, 12, 9, 0, 0)).pending());
    }

    #[test]
    fn lags_and_the_vendors_notice() {
        // The 2026 case: fixed 9 Sep 19:40 UTC, reported 26 Oct.
        let lag = disclosure_lag(
            Some(utc(2026, 9, 9, 19, 40)),
            Some(utc(2026, 10, 26, 12, 0)),
        );
        assert_eq!(lag.unwrap().num_days(), 46);
        assert_eq!(
            exposure(Some(utc(2026, 8, 27, 0, 0)), Some(utc(2026, 9, 9, 14, 0)))
                .unwrap()
                .num_hours(),
            13 * 24 + 14
        );
        assert_eq!(exposure(None, Some(utc(2026, 9, 9, 14, 0))), None);
        let aware = Some(utc(2026, 9, 8, 12, 0));
        assert_eq!(notice_check(aware, None, None), NoticeCheck::NoDeadline);
        assert_eq!(
            notice_check(aware, None, Some(72)),
            NoticeCheck::NotYet {
                due: Some(utc(2026, 9, 11, 12, 0))
            }
        );
        assert_eq!(
            notice_check(aware, Some(utc(2026, 9, 10, 12, 0)), Some(72)),
            NoticeCheck::Within {
                took_minutes: 48 * 60,
                hours: 72
            }
        );
        assert!(matches!(
            notice_check(aware, Some(utc(2026, 10, 26, 12, 0)), Some(72)),
            NoticeCheck::Late { hours: 72, .. }
        ));
    }

    fn form() -> IncidentForm {
        IncidentForm {
            title: "GLM-5.3 served other customers' prompts".into(),
            vendors: vec![uuid::Uuid::from_u128(1).to_string()],
            we_aware_at: "2026-11-30T10:00".into(),
            ..Default::default()
        }
    }

    #[test]
    fn the_incident_form_needs_a_title_a_vendor_and_when_we_knew() {
        let berlin = zone("Europe/Berlin");
        let now = utc(2026, 12, 1, 12, 0);
        let d = form().parse(berlin, now).unwrap();
        assert_eq!(d.we_aware_at, utc(2026, 11, 30, 9, 0));
        assert_eq!(d.affected, Affected::Unknown);
        assert_eq!(d.risk, Risk::NotAssessed);
        assert!(!d.personal_data);
        let errs = IncidentForm::default().parse(berlin, now).unwrap_err();
        let fields: Vec<&str> = errs.iter().map(|e| e.0).collect();
        assert!(fields.contains(&"title"), "{errs:?}");
        assert!(fields.contains(&"vendors"), "{errs:?}");
        assert!(fields.contains(&"we_aware_at"), "{errs:?}");
        let bad = IncidentForm {
            we_aware_at: "2026-12-02T10:00".into(),
            exposure_start: "2026-09-09T10:00".into(),
            exposure_end: "2026-08-27T10:00".into(),
            source_links: "https://blog.example.com/post\nnot a link".into(),
            risk: "catastrophic".into(),
            ..form()
        };
        let errs = bad.parse(berlin, now).unwrap_err();
        assert!(errs.contains(&("we_aware_at", Msg::ErrAwareFuture)));
        assert!(errs.contains(&("exposure_end", Msg::ErrEndBeforeStart)));
        assert!(errs.contains(&("source_links", Msg::ErrUrlInvalid)));
        assert!(errs.contains(&("risk", Msg::ErrChoiceInvalid)));
        assert!(form()
            .parse(berlin, now)
            .map(|d| changed_fields(&d, &d).is_empty())
            .unwrap());
    }

    #[test]
    fn the_art33_decision_needs_reasons_and_a_late_one_its_delay() {
        let berlin = zone("Europe/Berlin");
        let aware = utc(2026, 12, 1, 9, 0);
        let now = utc(2026, 12, 6, 9, 0);
        let empty = Art33Form::default().parse(aware, berlin, now).unwrap_err();
        assert!(empty.contains(&("decision", Msg::ErrChooseDecision)));
        assert!(empty.contains(&("rationale", Msg::ErrRationaleRequired)));
        let notify = Art33Form {
            decision: "notify".into(),
            rationale: "Customer e-mails were in the prompts.".into(),
            authority: "BfDI".into(),
            notified_at: "2026-12-03T10:00".into(),
            ..Default::default()
        };
        let d = notify.parse(aware, berlin, now).unwrap();
        assert_eq!(d.notified_at, Some(utc(2026, 12, 3, 9, 0)));
        assert_eq!(d.delay_reason, None);
        // After the deadline (4 Dec 10:00 in Berlin) the delay needs reasons.
        let late = Art33Form {
            notified_at: "2026-12-04T10:01".into(),
            ..notify.clone()
        };
        assert_eq!(
            late.parse(aware, berlin, now).unwrap_err(),
            vec![("delay_reason", Msg::ErrDelayReasonRequired)]
        );
        let explained = Art33Form {
            delay_reason: "The vendor confirmed only on 4 Dec.".into(),
            ..late
        };
        assert!(explained
            .parse(aware, berlin, now)
            .unwrap()
            .delay_reason
            .is_some());
        let no_when = Art33Form {
            notified_at: String::new(),
            ..notify.clone()
        };
        assert_eq!(
            no_when.parse(aware, berlin, now).unwrap_err(),
            vec![("notified_at", Msg::ErrNotifiedAtRequired)]
        );
        // Not required: what only a notification needs is dropped.
        let not_required = Art33Form {
            decision: "not_required".into(),
            ..notify
        };
        let d = not_required.parse(aware, berlin, now).unwrap();
        assert_eq!((d.notified_at, d.authority), (None, None));
    }

    #[test]
    fn the_art34_decision_is_separate_and_needs_its_own_reasons() {
        let today = NaiveDate::from_ymd_opt(2026, 12, 6).unwrap();
        let errs = Art34Form {
            decision: "inform".into(),
            ..Default::default()
        }
        .parse(today)
        .unwrap_err();
        assert!(errs.contains(&("rationale", Msg::ErrRationaleRequired)));
        assert!(errs.contains(&("informed_on", Msg::ErrInformedOnRequired)));
        let d = Art34Form {
            decision: "not_required".into(),
            rationale: "Pseudonymised data only.".into(),
            informed_on: "2026-12-05".into(),
        }
        .parse(today)
        .unwrap();
        assert_eq!(d.informed_on, None);
    }

    #[test]
    fn entries_round_trip_and_unknown_ones_stay_as_stored() {
        for e in [
            Entry::Recorded { title: "T".into() },
            Entry::Changed {
                fields: vec!["risk".into()],
            },
            Entry::AwareMoved {
                from: utc(2026, 12, 1, 9, 0),
                to: utc(2026, 12, 1, 8, 0),
            },
            Entry::Art33Decided {
                decision: Art33Choice::Notify,
                notified_at: Some(utc(2026, 12, 2, 9, 0)),
                late: false,
            },
            Entry::AlertSent { hours: 24, to: 2 },
            Entry::Closed,
        ] {
            let (k, d) = e.to_stored();
            assert_eq!(Entry::from_stored(&k, &d), e);
        }
        assert!(matches!(
            Entry::from_stored("launched", "{}"),
            Entry::Unreadable { .. }
        ));
        for f in changed_fields(
            &form()
                .parse(zone("Europe/Oslo"), utc(2026, 12, 1, 12, 0))
                .unwrap(),
            &IncidentDraft {
                title: "x".into(),
                description: Some("d".into()),
                source_links: vec![],
                vendors: vec![],
                services: vec![ServiceId(uuid::Uuid::from_u128(3))],
                data_classes: vec![DataClassId(uuid::Uuid::from_u128(4))],
                times: Times {
                    exposure_start: Some(utc(2026, 1, 1, 0, 0)),
                    exposure_end: Some(utc(2026, 1, 1, 0, 0)),
                    vendor_aware_at: Some(utc(2026, 1, 1, 0, 0)),
                    vendor_fixed_at: Some(utc(2026, 1, 1, 0, 0)),
                    vendor_notified_at: Some(utc(2026, 1, 1, 0, 0)),
                    disclosed_at: Some(utc(2026, 1, 1, 0, 0)),
                },
                vendor_notified_how: Some("mail".into()),
                we_aware_at: utc(2026, 1, 1, 0, 0),
                affected: Affected::Yes,
                affected_evidence: Some("e".into()),
                personal_data: true,
                risk: Risk::High,
            },
        ) {
            assert!(field_label(&f).is_some(), "{f} has no label");
        }
    }
}
