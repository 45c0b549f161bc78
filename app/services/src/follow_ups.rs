//! Follow-ups as a member works with them: the board (overdue, due this
//! week, later) in the organisation's days, moving one to another date
//! with a note, marking one done, and the organisation's follow-up policy.

use crate::inventory::require_editor;
use crate::{Auth, ServiceError, Services};
use aivet_domain::follow_ups::{Digest, Policy, PolicyForm, Section, SnoozeForm};
use aivet_domain::FollowUpId;
use aivet_store::follow_ups::{FollowUpQuery, FollowUpRow};
use aivet_store::inventory::VendorName;
use aivet_store::AuditEvent;
use aivet_store::Member;
use chrono::NaiveDate;

type Result<T> = std::result::Result<T, ServiceError>;

/// The board: the open follow-ups by section, as of `today`, with the
/// filters' choices and the member's own digest and calendar feed.
#[derive(Clone, Debug)]
pub struct Board {
    pub today: NaiveDate,
    pub sections: Vec<(Section, Vec<FollowUpRow>)>,
    /// Open follow-ups the filter finds; the sections show the
    /// [`BOARD_ROWS`] earliest of them.
    pub total: u64,
    pub vendors: Vec<VendorName>,
    pub members: Vec<Member>,
    pub digest: Digest,
    /// The member's calendar feed link, when their feed is on.
    pub calendar_link: Option<String>,
}

/// At most this many rows on the board, the earliest due first: overdue
/// items are never the ones left out.
pub const BOARD_ROWS: u32 = 50;

impl Services {
    pub async fn follow_up_board(&self, auth: &Auth, q: &FollowUpQuery) -> Result<Board> {
        let t = auth.tenant()?;
        let today = self.today(t);
        let q = FollowUpQuery {
            limit: Some(q.limit.unwrap_or(BOARD_ROWS).min(BOARD_ROWS)),
            ..q.clone()
        };
        let data = self.store.follow_up_board(t, &q).await?;
        let mut sections: Vec<(Section, Vec<FollowUpRow>)> =
            [Section::Overdue, Section::ThisWeek, Section::Later]
                .into_iter()
                .map(|s| (s, Vec::new()))
                .collect();
        for row in data.rows {
            let s = Section::of(row.due_on, today);
            if let Some((_, list)) = sections.iter_mut().find(|(x, _)| *x == s) {
                list.push(row);
            }
        }
        Ok(Board {
            today,
            sections,
            total: data.total,
            vendors: data.vendors,
            members: data.members,
            digest: data.mine.digest,
            calendar_link: self.calendar_link_of(t, &data.mine),
        })
    }

    /// Moves an open follow-up to a day from today on (editors and owners).
    pub async fn move_follow_up(
        &self,
        auth: &Auth,
        id: FollowUpId,
        form: &SnoozeForm,
    ) -> Result<()> {
        let t = auth.tenant()?;
        require_editor(t)?;
        // A foreign or unknown id is "not found" whatever the form says.
        self.store.follow_up(t, id).await?;
        let draft = form.parse(self.today(t)).map_err(ServiceError::Invalid)?;
        let event = AuditEvent::FollowUpMoved {
            follow_up: id,
            due_on: draft.due_on,
        };
        self.store
            .move_follow_up(
                t,
                id,
                draft.due_on,
                draft.note.as_deref(),
                event,
                self.clock.now(),
            )
            .await
            .map_err(closed)
    }

    /// Marks an open follow-up done (editors and owners).
    pub async fn finish_follow_up(&self, auth: &Auth, id: FollowUpId) -> Result<()> {
        let t = auth.tenant()?;
        require_editor(t)?;
        self.store
            .finish_follow_up(
                t,
                id,
                AuditEvent::FollowUpDone { follow_up: id },
                self.clock.now(),
            )
            .await
            .map_err(closed)
    }

    pub async fn follow_up_policy(&self, auth: &Auth) -> Result<Policy> {
        Ok(self.store.follow_up_policy(auth.tenant()?).await?)
    }

    /// Sets how the organisation follows up (owners only).
    pub async fn set_follow_up_policy(&self, auth: &Auth, form: &PolicyForm) -> Result<Policy> {
        let t = auth.tenant()?;
        if !t.role().can_manage_members() {
            return Err(ServiceError::Forbidden);
        }
        let policy = form.parse().map_err(ServiceError::Invalid)?;
        self.store
            .set_follow_up_policy(
                t,
                &policy,
                AuditEvent::FollowUpPolicyChanged { policy },
                self.clock.now(),
            )
            .await?;
        Ok(policy)
    }
}

fn closed(e: aivet_store::StoreError) -> ServiceError {
    match e {
        aivet_store::StoreError::Closed => {
            ServiceError::Refused(aivet_domain::Msg::ErrFollowUpClosed)
        }
        other => other.into(),
    }
}
