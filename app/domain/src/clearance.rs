//! Data clearance: which data classes may go into which AI service.
//!
//! The organisation's policy marks the data classes that need clearance
//! ("protected"): such a class may go into a service only with a current
//! decision that allows it, resting on a cleared assessment of the service.
//! [`verdict`] is the one rule that says where a class stands in a service
//! today; the store's conflict count mirrors it in SQL and is tested to
//! agree with it.

use crate::i18n::Msg;
use crate::inventory::{choice, long_text, optional_date, FieldErrors, Fields, FindingTopic};
use crate::questions::Assessment;
use crate::RequestId;
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

choice!(
    /// What a member decided for one data class in one service.
    Clearance {
        Allowed = "allowed" => ClearanceAllowed,
        Conditional = "conditional" => ClearanceConditional,
        NotAllowed = "not_allowed" => ClearanceNotAllowed,
    }
);

choice!(
    /// Where a data class stands in a service today, all rules applied.
    Standing {
        Allowed = "allowed" => StandingAllowed,
        Conditional = "conditional" => StandingConditional,
        NotAllowed = "not_allowed" => StandingNotAllowed,
        NotDecided = "not_decided" => StandingNotDecided,
    }
);

/// Why a class stands where it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ground {
    /// As decided, and the decision is current.
    Decided,
    /// The policy does not protect the class and nobody decided otherwise.
    NoClearanceNeeded,
    /// Protected, and nobody has decided yet.
    Undecided,
    /// The decision's last day has passed.
    Expired,
    /// An incident affecting the service came after the decision.
    Suspended,
    /// The assessment of the service is "not cleared".
    AssessmentNotCleared,
    /// The assessment of the service has not been decided yet.
    AssessmentPending,
}

impl Ground {
    /// The sentence that explains the standing to the reader.
    pub fn msg(self) -> Msg {
        match self {
            Ground::Decided => Msg::GroundDecided,
            Ground::NoClearanceNeeded => Msg::GroundNoClearanceNeeded,
            Ground::Undecided => Msg::GroundUndecided,
            Ground::Expired => Msg::GroundExpired,
            Ground::Suspended => Msg::GroundSuspended,
            Ground::AssessmentNotCleared => Msg::GroundAssessmentNotCleared,
            Ground::AssessmentPending => Msg::GroundAssessmentPending,
        }
    }
}

/// A decision as the rule needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub clearance: Clearance,
    /// The last day on which the decision holds.
    pub expires_on: Option<NaiveDate>,
    pub decided_at: DateTime<Utc>,
}

/// Everything the standing of one class in one service depends on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case<'a> {
    /// The policy requires clearance for the class.
    pub protected: bool,
    /// The service's assessment.
    pub assessment: Assessment,
    pub decision: Option<&'a Decision>,
    /// When the latest open incident affecting the service was linked.
    pub suspended_since: Option<DateTime<Utc>>,
    /// Today in the organisation's time zone.
    pub today: NaiveDate,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Verdict {
    pub standing: Standing,
    pub ground: Ground,
}

impl Verdict {
    fn new(standing: Standing, ground: Ground) -> Verdict {
        Verdict { standing, ground }
    }

    /// Data of the class may go in (perhaps under the decision's condition).
    pub fn may_go_in(self) -> bool {
        matches!(self.standing, Standing::Allowed | Standing::Conditional)
    }

    /// A service that receives the class although it may not.
    pub fn conflict(self, receives: bool) -> bool {
        receives && !self.may_go_in()
    }
}

/// Whether an assessment is a clearance of the service.
pub fn is_cleared(a: Assessment) -> bool {
    matches!(a, Assessment::Cleared | Assessment::Conditional)
}

/// Where one data class stands in one service today.
///
/// An expired decision counts as "not allowed" from the day after its last
/// day. For a protected class, "allowed" needs a current decision made
/// after any incident affecting the service, on a cleared assessment.
pub fn verdict(c: &Case) -> Verdict {
    let Some(d) = c.decision else {
        return if c.protected {
            Verdict::new(Standing::NotDecided, Ground::Undecided)
        } else {
            Verdict::new(Standing::Allowed, Ground::NoClearanceNeeded)
        };
    };
    if d.expires_on.is_some_and(|last| c.today > last) {
        return Verdict::new(Standing::NotAllowed, Ground::Expired);
    }
    if d.clearance == Clearance::NotAllowed {
        return Verdict::new(Standing::NotAllowed, Ground::Decided);
    }
    if c.protected {
        if c.suspended_since.is_some_and(|s| s >= d.decided_at) {
            return Verdict::new(Standing::NotAllowed, Ground::Suspended);
        }
        if c.assessment == Assessment::NotCleared {
            return Verdict::new(Standing::NotAllowed, Ground::AssessmentNotCleared);
        }
        if !is_cleared(c.assessment) {
            return Verdict::new(Standing::NotAllowed, Ground::AssessmentPending);
        }
    }
    let standing = match d.clearance {
        Clearance::Allowed => Standing::Allowed,
        Clearance::Conditional => Standing::Conditional,
        Clearance::NotAllowed => Standing::NotAllowed,
    };
    Verdict::new(standing, Ground::Decided)
}

/// What a decision rests on: a finding of the service (by topic) or a
/// reviewed answer (by request and position).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Cite {
    Finding(FindingTopic),
    Answer { request: RequestId, position: i32 },
}

impl fmt::Display for Cite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cite::Finding(t) => write!(f, "finding:{}", t.as_str()),
            Cite::Answer { request, position } => write!(f, "answer:{}:{position}", request.0),
        }
    }
}

impl FromStr for Cite {
    type Err = Msg;
    fn from_str(s: &str) -> Result<Cite, Msg> {
        let bad = Msg::ErrChoiceInvalid;
        match s.trim().split(':').collect::<Vec<_>>()[..] {
            ["finding", topic] => Ok(Cite::Finding(topic.parse()?)),
            ["answer", request, position] => Ok(Cite::Answer {
                request: request.parse().map_err(|_| bad)?,
                position: position
                    .parse()
                    .ok()
                    .filter(|p| (0..100).contains(p))
                    .ok_or(bad)?,
            }),
            _ => Err(bad),
        }
    }
}

/// The cited evidence as the store keeps it: a JSON list of codes.
pub fn evidence_to_json(cites: &[Cite]) -> String {
    serde_json::to_string(&cites.iter().map(Cite::to_string).collect::<Vec<_>>())
        .unwrap_or_else(|_| "[]".into())
}

/// Reads stored evidence; codes this version cannot read are left out.
pub fn evidence_from_json(s: &str) -> Vec<Cite> {
    serde_json::from_str::<Vec<String>>(s)
        .unwrap_or_default()
        .iter()
        .filter_map(|c| c.parse().ok())
        .collect()
}

/// The raw form deciding one class in one service.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ClearanceForm {
    pub clearance: String,
    pub condition: String,
    pub expires_on: String,
    pub evidence: Vec<String>,
}

/// A decision as it will be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClearanceDraft {
    pub clearance: Clearance,
    pub condition: Option<String>,
    pub expires_on: Option<NaiveDate>,
    pub evidence: Vec<Cite>,
}

impl ClearanceForm {
    /// Checks the form against `today` (the organisation's): a condition is
    /// required for "allowed with conditions" (and dropped otherwise), a last
    /// day cannot be in the past.
    pub fn parse(&self, today: NaiveDate) -> Result<ClearanceDraft, FieldErrors> {
        let mut f = Fields(Vec::new());
        let clearance = f.take(
            "clearance",
            if self.clearance.trim().is_empty() {
                Err(Msg::ErrChooseClearance)
            } else {
                self.clearance.parse::<Clearance>()
            },
        );
        let condition = f.take("condition", long_text(&self.condition)).flatten();
        if clearance == Some(Clearance::Conditional) && condition.is_none() {
            f.0.push(("condition", Msg::ErrConditionRequired));
        }
        let expires_on = f
            .take("expires_on", optional_date(&self.expires_on))
            .flatten();
        if expires_on.is_some_and(|d| d < today) {
            f.0.push(("expires_on", Msg::ErrExpiryPast));
        }
        let mut evidence = Vec::new();
        for raw in self.evidence.iter().filter(|e| !e.trim().is_empty()) {
            if let Some(c) = f.take("evidence", raw.parse::<Cite>()) {
                if !evidence.contains(&c) {
                    evidence.push(c);
                }
            }
        }
        evidence.sort();
        match clearance {
            Some(clearance) if f.0.is_empty() => Ok(ClearanceDraft {
                clearance,
                condition: condition.filter(|_| clearance == Clearance::Conditional),
                expires_on,
                evidence,
            }),
            _ => Err(f.0),
        }
    }
}

/// Whether a new organisation's default class needs clearance: personal
/// data, special categories and confidential do; public and internal don't.
pub fn default_needs_clearance(position: usize, personal: bool) -> bool {
    personal || position == 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{Duration, TimeZone};
    use proptest::prelude::*;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 12, 1).unwrap()
    }

    fn decided_at() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 20, 10, 0, 0).unwrap()
    }

    fn decision(clearance: Clearance, expires_on: Option<NaiveDate>) -> Decision {
        Decision {
            clearance,
            expires_on,
            decided_at: decided_at(),
        }
    }

    fn case(protected: bool, assessment: Assessment, decision: Option<&Decision>) -> Case<'_> {
        Case {
            protected,
            assessment,
            decision,
            suspended_since: None,
            today: today(),
        }
    }

    use Ground as G;
    use Standing as S;

    #[test]
    fn without_a_decision_only_unprotected_classes_may_go_in() {
        for a in Assessment::ALL {
            assert_eq!(
                verdict(&case(true, *a, None)),
                Verdict::new(S::NotDecided, G::Undecided)
            );
            assert_eq!(
                verdict(&case(false, *a, None)),
                Verdict::new(S::Allowed, G::NoClearanceNeeded)
            );
        }
    }

    /// Every decision × assessment × protection, with a current decision.
    #[test]
    fn the_table_of_decisions_and_assessments() {
        use Assessment as A;
        use Clearance as C;
        let table: &[(bool, A, C, Verdict)] = &[
            (
                true,
                A::Cleared,
                C::Allowed,
                Verdict::new(S::Allowed, G::Decided),
            ),
            (
                true,
                A::Conditional,
                C::Allowed,
                Verdict::new(S::Allowed, G::Decided),
            ),
            (
                true,
                A::Cleared,
                C::Conditional,
                Verdict::new(S::Conditional, G::Decided),
            ),
            (
                true,
                A::Cleared,
                C::NotAllowed,
                Verdict::new(S::NotAllowed, G::Decided),
            ),
            (
                true,
                A::NotCleared,
                C::Allowed,
                Verdict::new(S::NotAllowed, G::AssessmentNotCleared),
            ),
            (
                true,
                A::NotCleared,
                C::Conditional,
                Verdict::new(S::NotAllowed, G::AssessmentNotCleared),
            ),
            (
                true,
                A::NotCleared,
                C::NotAllowed,
                Verdict::new(S::NotAllowed, G::Decided),
            ),
            (
                true,
                A::NotAsked,
                C::Allowed,
                Verdict::new(S::NotAllowed, G::AssessmentPending),
            ),
            (
                true,
                A::Asked,
                C::Conditional,
                Verdict::new(S::NotAllowed, G::AssessmentPending),
            ),
            (
                true,
                A::Answered,
                C::Allowed,
                Verdict::new(S::NotAllowed, G::AssessmentPending),
            ),
            (
                false,
                A::NotAsked,
                C::Allowed,
                Verdict::new(S::Allowed, G::Decided),
            ),
            (
                false,
                A::NotCleared,
                C::Conditional,
                Verdict::new(S::Conditional, G::Decided),
            ),
            (
                false,
                A::Cleared,
                C::NotAllowed,
                Verdict::new(S::NotAllowed, G::Decided),
            ),
        ];
        for (protected, a, c, want) in table {
            let d = decision(*c, None);
            assert_eq!(
                verdict(&case(*protected, *a, Some(&d))),
                *want,
                "{protected} {a:?} {c:?}"
            );
        }
    }

    #[test]
    fn a_decision_holds_through_its_last_day_and_not_after() {
        for protected in [true, false] {
            let on_the_day = decision(Clearance::Allowed, Some(today()));
            assert_eq!(
                verdict(&case(protected, Assessment::Cleared, Some(&on_the_day))).standing,
                S::Allowed
            );
            let yesterday = decision(Clearance::Allowed, Some(today() - Duration::days(1)));
            assert_eq!(
                verdict(&case(protected, Assessment::Cleared, Some(&yesterday))),
                Verdict::new(S::NotAllowed, G::Expired)
            );
        }
    }

    #[test]
    fn an_incident_after_the_decision_suspends_protected_classes_until_decided_again() {
        let d = decision(Clearance::Allowed, None);
        let mut c = case(true, Assessment::Cleared, Some(&d));
        c.suspended_since = Some(decided_at() + Duration::hours(1));
        assert_eq!(verdict(&c), Verdict::new(S::NotAllowed, G::Suspended));
        // Decided again after the incident: holds.
        c.suspended_since = Some(decided_at() - Duration::hours(1));
        assert_eq!(verdict(&c).standing, S::Allowed);
        // Unprotected classes are not suspended.
        c.protected = false;
        c.suspended_since = Some(decided_at() + Duration::hours(1));
        assert_eq!(verdict(&c).standing, S::Allowed);
    }

    #[test]
    fn a_conflict_is_a_received_class_that_may_not_go_in() {
        let undecided = verdict(&case(true, Assessment::Cleared, None));
        assert!(undecided.conflict(true));
        assert!(!undecided.conflict(false));
        assert!(!verdict(&case(false, Assessment::NotAsked, None)).conflict(true));
    }

    fn assessment() -> impl Strategy<Value = Assessment> {
        prop::sample::select(Assessment::ALL.to_vec())
    }
    fn clearance() -> impl Strategy<Value = Clearance> {
        prop::sample::select(Clearance::ALL.to_vec())
    }

    proptest! {
        /// No input ever lets a protected class in without a current,
        /// unsuspended decision on a cleared assessment.
        #[test]
        fn protected_classes_never_go_in_without_a_current_decision(
            a in assessment(),
            c in clearance(),
            has_decision in any::<bool>(),
            expiry in prop::option::of(-400i64..400),
            suspended in prop::option::of(-400i64..400),
            protected in any::<bool>(),
        ) {
            let d = decision(c, expiry.map(|e| today() + Duration::days(e)));
            let case = Case {
                protected,
                assessment: a,
                decision: has_decision.then_some(&d),
                suspended_since: suspended.map(|s| decided_at() + Duration::hours(s)),
                today: today(),
            };
            let v = verdict(&case);
            if protected && v.may_go_in() {
                prop_assert!(has_decision);
                prop_assert!(d.clearance != Clearance::NotAllowed);
                prop_assert!(d.expires_on.is_none_or(|e| e >= today()));
                prop_assert!(case.suspended_since.is_none_or(|s| s < d.decided_at));
                prop_assert!(is_cleared(a));
            }
            // "Conditional" only ever comes from a conditional decision.
            if v.standing == Standing::Conditional {
                prop_assert!(has_decision && d.clearance == Clearance::Conditional);
            }
            // An expired decision never lets anything in.
            if has_decision && d.expires_on.is_some_and(|e| e < today()) {
                prop_assert!(!v.may_go_in());
            }
        }
    }

    #[test]
    fn the_form_refuses_what_cannot_be_decided() {
        let e = ClearanceForm::default().parse(today()).unwrap_err();
        assert_eq!(e, vec![("clearance", Msg::ErrChooseClearance)]);
        let e = ClearanceForm {
            clearance: "conditional".into(),
            condition: "  ".into(),
            expires_on: "2026-11-30".into(),
            evidence: vec!["finding:nope".into()],
        }
        .parse(today())
        .unwrap_err();
        assert_eq!(
            e,
            vec![
                ("condition", Msg::ErrConditionRequired),
                ("expires_on", Msg::ErrExpiryPast),
                ("evidence", Msg::ErrChoiceInvalid),
            ]
        );
        let request = RequestId(uuid::Uuid::from_u128(7));
        let d = ClearanceForm {
            clearance: "allowed".into(),
            condition: "dropped, not conditional".into(),
            expires_on: "2026-12-01".into(),
            evidence: vec![
                format!("answer:{}:2", request.0),
                "finding:separation".into(),
                "finding:separation".into(),
            ],
        }
        .parse(today())
        .unwrap();
        assert_eq!(d.condition, None);
        assert_eq!(d.expires_on, Some(today()));
        assert_eq!(
            d.evidence,
            vec![
                Cite::Finding(FindingTopic::Separation),
                Cite::Answer {
                    request,
                    position: 2
                }
            ]
        );
        assert_eq!(
            evidence_from_json(&evidence_to_json(&d.evidence)),
            d.evidence
        );
        assert_eq!(
            evidence_from_json("[\"later:kind\",\"finding:retention\"]"),
            vec![Cite::Finding(FindingTopic::Retention)]
        );
    }

    #[test]
    fn default_policy_protects_personal_special_and_confidential() {
        let protected: Vec<bool> = crate::inventory::default_data_classes(crate::Lang::En)
            .iter()
            .enumerate()
            .map(|(i, (_, personal))| default_needs_clearance(i, *personal))
            .collect();
        assert_eq!(protected, vec![false, false, true, true, true]);
    }
}
