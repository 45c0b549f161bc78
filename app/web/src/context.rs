//! What every page knows about its request: the language, who is signed
//! in and in which organisation. Computed by the server before rendering
//! (`ssr::RequestCtx::page_ctx`) and provided to every component by
//! [`crate::App`]; read with [`page_ctx`].

use aivet_domain::{Fmt, Lang, OrgId, Role, Zone};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// What every page needs to know about the request; computed on the server
/// before rendering.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PageCtx {
    pub lang: Lang,
    /// The organisation's time zone (for signed-out pages, the one the
    /// language suggests): every date on the page is shown in it.
    pub zone: Zone,
    pub user: Option<UserView>,
    pub org: Option<OrgView>,
    /// The user's organisations for the header's switcher; empty when there
    /// are more than [`ORG_SWITCH_MAX`] (the header links to a search then).
    pub orgs: Vec<OrgView>,
    /// More organisations than [`ORG_SWITCH_MAX`]: `orgs` is empty.
    pub org_many: bool,
}

#[cfg(feature = "ssr")]
impl From<aivet_store::OrgMembership> for OrgView {
    fn from(o: aivet_store::OrgMembership) -> OrgView {
        OrgView {
            id: o.org_id,
            name: o.name,
            slug: o.slug,
            role: o.role,
        }
    }
}

/// Up to this many organisations the header lists them all.
pub const ORG_SWITCH_MAX: i64 = 25;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UserView {
    pub name: String,
    pub email: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OrgView {
    pub id: OrgId,
    pub name: String,
    pub slug: String,
    pub role: Role,
}

impl PageCtx {
    /// How this page writes dates and times.
    pub fn fmt(&self) -> Fmt {
        Fmt::new(self.lang, self.zone)
    }
}

/// The page context; its absence is a server bug.
pub fn page_ctx() -> PageCtx {
    use_context::<PageCtx>().expect("PageCtx is provided by App")
}
