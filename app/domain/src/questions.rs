//! The questions aivet asks a vendor: the five core questions of the
//! checklist and the optional ones an organisation can switch on, each with
//! one sentence saying why we ask, in every language of the interface.
//!
//! The stable `code` identifies a standard question in stored question sets;
//! the text itself is copied into each request when it is sent, so that what
//! the vendor was asked never changes afterwards.

use crate::{Lang, Msg};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum StandardQuestion {
    Separation,
    Retention,
    LeakTests,
    Notification,
    AfterIncident,
    Engines,
    Overlong,
    Training,
    SupplyChain,
}

impl StandardQuestion {
    /// The five questions every request asks, in this order.
    pub const CORE: [StandardQuestion; 5] = [
        StandardQuestion::Separation,
        StandardQuestion::Retention,
        StandardQuestion::LeakTests,
        StandardQuestion::Notification,
        StandardQuestion::AfterIncident,
    ];

    /// Questions an organisation can add to its set.
    pub const OPTIONAL: [StandardQuestion; 4] = [
        StandardQuestion::Engines,
        StandardQuestion::Overlong,
        StandardQuestion::Training,
        StandardQuestion::SupplyChain,
    ];

    pub fn code(self) -> &'static str {
        match self {
            StandardQuestion::Separation => "separation",
            StandardQuestion::Retention => "retention",
            StandardQuestion::LeakTests => "leak_tests",
            StandardQuestion::Notification => "notification",
            StandardQuestion::AfterIncident => "after_incident",
            StandardQuestion::Engines => "engines",
            StandardQuestion::Overlong => "overlong",
            StandardQuestion::Training => "training",
            StandardQuestion::SupplyChain => "supply_chain",
        }
    }

    pub fn from_code(code: &str) -> Option<StandardQuestion> {
        Self::CORE
            .into_iter()
            .chain(Self::OPTIONAL)
            .find(|q| q.code() == code)
    }

    fn msgs(self) -> (Msg, Msg) {
        match self {
            StandardQuestion::Separation => (Msg::QSeparation, Msg::QSeparationWhy),
            StandardQuestion::Retention => (Msg::QRetention, Msg::QRetentionWhy),
            StandardQuestion::LeakTests => (Msg::QLeakTests, Msg::QLeakTestsWhy),
            StandardQuestion::Notification => (Msg::QNotification, Msg::QNotificationWhy),
            StandardQuestion::AfterIncident => (Msg::QAfterIncident, Msg::QAfterIncidentWhy),
            StandardQuestion::Engines => (Msg::QEngines, Msg::QEnginesWhy),
            StandardQuestion::Overlong => (Msg::QOverlong, Msg::QOverlongWhy),
            StandardQuestion::Training => (Msg::QTraining, Msg::QTrainingWhy),
            StandardQuestion::SupplyChain => (Msg::QSupplyChain, Msg::QSupplyChainWhy),
        }
    }

    /// The question as asked.
    pub fn text(self, lang: Lang) -> &'static str {
        self.msgs().0.text(lang)
    }

    /// One sentence on why we ask.
    pub fn why(self, lang: Lang) -> &'static str {
        self.msgs().1.text(lang)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_core_questions_and_the_optional_ones_round_trip() {
        assert_eq!(StandardQuestion::CORE.len(), 5);
        for q in StandardQuestion::CORE
            .into_iter()
            .chain(StandardQuestion::OPTIONAL)
        {
            assert_eq!(StandardQuestion::from_code(q.code()), Some(q));
            for lang in Lang::ALL {
                assert!(q.text(lang).ends_with('?'), "{q:?} {lang}: a question");
                assert!(q.why(lang).ends_with('.'), "{q:?} {lang}: a sentence");
                assert_ne!(q.text(lang), q.why(lang));
            }
        }
        assert_eq!(StandardQuestion::from_code("nope"), None);
    }
}
