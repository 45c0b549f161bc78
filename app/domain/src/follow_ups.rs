//! Follow-ups: every open item has a date and a reason, so that nothing
//! asked is forgotten. The rules for when a follow-up is due, when the
//! vendor is reminded, and which section of the board it belongs in are
//! pure functions of dates; the store keeps the follow-ups, the services
//! apply these rules with the organisation's "today".

use crate::i18n::Msg;
use crate::inventory::{choice, long_text, FieldErrors};
use crate::time::Week;
use chrono::{Duration, Months, NaiveDate};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

choice!(
    /// Why something needs looking at by a date.
    FollowUpReason {
        AnswerDue = "answer_due" => ReasonAnswerDue,
        ReviewDue = "review_due" => ReasonReviewDue,
        Reassessment = "reassessment" => ReasonReassessment,
        DecisionExpiry = "decision_expiry" => ReasonDecisionExpiry,
        Incident = "incident" => ReasonIncident,
    }
);

choice!(
    /// Where a follow-up stands. Cancelled: its reason went away (the
    /// request was withdrawn), nothing is left to do.
    FollowUpStatus {
        Open = "open" => FollowUpOpen,
        Done = "done" => FollowUpDone,
        Cancelled = "cancelled" => FollowUpCancelled,
    }
);

choice!(
    /// How often a member gets the digest of their follow-ups by mail.
    Digest {
        Off = "off" => DigestOff,
        Daily = "daily" => DigestDaily,
        Weekly = "weekly" => DigestWeekly,
    }
);

/// Digests go out from this local hour on.
pub const DIGEST_HOUR: u32 = 7;

impl Digest {
    /// Whether a digest is due on `day` (a daily one every day, a weekly
    /// one on Mondays), once its local hour is reached.
    pub fn due(self, day: NaiveDate, hour: u32) -> bool {
        use chrono::Datelike;
        hour >= DIGEST_HOUR
            && match self {
                Digest::Off => false,
                Digest::Daily => true,
                Digest::Weekly => day.weekday() == chrono::Weekday::Mon,
            }
    }

    /// The last day a digest on `day` lists items due on.
    pub fn horizon(self, day: NaiveDate) -> NaiveDate {
        day + Duration::days(match self {
            Digest::Weekly => 6,
            _ => 0,
        })
    }
}

/// The board's sections, counted in the organisation's days.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Section {
    Overdue,
    ThisWeek,
    Later,
}

impl Section {
    pub fn of(due: NaiveDate, today: NaiveDate) -> Section {
        if due < today {
            Section::Overdue
        } else if Week::of(today).contains(due) {
            Section::ThisWeek
        } else {
            Section::Later
        }
    }
    pub fn label(self) -> Msg {
        match self {
            Section::Overdue => Msg::FollowUpsOverdue,
            Section::ThisWeek => Msg::FollowUpsThisWeek,
            Section::Later => Msg::FollowUpsLater,
        }
    }
}

/// How an organisation follows up, with the defaults a new one gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Policy {
    /// Reminders to the vendor while no answer has arrived.
    pub reminders: bool,
    /// At most this many reminders per request (then: "no answer").
    pub max_reminders: u8,
    /// Answers not reviewed this many days after they arrived are due.
    pub review_days: u16,
    /// A cleared service is assessed again this many months later.
    pub reassess_months: u16,
    /// A data decision with a last day is followed up this many days before.
    #[serde(default = "default_expiry_notice_days")]
    pub expiry_notice_days: u16,
}

fn default_expiry_notice_days() -> u16 {
    14
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            reminders: true,
            max_reminders: 4,
            review_days: 7,
            reassess_months: 12,
            expiry_notice_days: default_expiry_notice_days(),
        }
    }
}

/// The largest number of reminders an organisation can choose.
pub const MAX_REMINDERS: u8 = 10;

/// The days relative to the deadline on which the vendor is reminded:
/// three days before, on the day, then 7 and 14 days after; further ones
/// (if an organisation allows more than four) weekly.
pub fn reminder_offset(n: u8) -> i64 {
    match n {
        0 => -3,
        1 => 0,
        2 => 7,
        3 => 14,
        n => 14 + 7 * (i64::from(n) - 3),
    }
}

/// The day of reminder `n` (0-based) for a deadline.
pub fn reminder_day(deadline: NaiveDate, n: u8) -> NaiveDate {
    deadline + Duration::days(reminder_offset(n))
}

/// Reminders go out at this local hour.
pub const REMINDER_HOUR: u32 = 9;

/// When answers that arrived on `day` are due for review.
pub fn review_due(day: NaiveDate, p: &Policy) -> NaiveDate {
    day + Duration::days(i64::from(p.review_days))
}

/// When a service cleared on `day` is to be assessed again.
pub fn reassessment_due(day: NaiveDate, p: &Policy) -> NaiveDate {
    day.checked_add_months(Months::new(u32::from(p.reassess_months)))
        .unwrap_or(day)
}

/// When a data decision whose last day is `last_day` is followed up.
pub fn expiry_follow_up_due(last_day: NaiveDate, p: &Policy) -> NaiveDate {
    last_day - Duration::days(i64::from(p.expiry_notice_days))
}

/// The follow-up settings form of Settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PolicyForm {
    #[serde(default)]
    pub reminders: String,
    pub max_reminders: String,
    pub review_days: String,
    pub reassess_months: String,
    #[serde(default)]
    pub expiry_notice_days: String,
}

fn number<T: FromStr + PartialOrd>(s: &str, min: T, max: T, msg: Msg) -> Result<T, Msg> {
    let n: T = s.trim().parse().map_err(|_| msg)?;
    if n < min || n > max {
        return Err(msg);
    }
    Ok(n)
}

impl PolicyForm {
    pub fn parse(&self) -> Result<Policy, FieldErrors> {
        let mut errors = FieldErrors::new();
        let mut take = |field: &'static str, r: Result<u16, Msg>| match r {
            Ok(v) => Some(v),
            Err(m) => {
                errors.push((field, m));
                None
            }
        };
        let max = take(
            "max_reminders",
            number(
                &self.max_reminders,
                1,
                u16::from(MAX_REMINDERS),
                Msg::ErrReminderCount,
            ),
        );
        let review = take(
            "review_days",
            number(&self.review_days, 1, 90, Msg::ErrReviewDays),
        );
        let months = take(
            "reassess_months",
            number(&self.reassess_months, 1, 60, Msg::ErrReassessMonths),
        );
        let notice = take(
            "expiry_notice_days",
            number(&self.expiry_notice_days, 1, 90, Msg::ErrExpiryNoticeDays),
        );
        match (max, review, months, notice) {
            (Some(max), Some(review), Some(months), Some(notice)) if errors.is_empty() => {
                Ok(Policy {
                    reminders: matches!(self.reminders.as_str(), "on" | "true" | "1"),
                    max_reminders: max as u8,
                    review_days: review,
                    reassess_months: months,
                    expiry_notice_days: notice,
                })
            }
            _ => Err(errors),
        }
    }
}

/// A follow-up moved by hand: a new date (today or later) and why.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SnoozeForm {
    pub due_on: String,
    #[serde(default)]
    pub note: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnoozeDraft {
    pub due_on: NaiveDate,
    pub note: Option<String>,
}

impl SnoozeForm {
    pub fn parse(&self, today: NaiveDate) -> Result<SnoozeDraft, FieldErrors> {
        let mut errors = FieldErrors::new();
        let due_on = match NaiveDate::parse_from_str(self.due_on.trim(), "%Y-%m-%d") {
            Ok(d) if d < today => {
                errors.push(("due_on", Msg::ErrDateInPast));
                None
            }
            Ok(d) if d > today + Duration::days(3 * 366) => {
                errors.push(("due_on", Msg::ErrDateTooFar));
                None
            }
            Ok(d) => Some(d),
            Err(_) => {
                errors.push(("due_on", Msg::ErrDateInvalid));
                None
            }
        };
        let note = match long_text(&self.note) {
            Ok(n) => n,
            Err(m) => {
                errors.push(("note", m));
                None
            }
        };
        match due_on {
            Some(due_on) if errors.is_empty() => Ok(SnoozeDraft { due_on, note }),
            _ => Err(errors),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    #[test]
    fn reminders_three_days_before_on_the_day_then_weekly_after_a_week() {
        let deadline = d(2026, 12, 14);
        let days: Vec<NaiveDate> = (0..6).map(|n| reminder_day(deadline, n)).collect();
        assert_eq!(
            days,
            vec![
                d(2026, 12, 11),
                d(2026, 12, 14),
                d(2026, 12, 21),
                d(2026, 12, 28),
                d(2027, 1, 4),
                d(2027, 1, 11)
            ]
        );
    }

    #[test]
    fn sections_follow_the_organisations_week() {
        let today = d(2026, 12, 1); // Tuesday
        assert_eq!(Section::of(d(2026, 11, 30), today), Section::Overdue);
        assert_eq!(Section::of(today, today), Section::ThisWeek);
        assert_eq!(Section::of(d(2026, 12, 6), today), Section::ThisWeek);
        assert_eq!(Section::of(d(2026, 12, 7), today), Section::Later);
    }

    #[test]
    fn review_and_reassessment_dates() {
        let p = Policy::default();
        assert_eq!(review_due(d(2026, 12, 1), &p), d(2026, 12, 8));
        assert_eq!(reassessment_due(d(2026, 12, 1), &p), d(2027, 12, 1));
        assert_eq!(reassessment_due(d(2028, 2, 29), &p), d(2029, 2, 28));
    }

    #[test]
    fn policy_form_refuses_what_makes_no_sense() {
        let ok = PolicyForm {
            reminders: "on".into(),
            max_reminders: "4".into(),
            review_days: "7".into(),
            reassess_months: "12".into(),
            expiry_notice_days: "14".into(),
        };
        assert_eq!(ok.parse(), Ok(Policy::default()));
        for (count, field) in [
            ("0", "max_reminders"),
            ("1000", "max_reminders"),
            ("x", "max_reminders"),
        ] {
            let f = PolicyForm {
                max_reminders: count.into(),
                ..ok.clone()
            };
            assert_eq!(f.parse().unwrap_err()[0].0, field, "{count}");
        }
        let f = PolicyForm {
            review_days: "0".into(),
            reassess_months: "-1".into(),
            ..ok.clone()
        };
        let errors = f.parse().unwrap_err();
        assert_eq!(errors.len(), 2, "{errors:?}");
        let off = PolicyForm {
            reminders: String::new(),
            ..ok
        };
        assert!(!off.parse().unwrap().reminders);
    }

    #[test]
    fn a_snooze_needs_a_real_date_from_today_on() {
        let today = d(2026, 12, 1);
        let f = |due: &str| SnoozeForm {
            due_on: due.into(),
            note: "Vendor on holiday".into(),
        };
        assert_eq!(
            f("2026-12-10").parse(today),
            Ok(SnoozeDraft {
                due_on: d(2026, 12, 10),
                note: Some("Vendor on holiday".into())
            })
        );
        assert!(f("2026-12-01").parse(today).is_ok());
        assert_eq!(
            f("2026-11-30").parse(today).unwrap_err()[0],
            ("due_on", Msg::ErrDateInPast)
        );
        assert_eq!(
            f("2026-02-30").parse(today).unwrap_err()[0],
            ("due_on", Msg::ErrDateInvalid)
        );
        assert_eq!(
            f("2035-01-01").parse(today).unwrap_err()[0],
            ("due_on", Msg::ErrDateTooFar)
        );
    }
}
