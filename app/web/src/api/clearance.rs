//! Server functions of data clearance: a service's matrix and deciding one
//! class, the page every member reads, and the policy in Settings.

use crate::error::AppError;
use aivet_domain::clearance::{Clearance, ClearanceForm, Standing};
use aivet_domain::{DataClassId, Msg, ServiceId};
use chrono::{DateTime, NaiveDate, Utc};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use super::parse_id;
#[cfg(feature = "ssr")]
use crate::ssr::{auth, ctx, done, service_error};

/// Something a decision rests on, as a link.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CiteView {
    /// The form's value (`finding:separation`, `answer:<request>:<n>`).
    pub code: String,
    pub label: String,
    pub href: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DecisionView {
    pub clearance: Clearance,
    pub condition: Option<String>,
    pub expires_on: Option<NaiveDate>,
    pub decided_by: String,
    pub decided_at: DateTime<Utc>,
    pub evidence: Vec<CiteView>,
}

/// One data class in the matrix.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClassRowView {
    pub id: DataClassId,
    pub name: String,
    pub receives: bool,
    pub protected: bool,
    pub standing: Standing,
    /// Why it stands there, in a sentence.
    pub ground: Msg,
    pub conflict: bool,
    pub decision: Option<DecisionView>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClearanceView {
    pub service_id: ServiceId,
    pub rows: Vec<ClassRowView>,
    /// What a decision can cite: findings and reviewed answers.
    pub citable: Vec<CiteView>,
    pub can_edit: bool,
    pub archived: bool,
}

impl ClearanceView {
    /// The names of the classes in conflict.
    pub fn conflicts(&self) -> Vec<String> {
        self.rows
            .iter()
            .filter(|r| r.conflict)
            .map(|r| r.name.clone())
            .collect()
    }
}

/// One service on the page for every member.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GuideRowView {
    pub id: ServiceId,
    pub name: String,
    pub purpose: Option<String>,
    pub trial: bool,
    pub allowed: Vec<String>,
    pub conditional: Vec<(String, String)>,
    pub not_allowed: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GuideView {
    pub today: NaiveDate,
    pub services: Vec<GuideRowView>,
}

/// The policy part of Settings: who checked it last, and when.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PolicyView {
    pub reviewed: Option<(DateTime<Utc>, String)>,
}

#[cfg(feature = "ssr")]
fn cite_view(
    service: ServiceId,
    cite: &aivet_domain::clearance::Cite,
    m: &aivet_services::clearance::Matrix,
    lang: aivet_domain::Lang,
) -> CiteView {
    use aivet_domain::clearance::Cite;
    use aivet_domain::msg;
    let (label, href) = match cite {
        Cite::Finding(topic) => (
            msg!(lang, Msg::CiteFinding, topic = topic.label().text(lang)),
            format!("/services/{service}#finding-{}", topic.as_str()),
        ),
        Cite::Answer { request, position } => {
            let review = m
                .answers
                .iter()
                .find(|a| a.request_id == *request && a.position == *position)
                .map(|a| a.review.label().text(lang))
                .unwrap_or("—");
            (
                msg!(lang, Msg::CiteAnswer, n = *position + 1, review = review),
                format!("/requests/{}#q{}", request.0, position + 1),
            )
        }
    };
    CiteView {
        code: cite.to_string(),
        label,
        href,
    }
}

#[server(endpoint = "clearance_data")]
pub async fn clearance_data(service_id: String) -> Result<ClearanceView, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: ServiceId = parse_id(&service_id)?;
    let m = c
        .services
        .clearance_matrix(a, id)
        .await
        .map_err(service_error)?;
    clearance_view(a, &m, c.lang)
}

/// The matrix of one service as its page shows it.
#[cfg(feature = "ssr")]
pub(crate) fn clearance_view(
    a: &aivet_services::Auth,
    m: &aivet_services::clearance::Matrix,
    lang: aivet_domain::Lang,
) -> Result<ClearanceView, AppError> {
    use aivet_domain::clearance::Cite;
    let id = m.service.id;
    let conflicts: Vec<DataClassId> = m.conflicts().map(|r| r.class.id).collect();
    let citable = m
        .findings
        .iter()
        .map(|f| Cite::Finding(f.topic))
        .chain(m.answers.iter().map(|a| Cite::Answer {
            request: a.request_id,
            position: a.position,
        }))
        .map(|cite| cite_view(id, &cite, m, lang))
        .collect();
    let rows = m
        .rows
        .iter()
        .map(|r| ClassRowView {
            id: r.class.id,
            name: r.class.name.clone(),
            receives: r.receives,
            protected: r.class.needs_clearance,
            standing: r.verdict.standing,
            ground: r.verdict.ground.msg(),
            conflict: conflicts.contains(&r.class.id),
            decision: r.decision.as_ref().map(|d| DecisionView {
                clearance: d.clearance,
                condition: d.condition.clone(),
                expires_on: d.expires_on,
                decided_by: d.decided_by.clone(),
                decided_at: d.decided_at,
                evidence: r
                    .evidence
                    .iter()
                    .map(|cite| cite_view(id, cite, m, lang))
                    .collect(),
            }),
        })
        .collect();
    Ok(ClearanceView {
        service_id: id,
        rows,
        citable,
        can_edit: a.tenant().map_err(service_error)?.role().can_edit(),
        archived: m.service.archived_at.is_some(),
    })
}

#[server(endpoint = "decide_clearance")]
pub async fn decide_clearance(
    service_id: String,
    data_class_id: String,
    decision: ClearanceForm,
) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: ServiceId = parse_id(&service_id)?;
    let class: DataClassId = parse_id(&data_class_id)?;
    c.services
        .decide_clearance(a, id, class, &decision)
        .await
        .map_err(service_error)?;
    done(&format!("/services/{id}#clearance"))
}

#[server(endpoint = "clearance_guide_data")]
pub async fn clearance_guide_data() -> Result<GuideView, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let (today, guides) = c.services.clearance_guide(a).await.map_err(service_error)?;
    Ok(GuideView {
        today,
        services: guides
            .into_iter()
            .map(|g| GuideRowView {
                id: g.service.id,
                name: g.service.name,
                purpose: g.service.purpose,
                trial: g.service.status == aivet_domain::inventory::ServiceStatus::Trial,
                allowed: g.allowed,
                conditional: g.conditional,
                not_allowed: g.not_allowed,
            })
            .collect(),
    })
}

#[server(endpoint = "clearance_policy_data")]
pub async fn clearance_policy_data() -> Result<PolicyView, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let p = c
        .services
        .clearance_policy(a)
        .await
        .map_err(service_error)?;
    Ok(PolicyView {
        reviewed: p.reviewed,
    })
}

#[server(endpoint = "review_clearance_policy")]
pub async fn review_clearance_policy() -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    c.services
        .review_clearance_policy(a)
        .await
        .map_err(service_error)?;
    done("/settings#data-classes")
}
