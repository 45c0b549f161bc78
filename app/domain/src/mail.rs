//! The states of an outgoing mail in the outbox.

use crate::i18n::Msg;
use crate::inventory::choice;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

choice!(
    /// Where a mail of the outbox stands: queued, being sent (leased by a
    /// worker), sent, waiting for another attempt, or given up.
    MailStatus {
        Queued = "queued" => MailQueued,
        Sending = "sending" => MailSending,
        Sent = "sent" => MailSent,
        Retrying = "retrying" => MailWillRetry,
        Failed = "failed" => MailFailed,
    }
);

impl MailStatus {
    /// Whether the mail is still on its way (not sent, not given up).
    pub fn pending(self) -> bool {
        matches!(
            self,
            MailStatus::Queued | MailStatus::Sending | MailStatus::Retrying
        )
    }
}
