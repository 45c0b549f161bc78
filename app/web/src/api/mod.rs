//! Server functions and the data they exchange with the pages, one module
//! per area.
//!
//! Each one reads the request context (who is asking, in which organisation),
//! calls one service and maps its errors. State-changing ones answer with a
//! redirect, so that the browser shows the new state by loading the page again.
//! All of them are POSTs and pass the same-origin check of the server.

mod accounts;
mod advisories;
mod clearance;
mod follow_ups;
mod incidents;
mod inventory;
mod questions;
mod reports;
mod settings;
pub use accounts::*;
pub use advisories::*;
pub use clearance::*;
pub use follow_ups::*;
pub use incidents::*;
pub use inventory::*;
pub use questions::*;
pub use reports::*;
pub use settings::*;

#[cfg(feature = "ssr")]
use crate::error::AppError;

/// A list's search term (the field `q`); one that is too long or holds
/// control characters is refused with its message, on top and at the field.
#[cfg(feature = "ssr")]
pub(crate) fn search_text(q: &str) -> Result<Option<aivet_domain::SearchText>, AppError> {
    aivet_domain::SearchText::parse(q).map_err(|m| {
        crate::ssr::set_error_status(http::StatusCode::UNPROCESSABLE_ENTITY);
        let mut e = AppError::new(m);
        e.fields = vec![("q".to_owned(), m)];
        e
    })
}

/// An id from a form or address; one that does not parse is as unknown as
/// one that does not exist.
#[cfg(feature = "ssr")]
pub(crate) fn parse_id<T: std::str::FromStr>(s: &str) -> Result<T, AppError> {
    s.parse()
        .map_err(|_| crate::ssr::service_error(aivet_services::ServiceError::NotFound))
}

/// The argument check of the server function at `path` (see
/// `forms::refusal`), which names the field that does not decode. Every
/// server function is listed: the integration tests fail for one that is
/// not.
#[cfg(feature = "ssr")]
pub fn args_check(path: &str) -> Option<crate::forms::ArgsCheck> {
    use server_fn::ServerFn;
    macro_rules! checks {
        ($($f:ty),* $(,)?) => {
            $(if path == <$f as ServerFn>::PATH {
                return Some(crate::forms::args_check::<$f>);
            })*
        };
    }
    checks!(
        // accounts
        SignUp,
        SignIn,
        SignOut,
        SetLanguage,
        SwitchOrg,
        MyOrgList,
        CreateOrg,
        ChangePassword,
        InviteInfo,
        AcceptInvite,
        SignUpWithInvite,
        RequestPasswordReset,
        PasswordResetInfo,
        ResetPassword,
        // settings
        SettingsData,
        SendTestMail,
        RetryMail,
        CreateInvite,
        RevokeInvite,
        RemoveMember,
        SetMemberRole,
        SetTimeZone,
        RetryJob,
        // inventory
        DashboardData,
        VendorList,
        VendorDetail,
        SaveVendor,
        ArchiveVendor,
        DeleteVendor,
        AddContact,
        SetPrimaryContact,
        RemoveContact,
        ServiceList,
        ServiceDetail,
        ServicePage,
        ServiceFormData,
        SaveService,
        QuickEntryData,
        SaveQuickEntry,
        ArchiveService,
        DeleteService,
        SaveFinding,
        DataClassesData,
        SaveDataClass,
        DeleteDataClass,
        ImportPreview,
        ImportCommit,
        // questions
        QuestionsOverview,
        AskData,
        AskVendorData,
        PreviewQuestions,
        SendQuestions,
        RequestDetail,
        ReviewAnswer,
        DecideAssessment,
        RevokeRequest,
        ReopenRequest,
        AskAgain,
        EnterAnswers,
        QuestionSetData,
        SaveQuestionSet,
        RemindNow,
        SetRequestReminders,
        // follow-ups
        FollowUpsData,
        MoveFollowUp,
        FinishFollowUp,
        FollowUpPolicyData,
        SaveFollowUpPolicy,
        SetDigest,
        RotateCalendar,
        StopCalendar,
        // reports
        ReportsData,
        // clearance
        ClearanceData,
        DecideClearance,
        ClearanceGuideData,
        ClearancePolicyData,
        ReviewClearancePolicy,
        // incidents
        IncidentList,
        IncidentFormData,
        SaveIncident,
        IncidentDetail,
        DecideArt33,
        DecideArt34,
        AddIncidentNote,
        SetIncidentState,
        // advisories
        AdvisoriesData,
        ImportAdvisories,
        ServiceAdvisories,
    );
    None
}
