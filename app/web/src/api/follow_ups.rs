//! Server functions of follow-ups: the board with its filters, moving a
//! follow-up to another date, marking it done, and the organisation's
//! follow-up policy.

use crate::error::AppError;
use aivet_domain::follow_ups::{Digest, FollowUpReason, Policy, PolicyForm, Section, SnoozeForm};
use aivet_domain::{FollowUpId, MembershipId, RequestId, ServiceId, VendorId};
use chrono::NaiveDate;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use super::parse_id;
use super::Named;
#[cfg(feature = "ssr")]
use crate::ssr::{auth, ctx, done, service_error};

/// One follow-up on the board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FollowUpView {
    pub id: FollowUpId,
    pub service: Named<ServiceId>,
    pub vendor: Named<VendorId>,
    pub owner: Option<String>,
    pub request: Option<RequestId>,
    pub recipient: Option<String>,
    pub reason: FollowUpReason,
    pub due_on: NaiveDate,
    pub note: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FollowUpBoardView {
    pub today: NaiveDate,
    pub sections: Vec<(Section, Vec<FollowUpView>)>,
    /// All the filter finds; the sections show the earliest of them.
    pub total: u64,
    pub vendors: Vec<Named<VendorId>>,
    pub members: Vec<Named<MembershipId>>,
    pub can_edit: bool,
    /// The member's own digest choice and calendar feed link.
    pub digest: Digest,
    pub calendar_link: Option<String>,
}

/// The board's filters, from the page's address.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FollowUpFilter {
    #[serde(default)]
    pub owner: String,
    #[serde(default)]
    pub vendor: String,
    #[serde(default)]
    pub reason: String,
}

#[cfg(feature = "ssr")]
fn opt<T: std::str::FromStr>(s: &str) -> Option<T> {
    let s = s.trim();
    (!s.is_empty()).then(|| s.parse().ok()).flatten()
}

#[server(endpoint = "follow_ups_data")]
pub async fn follow_ups_data(
    #[server(default)] filter: FollowUpFilter,
) -> Result<FollowUpBoardView, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let q = aivet_store::follow_ups::FollowUpQuery {
        owner: opt(&filter.owner),
        vendor: opt(&filter.vendor),
        reason: opt(&filter.reason),
        limit: None,
    };
    let board = c
        .services
        .follow_up_board(a, &q)
        .await
        .map_err(service_error)?;
    Ok(FollowUpBoardView {
        digest: board.digest,
        calendar_link: board.calendar_link,
        today: board.today,
        total: board.total,
        sections: board
            .sections
            .into_iter()
            .map(|(section, rows)| {
                let rows = rows
                    .into_iter()
                    .map(|r| FollowUpView {
                        id: r.id,
                        service: Named {
                            id: r.service_id,
                            name: r.service_name,
                        },
                        vendor: Named {
                            id: r.vendor_id,
                            name: r.vendor_name,
                        },
                        owner: r.owner_name,
                        request: r.request_id,
                        recipient: r.recipient_email,
                        reason: r.reason,
                        due_on: r.due_on,
                        note: r.note,
                    })
                    .collect();
                (section, rows)
            })
            .collect(),
        vendors: board
            .vendors
            .into_iter()
            .map(|v| Named {
                id: v.id,
                name: v.name,
            })
            .collect(),
        members: board
            .members
            .into_iter()
            .map(|m| Named {
                id: m.id,
                name: m.name,
            })
            .collect(),
        can_edit: a.tenant.as_ref().is_some_and(|t| t.role().can_edit()),
    })
}

#[server(endpoint = "move_follow_up")]
pub async fn move_follow_up(follow_up_id: String, form: SnoozeForm) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: FollowUpId = parse_id(&follow_up_id)?;
    c.services
        .move_follow_up(a, id, &form)
        .await
        .map_err(service_error)?;
    c.back()
}

#[server(endpoint = "finish_follow_up")]
pub async fn finish_follow_up(follow_up_id: String) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: FollowUpId = parse_id(&follow_up_id)?;
    c.services
        .finish_follow_up(a, id)
        .await
        .map_err(service_error)?;
    c.back()
}

#[server(endpoint = "follow_up_policy_data")]
pub async fn follow_up_policy_data() -> Result<Policy, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    c.services.follow_up_policy(a).await.map_err(service_error)
}

#[server(endpoint = "save_follow_up_policy")]
pub async fn save_follow_up_policy(form: PolicyForm) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    c.services
        .set_follow_up_policy(a, &form)
        .await
        .map_err(service_error)?;
    done("/settings?saved=follow_ups#follow-ups-title")
}

#[server(endpoint = "set_digest")]
pub async fn set_digest(digest: String) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    c.services
        .set_digest(a, &digest)
        .await
        .map_err(service_error)?;
    done("/follow-ups?saved=digest#mine")
}

/// Makes a new calendar feed link (the old one stops working).
#[server(endpoint = "rotate_calendar")]
pub async fn rotate_calendar() -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    c.services.rotate_calendar(a).await.map_err(service_error)?;
    done("/follow-ups#mine")
}

#[server(endpoint = "stop_calendar")]
pub async fn stop_calendar() -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    c.services.stop_calendar(a).await.map_err(service_error)?;
    done("/follow-ups#mine")
}
