//! Data clearance as members work with it: the matrix of one service (one
//! decision per data class, with the standing the domain's rule gives it
//! today), deciding a class, the policy in Settings, and the page every
//! member reads ("which data may I put into which AI tool?").

use crate::inventory::{require_editor, require_owner};
use crate::{Auth, ServiceError, Services};
use aivet_domain::clearance::{
    evidence_from_json, verdict, Case, Cite, ClearanceForm, Decision, Standing, Verdict,
};
use aivet_domain::{DataClassId, Msg, ServiceId};
use aivet_store::clearance::{
    CitableAnswer, CitableFinding, ClearancePolicy, ClearanceRow, ClearanceService, PolicyClass,
    ServiceClearance,
};
use aivet_store::{AuditEvent, StoreError};
use chrono::NaiveDate;

type Result<T> = std::result::Result<T, ServiceError>;

/// One data class in one service, as the matrix shows it.
#[derive(Clone, Debug)]
pub struct ClassStanding {
    pub class: PolicyClass,
    pub receives: bool,
    pub decision: Option<ClearanceRow>,
    pub evidence: Vec<Cite>,
    pub verdict: Verdict,
}

impl ClassStanding {
    pub fn conflict(&self) -> bool {
        self.verdict.conflict(self.receives)
    }
}

/// A service's clearance matrix.
#[derive(Clone, Debug)]
pub struct Matrix {
    pub service: ClearanceService,
    pub today: NaiveDate,
    pub rows: Vec<ClassStanding>,
    pub findings: Vec<CitableFinding>,
    pub answers: Vec<CitableAnswer>,
}

impl Matrix {
    /// The classes the service receives although they may not go in.
    pub fn conflicts(&self) -> impl Iterator<Item = &ClassStanding> {
        // Retired services receive nothing any more.
        let active = self.service.status != aivet_domain::inventory::ServiceStatus::Retired
            && self.service.archived_at.is_none();
        self.rows.iter().filter(move |r| active && r.conflict())
    }
}

/// One service on the page for every member.
#[derive(Clone, Debug)]
pub struct ServiceGuide {
    pub service: ClearanceService,
    /// Per standing, the classes (with the condition for "conditional").
    pub allowed: Vec<String>,
    pub conditional: Vec<(String, String)>,
    pub not_allowed: Vec<String>,
}

/// The standing of one class of a service on `today`.
fn standing_of(
    class: &PolicyClass,
    service: &ClearanceService,
    decision: Option<&ClearanceRow>,
    today: NaiveDate,
) -> Verdict {
    let d = decision.map(|d| Decision {
        clearance: d.clearance,
        expires_on: d.expires_on,
        decided_at: d.decided_at,
    });
    verdict(&Case {
        protected: class.needs_clearance,
        assessment: service.assessment,
        decision: d.as_ref(),
        suspended_since: service.suspended_since,
        today,
    })
}

/// The matrix of one service on `today`: each class's standing by the
/// domain's rule.
pub(crate) fn matrix_of(m: ServiceClearance, today: NaiveDate) -> Matrix {
    let rows = m
        .classes
        .into_iter()
        .map(|class| {
            let decision = m
                .decisions
                .iter()
                .find(|d| d.data_class_id == class.id)
                .cloned();
            let verdict = standing_of(&class, &m.service, decision.as_ref(), today);
            ClassStanding {
                receives: m.receives.contains(&class.id),
                evidence: decision
                    .as_ref()
                    .map(|d| evidence_from_json(&d.evidence))
                    .unwrap_or_default(),
                class,
                decision,
                verdict,
            }
        })
        .collect();
    Matrix {
        service: m.service,
        today,
        rows,
        findings: m.findings,
        answers: m.answers,
    }
}

impl Services {
    pub async fn clearance_matrix(&self, auth: &Auth, service: ServiceId) -> Result<Matrix> {
        let t = auth.tenant()?;
        let m = self.store.service_clearance(t, service).await?;
        Ok(matrix_of(m, self.today(t)))
    }

    pub async fn decide_clearance(
        &self,
        auth: &Auth,
        service: ServiceId,
        class: DataClassId,
        form: &ClearanceForm,
    ) -> Result<()> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let draft = form.parse(self.today(t)).map_err(ServiceError::Invalid)?;
        let event = AuditEvent::ClearanceDecided {
            service,
            data_class: class,
            // The store fills in the class's name.
            class: String::new(),
            clearance: draft.clearance,
        };
        self.store
            .decide_clearance(t, service, class, &draft, event, self.clock.now())
            .await
            .map_err(|e| match e {
                StoreError::Closed => {
                    ServiceError::Invalid(vec![("clearance", Msg::ErrServiceArchived)])
                }
                StoreError::UnknownRefs(_) => {
                    ServiceError::Invalid(vec![("evidence", Msg::ErrChoiceInvalid)])
                }
                other => other.into(),
            })
    }

    /// The page for every member: per service in use or on trial, what
    /// may go in today.
    pub async fn clearance_guide(&self, auth: &Auth) -> Result<(NaiveDate, Vec<ServiceGuide>)> {
        let t = auth.tenant()?;
        let today = self.today(t);
        let o = self.store.clearance_overview(t).await?;
        let classes: Vec<&PolicyClass> = o
            .classes
            .iter()
            .filter(|c| c.archived_at.is_none())
            .collect();
        let decisions: std::collections::HashMap<(ServiceId, DataClassId), &ClearanceRow> = o
            .decisions
            .iter()
            .map(|d| ((d.service_id, d.data_class_id), d))
            .collect();
        let guides = o
            .services
            .into_iter()
            .map(|service| {
                let mut g = ServiceGuide {
                    service,
                    allowed: Vec::new(),
                    conditional: Vec::new(),
                    not_allowed: Vec::new(),
                };
                for class in &classes {
                    let decision = decisions.get(&(g.service.id, class.id)).copied();
                    match standing_of(class, &g.service, decision, today).standing {
                        Standing::Allowed => g.allowed.push(class.name.clone()),
                        Standing::Conditional => g.conditional.push((
                            class.name.clone(),
                            decision
                                .and_then(|d| d.condition.clone())
                                .unwrap_or_default(),
                        )),
                        Standing::NotAllowed | Standing::NotDecided => {
                            g.not_allowed.push(class.name.clone())
                        }
                    }
                }
                g
            })
            .collect();
        Ok((today, guides))
    }

    pub async fn clearance_policy(&self, auth: &Auth) -> Result<ClearancePolicy> {
        let t = auth.tenant()?;
        Ok(self.store.clearance_policy(t).await?)
    }

    /// An owner confirms which classes need clearance (step 4 of the guide).
    pub async fn review_clearance_policy(&self, auth: &Auth) -> Result<()> {
        let t = auth.tenant()?;
        require_owner(t)?;
        Ok(self
            .store
            .review_clearance_policy(t, AuditEvent::PolicyReviewed, self.clock.now())
            .await?)
    }
}
