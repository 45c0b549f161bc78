//! Every user-visible string of the interface, in English, German and Norwegian
//! Bokmål.
//!
//! Each key must be given in all three languages: a key missing in one of them
//! does not compile, and the tests below catch empty, untranslated-looking or
//! placeholder-mismatched entries. Placeholders are written `{name}` and filled
//! with [`Msg::fill`].

use crate::lang::Lang;

macro_rules! messages {
    ($( $key:ident { en: $en:literal, de: $de:literal, nb: $nb:literal $(,)? } )*) => {
        /// A message key. See the module documentation.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub enum Msg { $($key),* }

        impl Msg {
            /// Every key, for the completeness tests.
            pub const ALL: &'static [Msg] = &[$(Msg::$key),*];

            /// The text of this message in `lang`.
            pub fn text(self, lang: Lang) -> &'static str {
                match lang {
                    Lang::En => match self { $(Msg::$key => $en),* },
                    Lang::De => match self { $(Msg::$key => $de),* },
                    Lang::Nb => match self { $(Msg::$key => $nb),* },
                }
            }

            /// The key's name, used in logs and as a stable error code.
            pub fn key(self) -> &'static str {
                match self { $(Msg::$key => stringify!($key)),* }
            }

            pub fn from_key(key: &str) -> Option<Msg> {
                match key { $(stringify!($key) => Some(Msg::$key),)* _ => None }
            }
        }
    };
}

impl Msg {
    /// The text with `{name}` placeholders replaced by the given values.
    pub fn fill(self, lang: Lang, args: &[(&str, &str)]) -> String {
        let mut out = self.text(lang).to_owned();
        for (name, value) in args {
            out = out.replace(&format!("{{{name}}}"), value);
        }
        out
    }
}

messages! {
    AppName { en: "aivet", de: "aivet", nb: "aivet" }
    AppTagline {
        en: "Vet the AI services your business uses.",
        de: "Prüfen Sie die KI-Dienste, die Ihr Unternehmen nutzt.",
        nb: "Kontroller KI-tjenestene virksomheten din bruker.",
    }
    SkipToContent { en: "Skip to content", de: "Zum Inhalt springen", nb: "Hopp til innholdet" }
    MainNavigation { en: "Main navigation", de: "Hauptnavigation", nb: "Hovednavigasjon" }

    NavDashboard { en: "Dashboard", de: "Übersicht", nb: "Oversikt" }
    NavServices { en: "Services", de: "Dienste", nb: "Tjenester" }
    NavVendors { en: "Vendors", de: "Anbieter", nb: "Leverandører" }
    NavFollowUps { en: "Follow-ups", de: "Wiedervorlagen", nb: "Oppfølging" }
    NavIncidents { en: "Incidents", de: "Vorfälle", nb: "Hendelser" }
    NavReports { en: "Reports", de: "Berichte", nb: "Rapporter" }
    NavSettings { en: "Settings", de: "Einstellungen", nb: "Innstillinger" }
    NavAccount { en: "My account", de: "Mein Konto", nb: "Min konto" }
    SignOut { en: "Sign out", de: "Abmelden", nb: "Logg ut" }
    SignIn { en: "Sign in", de: "Anmelden", nb: "Logg inn" }
    SignUp { en: "Create account", de: "Konto anlegen", nb: "Opprett konto" }
    Language { en: "Language", de: "Sprache", nb: "Språk" }
    Organisation { en: "Organisation", de: "Organisation", nb: "Organisasjon" }
    SwitchOrganisation { en: "Switch organisation", de: "Organisation wechseln", nb: "Bytt organisasjon" }
    Switch { en: "Switch", de: "Wechseln", nb: "Bytt" }
    Save { en: "Save", de: "Speichern", nb: "Lagre" }
    Saved { en: "Saved.", de: "Gespeichert.", nb: "Lagret." }
    Cancel { en: "Cancel", de: "Abbrechen", nb: "Avbryt" }
    Working { en: "Working…", de: "Bitte warten…", nb: "Vent litt…" }

    FieldEmail { en: "Email address", de: "E-Mail-Adresse", nb: "E-postadresse" }
    FieldPassword { en: "Password", de: "Passwort", nb: "Passord" }
    FieldPasswordHint {
        en: "At least 10 characters. A few unrelated words make a strong passphrase.",
        de: "Mindestens 10 Zeichen. Einige Wörter ohne Zusammenhang ergeben eine starke Passphrase.",
        nb: "Minst 10 tegn. Noen ord uten sammenheng gir en sterk passordfrase.",
    }
    FieldCurrentPassword { en: "Current password", de: "Aktuelles Passwort", nb: "Nåværende passord" }
    FieldNewPassword { en: "New password", de: "Neues Passwort", nb: "Nytt passord" }
    FieldYourName { en: "Your name", de: "Ihr Name", nb: "Navnet ditt" }
    FieldOrgName { en: "Organisation name", de: "Name der Organisation", nb: "Organisasjonens navn" }
    FieldOrgNameHint {
        en: "Your business, or the client business you set this up for.",
        de: "Ihr Unternehmen oder das Kundenunternehmen, für das Sie dies einrichten.",
        nb: "Virksomheten din, eller kundevirksomheten du setter dette opp for.",
    }
    FieldRole { en: "Role", de: "Rolle", nb: "Rolle" }

    SignUpTitle { en: "Create your account", de: "Konto anlegen", nb: "Opprett kontoen din" }
    SignUpLead {
        en: "You become the owner of a new organisation and can invite colleagues afterwards.",
        de: "Sie werden Inhaber einer neuen Organisation und können danach Kolleginnen und Kollegen einladen.",
        nb: "Du blir eier av en ny organisasjon og kan invitere kolleger etterpå.",
    }
    HaveAccount { en: "Already have an account?", de: "Sie haben schon ein Konto?", nb: "Har du allerede en konto?" }
    NoAccount { en: "New to aivet?", de: "Neu bei aivet?", nb: "Ny i aivet?" }
    SignInTitle { en: "Sign in to aivet", de: "Bei aivet anmelden", nb: "Logg inn i aivet" }

    RoleOwner { en: "Owner", de: "Inhaber", nb: "Eier" }
    RoleEditor { en: "Editor", de: "Bearbeiter", nb: "Redaktør" }
    RoleViewer { en: "Viewer", de: "Leser", nb: "Leser" }
    RoleOwnerHelp {
        en: "Everything, including members and settings.",
        de: "Alles, einschließlich Mitglieder und Einstellungen.",
        nb: "Alt, også medlemmer og innstillinger.",
    }
    RoleEditorHelp {
        en: "Keeps the inventory, sends questions, reviews answers.",
        de: "Pflegt das Verzeichnis, versendet Fragen, bewertet Antworten.",
        nb: "Holder oversikten, sender spørsmål, vurderer svar.",
    }
    RoleViewerHelp {
        en: "Reads everything, changes nothing.",
        de: "Sieht alles, ändert nichts.",
        nb: "Ser alt, endrer ingenting.",
    }

    DashboardTitle { en: "Dashboard", de: "Übersicht", nb: "Oversikt" }
    DashboardWelcome { en: "Welcome, {name}.", de: "Willkommen, {name}.", nb: "Velkommen, {name}." }
    StartHereTitle { en: "Start here: five steps, about fifteen minutes", de: "Hier beginnen: fünf Schritte, etwa fünfzehn Minuten", nb: "Start her: fem steg, omtrent et kvarter" }
    StartHereLead {
        en: "In autumn 2026 an AI provider's inference engine served one customer's prompts to other customers. Tenant isolation is a property of the vendor's software: you cannot inspect it, but you can ask, get it in writing, and follow up.",
        de: "Im Herbst 2026 hat die Inferenz-Software eines KI-Anbieters Eingaben eines Kunden an andere Kunden ausgeliefert. Die Trennung der Mandanten ist eine Eigenschaft der Software des Anbieters: Sie können sie nicht prüfen, aber Sie können fragen, die Antwort schriftlich verlangen und nachfassen.",
        nb: "Høsten 2026 leverte inferensprogramvaren til en KI-leverandør én kundes forespørsler til andre kunder. Skillet mellom kunder er en egenskap ved leverandørens programvare: du kan ikke kontrollere det selv, men du kan spørre, få svaret skriftlig og følge opp.",
    }
    Step1Title { en: "List your AI services", de: "KI-Dienste erfassen", nb: "List opp KI-tjenestene" }
    Step1Text {
        en: "Every AI service the business uses, including those an IT provider or integrator built in.",
        de: "Jeden KI-Dienst, den das Unternehmen nutzt, auch solche, die ein IT-Dienstleister oder Integrator eingebaut hat.",
        nb: "Alle KI-tjenester virksomheten bruker, også de som en IT-leverandør eller integrator har bygget inn.",
    }
    Step2Title { en: "Note what the contract says", de: "Festhalten, was im Vertrag steht", nb: "Noter hva avtalen sier" }
    Step2Text {
        en: "What the contract and help pages say about data separation, caching and incident notification.",
        de: "Was Vertrag und Hilfeseiten zu Datentrennung, Zwischenspeicherung und Meldung von Vorfällen sagen.",
        nb: "Hva avtalen og hjelpesidene sier om dataskille, mellomlagring og varsling av hendelser.",
    }
    Step3Title { en: "Ask the vendor five questions", de: "Dem Anbieter fünf Fragen stellen", nb: "Still leverandøren fem spørsmål" }
    Step3Text {
        en: "By email, with a link to answer in writing — no account needed on their side.",
        de: "Per E-Mail, mit einem Link für die schriftliche Antwort – ohne Konto auf Anbieterseite.",
        nb: "På e-post, med en lenke for skriftlig svar – leverandøren trenger ingen konto.",
    }
    Step4Title { en: "Decide which data may go in", de: "Entscheiden, welche Daten hinein dürfen", nb: "Bestem hvilke data som kan sendes inn" }
    Step4Text {
        en: "Until separation is clarified, keep personal and confidential data out of the service.",
        de: "Bis die Trennung geklärt ist, bleiben personenbezogene und vertrauliche Daten draußen.",
        nb: "Til skillet er avklart, holdes personopplysninger og fortrolige data utenfor tjenesten.",
    }
    Step5Title { en: "Set a follow-up date", de: "Wiedervorlage setzen", nb: "Sett en oppfølgingsdato" }
    Step5Text {
        en: "Put it in your calendar and chase the answer.",
        de: "In den Kalender eintragen und die Antwort nachhalten.",
        nb: "Legg den i kalenderen og følg opp svaret.",
    }
    ComingSoon {
        en: "This part of aivet is being built and arrives with the next releases.",
        de: "Dieser Teil von aivet ist in Arbeit und folgt mit den nächsten Versionen.",
        nb: "Denne delen av aivet er under arbeid og kommer i de neste versjonene.",
    }
    AdviceNotLegal {
        en: "Advice in aivet is practical guidance, not legal advice.",
        de: "Hinweise in aivet sind praktische Empfehlungen, keine Rechtsberatung.",
        nb: "Rådene i aivet er praktisk veiledning, ikke juridisk rådgivning.",
    }
    EmptyServices {
        en: "No AI services listed yet. Start with the ones you use every week.",
        de: "Noch keine KI-Dienste erfasst. Beginnen Sie mit denen, die Sie jede Woche nutzen.",
        nb: "Ingen KI-tjenester er registrert ennå. Begynn med dem du bruker hver uke.",
    }
    EmptyVendors {
        en: "No vendors yet. Vendors are the companies behind your AI services.",
        de: "Noch keine Anbieter. Anbieter sind die Unternehmen hinter Ihren KI-Diensten.",
        nb: "Ingen leverandører ennå. Leverandørene er selskapene bak KI-tjenestene dine.",
    }
    EmptyFollowUps {
        en: "Nothing to follow up. Follow-up dates appear here once you have asked a vendor.",
        de: "Nichts nachzuhalten. Wiedervorlagen erscheinen hier, sobald Sie einen Anbieter angefragt haben.",
        nb: "Ingenting å følge opp. Oppfølgingsdatoer vises her når du har spurt en leverandør.",
    }
    EmptyIncidents {
        en: "No vendor incidents recorded. When a vendor reports one, record it here to start the 72-hour clock.",
        de: "Keine Vorfälle erfasst. Meldet ein Anbieter einen Vorfall, erfassen Sie ihn hier – dann läuft die 72-Stunden-Frist.",
        nb: "Ingen hendelser registrert. Når en leverandør melder en hendelse, registrer den her for å starte 72-timersfristen.",
    }
    EmptyReports {
        en: "Reports for your data-protection officer or auditor appear here.",
        de: "Hier erscheinen Berichte für Ihre Datenschutzbeauftragten oder Prüfer.",
        nb: "Her kommer rapporter til personvernombudet eller revisoren.",
    }

    SettingsTitle { en: "Settings", de: "Einstellungen", nb: "Innstillinger" }
    MembersTitle { en: "Members", de: "Mitglieder", nb: "Medlemmer" }
    MemberName { en: "Name", de: "Name", nb: "Navn" }
    MemberSince { en: "Member since", de: "Mitglied seit", nb: "Medlem siden" }
    MemberYou { en: "you", de: "Sie", nb: "deg" }
    RemoveMember { en: "Remove", de: "Entfernen", nb: "Fjern" }
    RemoveMemberConfirm {
        en: "Remove {name} from this organisation? They lose access at once.",
        de: "{name} aus dieser Organisation entfernen? Der Zugang endet sofort.",
        nb: "Fjerne {name} fra denne organisasjonen? Tilgangen opphører straks.",
    }
    ConfirmRemove { en: "Yes, remove", de: "Ja, entfernen", nb: "Ja, fjern" }
    InviteTitle { en: "Invite a colleague", de: "Kollegin oder Kollegen einladen", nb: "Inviter en kollega" }
    InviteLead {
        en: "Creates a single-use link that is valid for 7 days. Copy it and send it to your colleague.",
        de: "Erzeugt einen einmal nutzbaren Link, der 7 Tage gilt. Kopieren Sie ihn und schicken Sie ihn weiter.",
        nb: "Lager en engangslenke som gjelder i 7 dager. Kopier den og send den til kollegaen din.",
    }
    CreateInvite { en: "Create invite link", de: "Einladungslink erzeugen", nb: "Lag invitasjonslenke" }
    InviteCreated {
        en: "Invite link for {email} — copy it now, it is shown only once:",
        de: "Einladungslink für {email} – jetzt kopieren, er wird nur einmal angezeigt:",
        nb: "Invitasjonslenke for {email} – kopier den nå, den vises bare én gang:",
    }
    CopyLink { en: "Copy link", de: "Link kopieren", nb: "Kopier lenken" }
    Copied { en: "Copied", de: "Kopiert", nb: "Kopiert" }
    PendingInvites { en: "Pending invitations", de: "Offene Einladungen", nb: "Ventende invitasjoner" }
    NoPendingInvites { en: "No pending invitations.", de: "Keine offenen Einladungen.", nb: "Ingen ventende invitasjoner." }
    Expires { en: "Expires", de: "Läuft ab", nb: "Utløper" }
    Revoke { en: "Revoke", de: "Widerrufen", nb: "Trekk tilbake" }
    OrgDetailsTitle { en: "Organisation", de: "Organisation", nb: "Organisasjon" }
    OrgSlug { en: "Short name (in links)", de: "Kurzname (in Links)", nb: "Kortnavn (i lenker)" }
    NewOrgTitle { en: "Add another organisation", de: "Weitere Organisation anlegen", nb: "Legg til en organisasjon til" }
    NewOrgLead {
        en: "For IT providers who look after several client businesses: each organisation is kept strictly apart.",
        de: "Für IT-Dienstleister, die mehrere Kundenunternehmen betreuen: Jede Organisation bleibt streng getrennt.",
        nb: "For IT-leverandører som følger opp flere kundevirksomheter: hver organisasjon holdes strengt adskilt.",
    }
    CreateOrg { en: "Create organisation", de: "Organisation anlegen", nb: "Opprett organisasjon" }
    OwnersOnly {
        en: "Only owners can change members and invitations.",
        de: "Nur Inhaber können Mitglieder und Einladungen ändern.",
        nb: "Bare eiere kan endre medlemmer og invitasjoner.",
    }

    ForgotPassword { en: "Forgot your password?", de: "Passwort vergessen?", nb: "Glemt passordet?" }
    ForgotTitle { en: "Reset your password", de: "Passwort zurücksetzen", nb: "Tilbakestill passordet" }
    ForgotLead {
        en: "Enter the email address of your account. We send you a link to choose a new password.",
        de: "Geben Sie die E-Mail-Adresse Ihres Kontos ein. Wir schicken Ihnen einen Link, um ein neues Passwort zu wählen.",
        nb: "Skriv inn e-postadressen til kontoen din. Vi sender deg en lenke for å velge et nytt passord.",
    }
    SendResetLink { en: "Send the link", de: "Link senden", nb: "Send lenken" }
    ResetSent {
        en: "If an account has this address, a link is on its way. It is valid for one hour.",
        de: "Falls ein Konto diese Adresse hat, ist ein Link unterwegs. Er gilt eine Stunde.",
        nb: "Hvis en konto har denne adressen, er en lenke på vei. Den gjelder i én time.",
    }
    ResetTitle { en: "Choose a new password", de: "Neues Passwort wählen", nb: "Velg et nytt passord" }
    ResetInvalid {
        en: "This link is not valid any more. It may have expired or been used. Ask for a new one.",
        de: "Dieser Link ist nicht mehr gültig. Er ist vielleicht abgelaufen oder schon benutzt. Fordern Sie einen neuen an.",
        nb: "Denne lenken er ikke gyldig lenger. Den kan være utløpt eller allerede brukt. Be om en ny.",
    }
    MailTitle { en: "Mail", de: "E-Mail", nb: "E-post" }
    MailTransport { en: "Delivery", de: "Zustellung", nb: "Levering" }
    MailFrom { en: "Sender", de: "Absender", nb: "Avsender" }
    MailFolderNote {
        en: "No mail server is configured: mails are written as files into the folder above. Set AIVET_SMTP_URL to send them.",
        de: "Es ist kein Mailserver eingerichtet: E-Mails werden als Dateien in den Ordner oben geschrieben. Setzen Sie AIVET_SMTP_URL, um sie zu versenden.",
        nb: "Ingen e-postserver er satt opp: e-poster skrives som filer i mappen over. Sett AIVET_SMTP_URL for å sende dem.",
    }
    SendTestMail { en: "Send me a test mail", de: "Testnachricht an mich senden", nb: "Send meg en testmelding" }
    TestMailQueued {
        en: "Test mail queued. It appears in the list below with its delivery state.",
        de: "Testnachricht eingereiht. Sie erscheint unten mit ihrem Zustellstatus.",
        nb: "Testmeldingen står i kø. Den vises i listen under med leveringsstatus.",
    }
    RecentMails { en: "Recent mails", de: "Letzte E-Mails", nb: "Siste e-poster" }
    NoMails { en: "No mails sent yet.", de: "Noch keine E-Mails versendet.", nb: "Ingen e-poster sendt ennå." }
    MailTo { en: "To", de: "An", nb: "Til" }
    MailSubject { en: "Subject", de: "Betreff", nb: "Emne" }
    MailStatusLabel { en: "Status", de: "Status", nb: "Status" }
    MailQueued { en: "Queued", de: "Wartet", nb: "I kø" }
    MailSending { en: "Sending", de: "Wird gesendet", nb: "Sendes" }
    MailSent { en: "Sent", de: "Gesendet", nb: "Sendt" }
    MailRetrying {
        en: "Retrying at {time} (attempt {n})",
        de: "Neuer Versuch um {time} (Versuch {n})",
        nb: "Nytt forsøk kl. {time} (forsøk {n})",
    }
    MailFailed { en: "Failed", de: "Fehlgeschlagen", nb: "Mislyktes" }
    RetryNow { en: "Retry now", de: "Jetzt erneut senden", nb: "Prøv igjen nå" }
    AuditTitle { en: "Audit log", de: "Änderungsprotokoll", nb: "Endringslogg" }
    AccountTitle { en: "My account", de: "Mein Konto", nb: "Min konto" }
    ChangePasswordTitle { en: "Change password", de: "Passwort ändern", nb: "Endre passord" }
    PasswordChanged {
        en: "Password changed. Your other sessions have been signed out.",
        de: "Passwort geändert. Ihre anderen Sitzungen wurden abgemeldet.",
        nb: "Passordet er endret. De andre øktene dine er logget ut.",
    }
    LanguageTitle { en: "Language", de: "Sprache", nb: "Språk" }
    LanguageLead {
        en: "The language of aivet's pages for you. Mails to vendors use each contact's own language.",
        de: "Die Sprache der aivet-Seiten für Sie. E-Mails an Anbieter gehen in der Sprache des jeweiligen Kontakts.",
        nb: "Språket på aivet-sidene for deg. E-post til leverandører sendes på kontaktpersonens eget språk.",
    }

    InviteAcceptTitle { en: "Join {org}", de: "{org} beitreten", nb: "Bli med i {org}" }
    InviteAcceptLead {
        en: "You have been invited to join {org} as {role}.",
        de: "Sie wurden eingeladen, {org} als {role} beizutreten.",
        nb: "Du er invitert til å bli med i {org} som {role}.",
    }
    InviteAcceptButton { en: "Accept invitation", de: "Einladung annehmen", nb: "Godta invitasjonen" }
    InviteNewAccount {
        en: "Create your account to accept:",
        de: "Legen Sie Ihr Konto an, um anzunehmen:",
        nb: "Opprett kontoen din for å godta:",
    }
    InviteHaveAccount {
        en: "Already have an account? Sign in first, then open this link again.",
        de: "Sie haben schon ein Konto? Melden Sie sich zuerst an und öffnen Sie diesen Link dann erneut.",
        nb: "Har du allerede en konto? Logg inn først, og åpne lenken igjen.",
    }
    InviteInvalid {
        en: "This invitation link is not valid. It may have expired, been used already or been revoked. Ask the person who invited you for a new one.",
        de: "Dieser Einladungslink ist nicht gültig. Er ist vielleicht abgelaufen, schon benutzt oder widerrufen. Bitten Sie die einladende Person um einen neuen.",
        nb: "Denne invitasjonslenken er ikke gyldig. Den kan være utløpt, allerede brukt eller trukket tilbake. Be den som inviterte deg om en ny.",
    }

    NotFoundTitle { en: "Page not found", de: "Seite nicht gefunden", nb: "Fant ikke siden" }
    NotFoundText {
        en: "This page does not exist, or you have no access to it.",
        de: "Diese Seite gibt es nicht, oder Sie haben keinen Zugriff darauf.",
        nb: "Denne siden finnes ikke, eller du har ikke tilgang til den.",
    }
    BackToDashboard { en: "Back to the dashboard", de: "Zurück zur Übersicht", nb: "Tilbake til oversikten" }
    NoOrganisation {
        en: "You are not a member of any organisation at the moment. Create one, or ask a colleague for an invitation.",
        de: "Sie sind zurzeit in keiner Organisation Mitglied. Legen Sie eine an oder bitten Sie um eine Einladung.",
        nb: "Du er ikke medlem av noen organisasjon nå. Opprett en, eller be en kollega om en invitasjon.",
    }

    ErrGeneric {
        en: "Something went wrong on our side. Please try again. Reference: {id}",
        de: "Bei uns ist etwas schiefgegangen. Bitte versuchen Sie es erneut. Referenz: {id}",
        nb: "Noe gikk galt hos oss. Prøv igjen. Referanse: {id}",
    }
    ErrNotFound { en: "Not found.", de: "Nicht gefunden.", nb: "Ikke funnet." }
    ErrUnexpected {
        en: "Something went wrong on our side. Please try again.",
        de: "Bei uns ist etwas schiefgegangen. Bitte versuchen Sie es erneut.",
        nb: "Noe gikk galt hos oss. Prøv igjen.",
    }
    ErrTooLarge {
        en: "The request is too large.",
        de: "Die Anfrage ist zu groß.",
        nb: "Forespørselen er for stor.",
    }
    ErrSignInRequired { en: "Please sign in.", de: "Bitte melden Sie sich an.", nb: "Logg inn først." }
    ErrForbidden {
        en: "Your role in this organisation does not allow this.",
        de: "Ihre Rolle in dieser Organisation erlaubt das nicht.",
        nb: "Rollen din i denne organisasjonen tillater ikke dette.",
    }
    ErrBadCredentials {
        en: "Email address or password is not correct.",
        de: "E-Mail-Adresse oder Passwort ist nicht korrekt.",
        nb: "E-postadressen eller passordet er feil.",
    }
    ErrRateLimited {
        en: "Too many attempts. Please wait a few minutes and try again.",
        de: "Zu viele Versuche. Bitte warten Sie einige Minuten und versuchen Sie es dann erneut.",
        nb: "For mange forsøk. Vent noen minutter og prøv igjen.",
    }
    ErrEmailRequired { en: "Please enter an email address.", de: "Bitte geben Sie eine E-Mail-Adresse ein.", nb: "Skriv inn en e-postadresse." }
    ErrEmailInvalid {
        en: "This does not look like an email address (name@example.com).",
        de: "Das sieht nicht wie eine E-Mail-Adresse aus (name@beispiel.de).",
        nb: "Dette ser ikke ut som en e-postadresse (navn@eksempel.no).",
    }
    ErrEmailTaken {
        en: "An account with this email address exists already. Sign in instead.",
        de: "Zu dieser E-Mail-Adresse gibt es schon ein Konto. Bitte melden Sie sich an.",
        nb: "Det finnes allerede en konto med denne e-postadressen. Logg inn i stedet.",
    }
    ErrPasswordTooShort {
        en: "The password needs at least 10 characters.",
        de: "Das Passwort braucht mindestens 10 Zeichen.",
        nb: "Passordet må ha minst 10 tegn.",
    }
    ErrPasswordTooLong {
        en: "The password can have at most 1,024 characters.",
        de: "Das Passwort darf höchstens 1.024 Zeichen haben.",
        nb: "Passordet kan ha høyst 1024 tegn.",
    }
    ErrPasswordWrong { en: "The current password is not correct.", de: "Das aktuelle Passwort ist nicht korrekt.", nb: "Nåværende passord er feil." }
    ErrOrgNameRequired { en: "Please enter the organisation's name.", de: "Bitte geben Sie den Namen der Organisation ein.", nb: "Skriv inn organisasjonens navn." }
    ErrOrgNameTooLong { en: "At most 120 characters.", de: "Höchstens 120 Zeichen.", nb: "Høyst 120 tegn." }
    ErrNameRequired { en: "Please enter your name.", de: "Bitte geben Sie Ihren Namen ein.", nb: "Skriv inn navnet ditt." }
    ErrNameTooLong { en: "At most 120 characters.", de: "Höchstens 120 Zeichen.", nb: "Høyst 120 tegn." }
    ErrTextControl {
        en: "Please remove the invisible control characters.",
        de: "Bitte entfernen Sie die unsichtbaren Steuerzeichen.",
        nb: "Fjern de usynlige kontrolltegnene.",
    }
    ErrRoleInvalid { en: "Please choose a role.", de: "Bitte wählen Sie eine Rolle.", nb: "Velg en rolle." }
    ErrAlreadyMember {
        en: "This person is a member already.",
        de: "Diese Person ist bereits Mitglied.",
        nb: "Denne personen er allerede medlem.",
    }
    ErrLastOwner {
        en: "An organisation needs at least one owner. Make someone else owner first.",
        de: "Eine Organisation braucht mindestens einen Inhaber. Machen Sie zuerst jemand anderen zum Inhaber.",
        nb: "En organisasjon trenger minst én eier. Gjør noen andre til eier først.",
    }
    ErrInviteEmailMismatch {
        en: "This invitation was made for another email address. Sign in with that address, or ask for a new invitation.",
        de: "Diese Einladung gilt für eine andere E-Mail-Adresse. Melden Sie sich mit dieser an oder bitten Sie um eine neue Einladung.",
        nb: "Denne invitasjonen gjelder en annen e-postadresse. Logg inn med den, eller be om en ny invitasjon.",
    }
    ErrFormInvalid {
        en: "Please correct the marked fields.",
        de: "Bitte korrigieren Sie die markierten Felder.",
        nb: "Rett opp feltene som er merket.",
    }
    ErrRequestRejected {
        en: "This request was refused because it did not come from an aivet page. Reload the page and try again.",
        de: "Diese Anfrage wurde abgelehnt, weil sie nicht von einer aivet-Seite kam. Laden Sie die Seite neu und versuchen Sie es erneut.",
        nb: "Forespørselen ble avvist fordi den ikke kom fra en aivet-side. Last inn siden på nytt og prøv igjen.",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn placeholders(s: &str) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let mut rest = s;
        while let Some(start) = rest.find('{') {
            let Some(len) = rest[start..].find('}') else {
                break;
            };
            out.insert(rest[start + 1..start + len].to_owned());
            rest = &rest[start + len..];
        }
        out
    }

    /// Same-as-English texts that are correct in the other language too.
    const SAME_EVERYWHERE: &[Msg] = &[Msg::AppName, Msg::Organisation, Msg::OrgDetailsTitle];

    #[test]
    fn every_key_is_translated_in_every_language() {
        let mut missing = Vec::new();
        for &m in Msg::ALL {
            for lang in Lang::ALL {
                let t = m.text(lang);
                if t.trim().is_empty() {
                    missing.push(format!("{}: empty in {lang}", m.key()));
                }
            }
            for lang in [Lang::De, Lang::Nb] {
                if m.text(lang) == m.text(Lang::En)
                    && m.text(Lang::En).len() > 12
                    && !SAME_EVERYWHERE.contains(&m)
                {
                    missing.push(format!("{}: {lang} is the English text", m.key()));
                }
                if placeholders(m.text(lang)) != placeholders(m.text(Lang::En)) {
                    missing.push(format!("{}: placeholders differ in {lang}", m.key()));
                }
            }
        }
        assert!(
            missing.is_empty(),
            "translation problems:\n{}",
            missing.join("\n")
        );
    }

    #[test]
    fn keys_round_trip() {
        for &m in Msg::ALL {
            assert_eq!(Msg::from_key(m.key()), Some(m));
        }
    }

    #[test]
    fn fill_replaces_placeholders() {
        assert_eq!(
            Msg::DashboardWelcome.fill(Lang::De, &[("name", "Kari")]),
            "Willkommen, Kari."
        );
    }
}
