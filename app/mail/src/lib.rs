//! aivet's one mail pipeline. Every mail is rendered from its template folder
//! when it is queued, stored whole in the outbox in the same transaction as
//! the change that caused it, and sent by the [`worker`] through a
//! [`transport`]: SMTP in production, a folder of `.eml` files as the embedded
//! default. A mail reaches its recipient or visibly fails; it never vanishes.

pub mod message;
pub mod seal;
pub mod templates;
pub mod transport;
pub mod worker;

pub use message::{MailError, Mailer, Recipient};
pub use seal::Sealer;
pub use templates::{
    AnswersArrivedMail, Art33AlertMail, DigestItem, DigestMail, InviteMail, MailQuestion,
    MailTemplate, PasswordResetMail, QuestionsMail, ReminderMail, ReminderQuestion, Rendered,
    TestMail,
};
pub use transport::{FolderTransport, MemoryTransport, SendError, SmtpTransport, Transport};
pub use worker::{Worker, WorkerSettings};
