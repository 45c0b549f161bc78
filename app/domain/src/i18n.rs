//! Every user-visible string of the interface, in English, German and Norwegian
//! Bokmål.
//!
//! Each key must be given in all three languages: a key missing in one of them
//! does not compile, and the tests below catch empty, untranslated-looking or
//! placeholder-mismatched entries. Placeholders are written `{name}`.
//!
//! A message with a count has plural forms, written
//! `{ one: "…", other: "…" }` per language; the form is chosen by the CLDR
//! plural rules of the language (`intl_pluralrules`) for the argument `n`.
//!
//! Messages with placeholders are filled with [`msg!`](crate::msg): it checks
//! when the crate compiles that the call gives exactly the placeholders the
//! message has in every language (and `n` for a plural message).

use crate::lang::Lang;
use std::fmt;

/// The text of a message in one language: one form, or plural forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Text {
    One(&'static str),
    Plural {
        one: &'static str,
        other: &'static str,
    },
}

impl Text {
    /// Every form of the text.
    pub const fn forms(self) -> [&'static str; 2] {
        match self {
            Text::One(t) => [t, t],
            Text::Plural { one, other } => [one, other],
        }
    }
    /// The form for the count `n` in `lang`.
    pub fn for_count(self, lang: Lang, n: i64) -> &'static str {
        match self {
            Text::One(t) => t,
            Text::Plural { one, other } => match plural_category(lang, n) {
                intl_pluralrules::PluralCategory::ONE => one,
                _ => other,
            },
        }
    }
    pub const fn is_plural(self) -> bool {
        matches!(self, Text::Plural { .. })
    }
}

/// The CLDR plural category of the integer `n` in `lang`.
pub fn plural_category(lang: Lang, n: i64) -> intl_pluralrules::PluralCategory {
    use intl_pluralrules::{PluralRuleType, PluralRules};
    use std::sync::OnceLock;
    static RULES: OnceLock<[PluralRules; 3]> = OnceLock::new();
    let rules = RULES.get_or_init(|| {
        Lang::ALL.map(|l| {
            let id: unic_langid::LanguageIdentifier =
                l.code().parse().expect("our language codes are valid tags");
            PluralRules::create(id, PluralRuleType::CARDINAL)
                .expect("CLDR has plural rules for en, de and nb")
        })
    });
    let index = Lang::ALL.iter().position(|l| *l == lang).unwrap_or(0);
    rules[index]
        .select(n)
        .unwrap_or(intl_pluralrules::PluralCategory::OTHER)
}

#[doc(hidden)]
#[macro_export]
macro_rules! __msg_text {
    ($text:literal) => {
        $crate::i18n::Text::One($text)
    };
    ({ one: $one:literal, other: $other:literal $(,)? }) => {
        $crate::i18n::Text::Plural {
            one: $one,
            other: $other,
        }
    };
}

macro_rules! messages {
    ($( $key:ident { en: $en:tt, de: $de:tt, nb: $nb:tt $(,)? } )*) => {
        /// A message key. See the module documentation.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub enum Msg { $($key),* }

        impl Msg {
            /// Every key, for the completeness tests.
            pub const ALL: &'static [Msg] = &[$(Msg::$key),*];

            /// The forms of this message in `lang`.
            pub const fn texts(self, lang: Lang) -> Text {
                match lang {
                    Lang::En => match self { $(Msg::$key => $crate::__msg_text!($en)),* },
                    Lang::De => match self { $(Msg::$key => $crate::__msg_text!($de)),* },
                    Lang::Nb => match self { $(Msg::$key => $crate::__msg_text!($nb)),* },
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

/// A value for a placeholder.
#[derive(Clone, Copy, Debug)]
pub enum Arg<'a> {
    Text(&'a str),
    Count(i64),
}

impl fmt::Display for Arg<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arg::Text(s) => f.write_str(s),
            Arg::Count(n) => write!(f, "{n}"),
        }
    }
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(s: &'a str) -> Self {
        Arg::Text(s)
    }
}
impl<'a> From<&'a String> for Arg<'a> {
    fn from(s: &'a String) -> Self {
        Arg::Text(s)
    }
}
impl<'a> From<&'a &'a str> for Arg<'a> {
    fn from(s: &'a &'a str) -> Self {
        Arg::Text(s)
    }
}
macro_rules! count_args {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg<'_> {
            fn from(n: $t) -> Self {
                Arg::Count(i64::try_from(n).unwrap_or(i64::MAX))
            }
        }
        impl From<&$t> for Arg<'_> {
            fn from(n: &$t) -> Self {
                Arg::Count(i64::try_from(*n).unwrap_or(i64::MAX))
            }
        }
    )*};
}
count_args!(u8, u16, i32, i64, u32, u64, usize);

impl Msg {
    /// The text of this message in `lang` (for a plural message, its
    /// general form: use [`msg!`](crate::msg) to give the count).
    pub fn text(self, lang: Lang) -> &'static str {
        self.texts(lang).forms()[1]
    }

    /// Whether the message has plural forms (and so needs `n`).
    pub const fn is_plural(self) -> bool {
        self.texts(Lang::En).is_plural()
    }

    /// The text with its placeholders filled; the form for the count `n`
    /// when the message has plural forms. Unchecked: prefer
    /// [`msg!`](crate::msg), which checks the names when compiling. Used
    /// where the values are only known at run time (an error's arguments).
    pub fn format(self, lang: Lang, args: &[(&str, Arg<'_>)]) -> String {
        let n = args.iter().find_map(|(k, v)| match (k, v) {
            (&"n", Arg::Count(n)) => Some(*n),
            _ => None,
        });
        let template = match n {
            Some(n) => self.texts(lang).for_count(lang, n),
            None => self.text(lang),
        };
        fill_template(template, args)
    }

    /// Like [`Msg::format`] with text values only.
    pub fn fill(self, lang: Lang, args: &[(&str, &str)]) -> String {
        let args: Vec<(&str, Arg<'_>)> = args.iter().map(|(k, v)| (*k, Arg::Text(v))).collect();
        self.format(lang, &args)
    }

    /// Whether the message uses exactly the placeholders `names` in every
    /// form of every language (`n` included for a plural message). Used by
    /// [`msg!`](crate::msg) when compiling.
    pub const fn takes_exactly(self, names: &[&str]) -> bool {
        let langs = [Lang::En, Lang::De, Lang::Nb];
        let mut l = 0;
        let mut used = [false; 16];
        if names.len() > used.len() {
            return false;
        }
        while l < langs.len() {
            let text = self.texts(langs[l]);
            let forms = text.forms();
            let mut f = 0;
            while f < forms.len() {
                if !placeholders_within(forms[f], names, &mut used) {
                    return false;
                }
                f += 1;
            }
            l += 1;
        }
        // Every name given is used somewhere (a plural message always uses `n`).
        let mut i = 0;
        while i < names.len() {
            let count = self.is_plural() && str_eq(names[i], "n");
            if !(used[i] || count) {
                return false;
            }
            i += 1;
        }
        !self.is_plural() || contains(names, "n")
    }
}

/// Fills `{name}` placeholders of `template` from `args`; other text is
/// copied as it is (one pass, so a value can never be read as a placeholder).
fn fill_template(template: &str, args: &[(&str, Arg<'_>)]) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        match after.find('}') {
            Some(end) => {
                let name = &after[..end];
                match args.iter().find(|(k, _)| *k == name) {
                    Some((_, v)) => {
                        let _ = write!(out, "{v}");
                    }
                    None => {
                        out.push('{');
                        out.push_str(name);
                        out.push('}');
                    }
                }
                rest = &after[end + 1..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

const fn str_eq(a: &str, b: &str) -> bool {
    bytes_eq(a.as_bytes(), 0, a.len(), b.as_bytes())
}

const fn bytes_eq(hay: &[u8], from: usize, to: usize, needle: &[u8]) -> bool {
    if to - from != needle.len() {
        return false;
    }
    let mut i = 0;
    while i < needle.len() {
        if hay[from + i] != needle[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn contains(names: &[&str], name: &str) -> bool {
    let mut i = 0;
    while i < names.len() {
        if str_eq(names[i], name) {
            return true;
        }
        i += 1;
    }
    false
}

/// Whether every `{placeholder}` of `text` is one of `names`; marks the
/// names it uses in `used`.
const fn placeholders_within(text: &str, names: &[&str], used: &mut [bool; 16]) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'{' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'}' {
                j += 1;
            }
            if j == b.len() {
                return true;
            }
            let mut k = 0;
            let mut found = false;
            while k < names.len() {
                if bytes_eq(b, i + 1, j, names[k].as_bytes()) {
                    used[k] = true;
                    found = true;
                }
                k += 1;
            }
            if !found {
                return false;
            }
            i = j;
        }
        i += 1;
    }
    true
}

/// A message with its placeholders filled, in a language:
/// `msg!(lang, Msg::OrgsShown, shown = shown, n = total)`. Values are text
/// (`&str`, `&String`) or counts (integers); a plural message picks its form
/// by `n`. Refuses to compile when the names differ from the message's
/// placeholders in any language:
///
/// ```
/// use aivet_domain::{msg, Lang, Msg};
/// assert_eq!(msg!(Lang::En, Msg::DashboardWelcome, name = "Kari"), "Welcome, Kari.");
/// ```
///
/// ```compile_fail
/// use aivet_domain::{msg, Lang, Msg};
/// let _ = msg!(Lang::En, Msg::DashboardWelcome, nmae = "Kari");
/// ```
///
/// ```compile_fail
/// use aivet_domain::{msg, Lang, Msg};
/// let _ = msg!(Lang::En, Msg::AskSent); // a plural message needs `n`
/// ```
#[macro_export]
macro_rules! msg {
    ($lang:expr, $m:expr $(, $name:ident = $value:expr)* $(,)?) => {{
        const _: () = assert!(
            $m.takes_exactly(&[$(stringify!($name)),*]),
            "the arguments do not match the message's placeholders"
        );
        $m.format($lang, &[$((stringify!($name), $crate::i18n::Arg::from($value))),*])
    }};
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
    ColumnService { en: "Service", de: "Dienst", nb: "Tjeneste" }
    FollowUpsShown {
        en: { one: "The {shown} earliest of {n} follow-up are shown. Filter by owner, vendor or reason to see the others.", other: "The {shown} earliest of {n} follow-ups are shown. Filter by owner, vendor or reason to see the others." },
        de: { one: "Gezeigt werden die {shown} frühesten von {n} Wiedervorlage. Filtern Sie nach Zuständigen, Anbieter oder Grund, um die übrigen zu sehen.", other: "Gezeigt werden die {shown} frühesten von {n} Wiedervorlagen. Filtern Sie nach Zuständigen, Anbieter oder Grund, um die übrigen zu sehen." },
        nb: { one: "De {shown} tidligste av {n} oppfølging vises. Filtrer på ansvarlig, leverandør eller årsak for å se resten.", other: "De {shown} tidligste av {n} oppfølginger vises. Filtrer på ansvarlig, leverandør eller årsak for å se resten." },
    }
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
    OrgsTitle { en: "Your organisations", de: "Ihre Organisationen", nb: "Organisasjonene dine" }
    OrgsShown {
        en: { one: "{shown} of {n} organisation", other: "{shown} of {n} organisations" },
        de: { one: "{shown} von {n} Organisation", other: "{shown} von {n} Organisationen" },
        nb: { one: "{shown} av {n} organisasjon", other: "{shown} av {n} organisasjoner" },
    }
    CurrentOrg { en: "Current", de: "Aktuell", nb: "Gjeldende" }
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
        en: "No report has been exported yet.",
        de: "Es wurde noch kein Bericht exportiert.",
        nb: "Ingen rapport er eksportert ennå.",
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
    MailToFolder { en: "Saved as files in the folder {dir}", de: "Als Dateien im Ordner {dir} abgelegt", nb: "Lagret som filer i mappen {dir}" }
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
    ErrOffline {
        en: "No answer from the server. Check the connection, reload the page to see whether it was saved, and try again if not.",
        de: "Keine Antwort vom Server. Prüfen Sie die Verbindung, laden Sie die Seite neu, um zu sehen, ob gespeichert wurde, und versuchen Sie es sonst erneut.",
        nb: "Ingen svar fra serveren. Sjekk tilkoblingen, last inn siden på nytt for å se om det ble lagret, og prøv igjen hvis ikke.",
    }
    ErrTooLarge {
        en: "What you sent is larger than {limit}, the most this form takes. Nothing was saved. Please shorten the longest texts and send it again.",
        de: "Was Sie gesendet haben, ist größer als {limit}, mehr nimmt dieses Formular nicht an. Es wurde nichts gespeichert. Bitte kürzen Sie die längsten Texte und senden Sie es erneut.",
        nb: "Det du sendte, er større enn {limit}, som er det meste dette skjemaet tar imot. Ingenting ble lagret. Gjør de lengste tekstene kortere og send på nytt.",
    }
    TooLargeTitle { en: "The form is too large", de: "Das Formular ist zu groß", nb: "Skjemaet er for stort" }
    BackToForm { en: "Back to the form", de: "Zurück zum Formular", nb: "Tilbake til skjemaet" }
    ErrFormUnreadable {
        en: "The form could not be read. Please send it again.",
        de: "Das Formular konnte nicht gelesen werden. Bitte senden Sie es erneut.",
        nb: "Skjemaet kunne ikke leses. Send det på nytt.",
    }
    ErrSearchTooLong {
        en: "A search can have at most 200 characters. Please shorten it.",
        de: "Ein Suchbegriff darf höchstens 200 Zeichen haben. Bitte kürzen Sie ihn.",
        nb: "Et søk kan ha høyst 200 tegn. Gjør det kortere.",
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
    ErrAccountProtected {
        en: "This account has had many wrong passwords lately. For now it only takes sign-ins from browsers that were signed in to it before. If it is yours, sign in from such a browser, or use “Forgot your password?”, which always works.",
        de: "Für dieses Konto wurden zuletzt viele falsche Passwörter eingegeben. Vorerst nimmt es Anmeldungen nur von Browsern an, die schon einmal darin angemeldet waren. Wenn es Ihres ist, melden Sie sich in einem solchen Browser an oder nutzen Sie „Passwort vergessen?“ – das geht immer.",
        nb: "Denne kontoen har fått mange feil passord i det siste. Inntil videre tar den bare imot innlogginger fra nettlesere som har vært logget inn på den før. Er den din, logg inn fra en slik nettleser, eller bruk «Glemt passordet?», som alltid virker.",
    }
    ErrEmailRequired { en: "Please enter an email address.", de: "Bitte geben Sie eine E-Mail-Adresse ein.", nb: "Skriv inn en e-postadresse." }
    ErrEmailInvalid {
        en: "This does not look like an email address (name@example.com).",
        de: "Das sieht nicht wie eine E-Mail-Adresse aus (name@beispiel.de).",
        nb: "Dette ser ikke ut som en e-postadresse (navn@eksempel.no).",
    }
    ErrEmailUtf8 {
        en: "Our mail server cannot deliver to addresses with letters like æ, ø, å or ü before the @. Please give another address of this person.",
        de: "Unser Mailserver kann an Adressen mit Buchstaben wie ä, ö, ü oder ß vor dem @ nicht zustellen. Bitte geben Sie eine andere Adresse dieser Person an.",
        nb: "E-postserveren vår kan ikke levere til adresser med bokstaver som æ, ø, å eller ü foran @. Oppgi en annen adresse til denne personen.",
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
    ErrFormListed {
        en: "Please correct the following.",
        de: "Bitte korrigieren Sie Folgendes.",
        nb: "Rett opp følgende.",
    }
    ErrFormNotText {
        en: "What was sent in “{field}” is not valid text (UTF-8), so nothing was saved. Please type it in again.",
        de: "Was in „{field}“ gesendet wurde, ist kein gültiger Text (UTF-8); daher wurde nichts gespeichert. Bitte geben Sie es erneut ein.",
        nb: "Det som ble sendt i «{field}», er ikke gyldig tekst (UTF-8), så ingenting ble lagret. Skriv det inn på nytt.",
    }
    ErrNotText {
        en: "This is not valid text (UTF-8). Please type it in again.",
        de: "Das ist kein gültiger Text (UTF-8). Bitte geben Sie es erneut ein.",
        nb: "Dette er ikke gyldig tekst (UTF-8). Skriv det inn på nytt.",
    }
    ErrFormIncomplete {
        en: "The form arrived incomplete: “{field}” is missing. Reload the page and fill in the form again.",
        de: "Das Formular kam unvollständig an: „{field}“ fehlt. Laden Sie die Seite neu und füllen Sie das Formular erneut aus.",
        nb: "Skjemaet kom ufullstendig fram: «{field}» mangler. Last inn siden på nytt og fyll ut skjemaet igjen.",
    }
    ErrFieldMissing {
        en: "This field did not arrive with the form.",
        de: "Dieses Feld kam nicht mit dem Formular an.",
        nb: "Dette feltet kom ikke med skjemaet.",
    }
    ErrFormWrongValue {
        en: "The form arrived with a value that cannot be read in “{field}”. Reload the page and fill in the form again.",
        de: "Das Formular enthielt in „{field}“ einen Wert, der sich nicht lesen lässt. Laden Sie die Seite neu und füllen Sie das Formular erneut aus.",
        nb: "Skjemaet kom med en verdi i «{field}» som ikke kan leses. Last inn siden på nytt og fyll ut skjemaet igjen.",
    }
    ErrFieldUnreadable {
        en: "This value cannot be read.",
        de: "Dieser Wert lässt sich nicht lesen.",
        nb: "Denne verdien kan ikke leses.",
    }
    ErrFormOutdated {
        en: "The form could not be read; it may be out of date. Reload the page and fill in the form again.",
        de: "Das Formular ließ sich nicht lesen; vielleicht ist es veraltet. Laden Sie die Seite neu und füllen Sie das Formular erneut aus.",
        nb: "Skjemaet kunne ikke leses; det kan være utdatert. Last inn siden på nytt og fyll ut skjemaet igjen.",
    }
    ErrCsvColumnTwice {
        en: "This column appears more than once in the first row. Keep only one of them.",
        de: "Diese Spalte kommt in der ersten Zeile mehrfach vor. Behalten Sie nur eine davon.",
        nb: "Denne kolonnen står mer enn én gang i første rad. Behold bare én av dem.",
    }
    ErrImportNotChecked {
        en: "This text has problems (or no rows). Check it, fix what is listed, then import.",
        de: "Dieser Text hat Probleme (oder keine Zeilen). Prüfen Sie ihn, beheben Sie die aufgeführten Punkte und importieren Sie dann.",
        nb: "Denne teksten har feil (eller ingen rader). Kontroller den, rett opp det som er listet, og importer så.",
    }
    ErrRequestRejected {
        en: "This request was refused because it did not come from an aivet page. Reload the page and try again.",
        de: "Diese Anfrage wurde abgelehnt, weil sie nicht von einer aivet-Seite kam. Laden Sie die Seite neu und versuchen Sie es erneut.",
        nb: "Forespørselen ble avvist fordi den ikke kom fra en aivet-side. Last inn siden på nytt og prøv igjen.",
    }

    // --- inventory: choices ---
    VendorRoleModelProvider { en: "Model provider", de: "Modellanbieter", nb: "Modelleverandør" }
    VendorRoleInferenceHost { en: "Inference platform or host", de: "Inferenz-Plattform oder Hoster", nb: "Inferensplattform eller driftsleverandør" }
    VendorRoleApplication { en: "Application", de: "Anwendung", nb: "Applikasjon" }
    VendorRoleIntegrator { en: "Integrator or IT provider", de: "Integrator oder IT-Dienstleister", nb: "Integrator eller IT-leverandør" }
    ContactRoleSecurity { en: "Security", de: "Sicherheit", nb: "Sikkerhet" }
    ContactRoleDpo { en: "Data protection officer", de: "Datenschutzbeauftragte(r)", nb: "Personvernombud" }
    ContactRoleAccountManager { en: "Account manager", de: "Kundenbetreuung", nb: "Kundeansvarlig" }
    ContactRoleOther { en: "Other", de: "Sonstige", nb: "Annet" }
    DeploymentUnknown { en: "Not known", de: "Nicht bekannt", nb: "Ikke kjent" }
    DeploymentShared { en: "Shared with other customers", de: "Mit anderen Kunden geteilt", nb: "Delt med andre kunder" }
    DeploymentDedicated { en: "Dedicated to us", de: "Nur für uns", nb: "Dedikert til oss" }
    DeploymentOnPremises { en: "On our own premises", de: "Im eigenen Haus", nb: "Hos oss selv" }
    StatusInUse { en: "In use", de: "In Nutzung", nb: "I bruk" }
    StatusTrial { en: "Trial", de: "Testphase", nb: "Prøveperiode" }
    StatusRetired { en: "Retired", de: "Außer Betrieb", nb: "Avviklet" }
    NotifierUnclear { en: "Unclear", de: "Ungeklärt", nb: "Uavklart" }
    NotifierUs { en: "We do", de: "Wir selbst", nb: "Vi selv" }
    NotifierVendor { en: "The vendor", de: "Der Anbieter", nb: "Leverandøren" }
    TopicSeparation { en: "Data separation", de: "Datentrennung", nb: "Dataseparasjon" }
    TopicRetention { en: "Retention and caching", de: "Speicherdauer und Caching", nb: "Lagringstid og mellomlagring" }
    TopicNotification { en: "Incident notification", de: "Meldung von Vorfällen", nb: "Varsling av hendelser" }
    FindingUnknown { en: "Unknown", de: "Unbekannt", nb: "Ukjent" }
    FindingStated { en: "Stated by the vendor", de: "Vom Anbieter angegeben", nb: "Oppgitt av leverandøren" }
    FindingVerified { en: "Verified", de: "Geprüft", nb: "Bekreftet" }
    DataClassPublic { en: "Public", de: "Öffentlich", nb: "Offentlig" }
    DataClassInternal { en: "Internal", de: "Intern", nb: "Intern" }
    DataClassConfidential { en: "Confidential", de: "Vertraulich", nb: "Konfidensielt" }
    DataClassPersonal { en: "Personal data", de: "Personenbezogene Daten", nb: "Personopplysninger" }
    DataClassSpecial {
        en: "Special-category personal data",
        de: "Besondere Kategorien personenbezogener Daten",
        nb: "Særlige kategorier av personopplysninger",
    }

    // --- inventory: errors ---
    ErrChoiceInvalid { en: "Please choose one of the options.", de: "Bitte wählen Sie eine der Möglichkeiten.", nb: "Velg ett av alternativene." }
    ErrItemNameRequired { en: "Please enter a name.", de: "Bitte geben Sie einen Namen ein.", nb: "Skriv inn et navn." }
    ErrTooLong200 { en: "At most 200 characters.", de: "Höchstens 200 Zeichen.", nb: "Høyst 200 tegn." }
    ErrTooLong5000 { en: "At most 5,000 characters.", de: "Höchstens 5.000 Zeichen.", nb: "Høyst 5 000 tegn." }
    ErrUrlInvalid {
        en: "Please enter a full web address starting with https://.",
        de: "Bitte geben Sie eine vollständige Webadresse ein, beginnend mit https://.",
        nb: "Skriv inn en fullstendig nettadresse som begynner med https://.",
    }
    ErrDateInvalid { en: "Please enter a date as YYYY-MM-DD.", de: "Bitte geben Sie ein Datum als JJJJ-MM-TT ein.", nb: "Skriv inn en dato som ÅÅÅÅ-MM-DD." }
    ErrHoursInvalid {
        en: "Please enter a whole number of hours between 1 and 8760.",
        de: "Bitte geben Sie eine ganze Stundenzahl zwischen 1 und 8760 ein.",
        nb: "Skriv inn et helt antall timer mellom 1 og 8760.",
    }
    ErrVendorRequired { en: "Please choose the vendor.", de: "Bitte wählen Sie den Anbieter.", nb: "Velg leverandøren." }
    ErrVendorUnknown {
        en: "This vendor is not in your inventory. Choose one from the list.",
        de: "Dieser Anbieter ist nicht in Ihrem Verzeichnis. Wählen Sie einen aus der Liste.",
        nb: "Denne leverandøren finnes ikke i oversikten deres. Velg en fra listen.",
    }
    ErrOwnerUnknown {
        en: "This person is not a member of your organisation.",
        de: "Diese Person ist kein Mitglied Ihrer Organisation.",
        nb: "Denne personen er ikke medlem av organisasjonen deres.",
    }
    ErrDataClassUnknown {
        en: "Unknown data class. Use the names listed under Settings → Data classes.",
        de: "Unbekannte Datenklasse. Verwenden Sie die Namen unter Einstellungen → Datenklassen.",
        nb: "Ukjent dataklasse. Bruk navnene under Innstillinger → Dataklasser.",
    }
    ErrVerifiedNeedsSource {
        en: "To mark this as verified, give the source or say what the document states.",
        de: "Um dies als geprüft zu markieren, nennen Sie die Quelle oder was das Dokument sagt.",
        nb: "For å merke dette som bekreftet, oppgi kilden eller hva dokumentet sier.",
    }
    ErrNameTaken {
        en: "This name is already used in your organisation.",
        de: "Dieser Name wird in Ihrer Organisation schon verwendet.",
        nb: "Dette navnet er allerede i bruk i organisasjonen deres.",
    }
    ErrVendorInUse {
        en: "This vendor cannot be deleted while these services refer to it: {names}. Archive it instead, or change those services first.",
        de: "Dieser Anbieter kann nicht gelöscht werden, solange diese Dienste auf ihn verweisen: {names}. Archivieren Sie ihn stattdessen oder ändern Sie zuerst diese Dienste.",
        nb: "Denne leverandøren kan ikke slettes så lenge disse tjenestene viser til den: {names}. Arkiver den i stedet, eller endre tjenestene først.",
    }
    ErrDataClassInUse {
        en: "This data class cannot be deleted while these services receive it: {names}. Archive it instead.",
        de: "Diese Datenklasse kann nicht gelöscht werden, solange diese Dienste sie erhalten: {names}. Archivieren Sie sie stattdessen.",
        nb: "Denne dataklassen kan ikke slettes så lenge disse tjenestene mottar den: {names}. Arkiver den i stedet.",
    }

    // --- inventory: pages ---
    NewVendor { en: "Add vendor", de: "Anbieter hinzufügen", nb: "Legg til leverandør" }
    EditVendor { en: "Edit vendor", de: "Anbieter bearbeiten", nb: "Rediger leverandør" }
    NewService { en: "Add AI service", de: "KI-Dienst hinzufügen", nb: "Legg til KI-tjeneste" }
    EditService { en: "Edit AI service", de: "KI-Dienst bearbeiten", nb: "Rediger KI-tjeneste" }
    FieldName { en: "Name", de: "Name", nb: "Navn" }
    FieldWebsite { en: "Website", de: "Website", nb: "Nettsted" }
    FieldVendorRole { en: "Role in the AI supply chain", de: "Rolle in der KI-Lieferkette", nb: "Rolle i KI-leverandørkjeden" }
    FieldVendorRoleHint {
        en: "Who trains the model, who runs it, who sells the application, or who built it into your systems.",
        de: "Wer das Modell trainiert, wer es betreibt, wer die Anwendung verkauft oder wer sie in Ihre Systeme eingebaut hat.",
        nb: "Hvem som trener modellen, hvem som drifter den, hvem som selger applikasjonen, eller hvem som bygde den inn i systemene deres.",
    }
    LinksTitle { en: "Documents and pages", de: "Dokumente und Seiten", nb: "Dokumenter og sider" }
    FieldDpaUrl { en: "Data processing agreement (DPA)", de: "Auftragsverarbeitungsvertrag (AVV)", nb: "Databehandleravtale" }
    FieldPrivacyUrl { en: "Privacy policy", de: "Datenschutzerklärung", nb: "Personvernerklæring" }
    FieldSubprocessorsUrl { en: "List of sub-processors", de: "Liste der Unterauftragsverarbeiter", nb: "Liste over underdatabehandlere" }
    FieldStatusUrl { en: "Status page", de: "Statusseite", nb: "Statusside" }
    FieldTrustUrl { en: "Trust or security page", de: "Trust- oder Sicherheitsseite", nb: "Tillits- eller sikkerhetsside" }
    FieldNotes { en: "Notes", de: "Notizen", nb: "Notater" }
    ContactsTitle { en: "Contacts", de: "Kontakte", nb: "Kontakter" }
    ContactsLead {
        en: "The people who receive the questions, e.g. the security team or the data protection officer. The primary contact is suggested first.",
        de: "Die Personen, die die Fragen erhalten, z. B. das Sicherheitsteam oder die Datenschutzbeauftragten. Der Hauptkontakt wird zuerst vorgeschlagen.",
        nb: "Personene som får spørsmålene, for eksempel sikkerhetsteamet eller personvernombudet. Hovedkontakten foreslås først.",
    }
    FieldContactLang { en: "Language for mails", de: "Sprache für E-Mails", nb: "Språk for e-post" }
    FieldPrimary { en: "Primary contact", de: "Hauptkontakt", nb: "Hovedkontakt" }
    AddContact { en: "Add contact", de: "Kontakt hinzufügen", nb: "Legg til kontakt" }
    RemoveContact { en: "Remove contact", de: "Kontakt entfernen", nb: "Fjern kontakt" }
    MakePrimary { en: "Make primary", de: "Zum Hauptkontakt machen", nb: "Gjør til hovedkontakt" }
    NoContacts { en: "No contacts yet.", de: "Noch keine Kontakte.", nb: "Ingen kontakter ennå." }
    FieldPurpose { en: "Purpose in our business", de: "Zweck in unserem Unternehmen", nb: "Formål i virksomheten vår" }
    FieldVendor { en: "Vendor", de: "Anbieter", nb: "Leverandør" }
    FieldVendorHint {
        en: "The company you have the contract with. Add it under Vendors first if it is missing.",
        de: "Das Unternehmen, mit dem Sie den Vertrag haben. Legen Sie es zuerst unter Anbieter an, falls es fehlt.",
        nb: "Selskapet dere har avtalen med. Legg det til under Leverandører først hvis det mangler.",
    }
    FieldVendorHintNew {
        en: "The company you have the contract with. Not in the list? Type its name below.",
        de: "Das Unternehmen, mit dem Sie den Vertrag haben. Nicht in der Liste? Geben Sie den Namen unten ein.",
        nb: "Selskapet dere har avtalen med. Ikke i listen? Skriv navnet nedenfor.",
    }
    FieldIntegrator { en: "Built in by (integrator)", de: "Eingebaut von (Integrator)", nb: "Bygget inn av (integrator)" }
    FieldModelProvider { en: "Model provider", de: "Modellanbieter", nb: "Modelleverandør" }
    FieldInferenceHost { en: "Inference host", de: "Inferenz-Hoster", nb: "Inferensvert" }
    FieldModel { en: "Model and version", de: "Modell und Version", nb: "Modell og versjon" }
    FieldEngine { en: "Inference engine and version", de: "Inferenz-Software und Version", nb: "Inferensprogramvare og versjon" }
    FieldEngineHint {
        en: "If known, for example SGLang 0.5.19 or vLLM 0.11.",
        de: "Falls bekannt, zum Beispiel SGLang 0.5.19 oder vLLM 0.11.",
        nb: "Hvis kjent, for eksempel SGLang 0.5.19 eller vLLM 0.11.",
    }
    FieldDeployment { en: "Deployment", de: "Betriebsform", nb: "Driftsform" }
    FieldOwner { en: "Internal owner", de: "Verantwortlich bei uns", nb: "Ansvarlig hos oss" }
    FieldStatus { en: "Status", de: "Status", nb: "Status" }
    FieldDataClasses { en: "Data sent to it", de: "Daten, die an den Dienst gehen", nb: "Data som sendes til tjenesten" }
    ContractTitle { en: "What the contract says", de: "Was der Vertrag sagt", nb: "Hva avtalen sier" }
    FieldDpaSignedOn { en: "DPA signed on", de: "AVV unterzeichnet am", nb: "Databehandleravtale signert" }
    FieldNoticeHours { en: "Incident notification deadline (hours)", de: "Meldefrist bei Vorfällen (Stunden)", nb: "Frist for varsling av hendelser (timer)" }
    FieldNoticeChannel { en: "Notification channel", de: "Meldeweg", nb: "Varslingskanal" }
    FieldNoticeChannelHint {
        en: "How the vendor tells you, e.g. email to your security address.",
        de: "Wie der Anbieter Sie informiert, z. B. per E-Mail an Ihre Sicherheitsadresse.",
        nb: "Hvordan leverandøren varsler dere, for eksempel e-post til sikkerhetsadressen deres.",
    }
    FieldAuthorityNotifier {
        en: "Who notifies the supervisory authority",
        de: "Wer meldet an die Aufsichtsbehörde",
        nb: "Hvem varsler tilsynsmyndigheten",
    }
    SupplyChainTitle { en: "Supply chain", de: "Lieferkette", nb: "Leverandørkjede" }
    NoneChosen { en: "None", de: "Keine Angabe", nb: "Ingen" }
    ChooseVendor { en: "Choose a vendor", de: "Anbieter wählen", nb: "Velg leverandør" }
    ChooseOne { en: "Choose…", de: "Bitte wählen…", nb: "Velg …" }
    NotKnown { en: "Not known", de: "Nicht bekannt", nb: "Ikke kjent" }
    FindingsTitle { en: "What the documents say", de: "Was die Dokumente sagen", nb: "Hva dokumentene sier" }
    FindingsLead {
        en: "For each topic, note what the contract and help pages say, and where. Unknown is a fine answer until the vendor replies.",
        de: "Notieren Sie zu jedem Thema, was Vertrag und Hilfeseiten sagen und wo. „Unbekannt“ ist in Ordnung, bis der Anbieter antwortet.",
        nb: "Noter for hvert tema hva avtalen og hjelpesidene sier, og hvor. «Ukjent» er greit til leverandøren svarer.",
    }
    FieldSummary { en: "What it says", de: "Was dort steht", nb: "Hva det står" }
    FieldSourceUrl { en: "Source (link)", de: "Quelle (Link)", nb: "Kilde (lenke)" }
    FieldCheckedOn { en: "Checked on", de: "Geprüft am", nb: "Kontrollert" }
    Archive { en: "Archive", de: "Archivieren", nb: "Arkiver" }
    Unarchive { en: "Restore", de: "Wiederherstellen", nb: "Gjenopprett" }
    ArchivedBadge { en: "Archived", de: "Archiviert", nb: "Arkivert" }
    Delete { en: "Delete", de: "Löschen", nb: "Slett" }
    ConfirmDeleteVendor {
        en: "Delete the vendor {name} with its contacts? This cannot be undone.",
        de: "Den Anbieter {name} mit seinen Kontakten löschen? Das lässt sich nicht rückgängig machen.",
        nb: "Slette leverandøren {name} med kontaktene? Dette kan ikke angres.",
    }
    ConfirmDeleteService {
        en: "Delete the service {name} with its findings? This cannot be undone.",
        de: "Den Dienst {name} mit seinen Feststellungen löschen? Das lässt sich nicht rückgängig machen.",
        nb: "Slette tjenesten {name} med funnene? Dette kan ikke angres.",
    }
    ConfirmDelete { en: "Delete for good", de: "Endgültig löschen", nb: "Slett for godt" }
    Edit { en: "Edit", de: "Bearbeiten", nb: "Rediger" }
    Search { en: "Search", de: "Suche", nb: "Søk" }
    FilterAll { en: "All", de: "Alle", nb: "Alle" }
    ShowArchived { en: "Include archived", de: "Archivierte einbeziehen", nb: "Ta med arkiverte" }
    SortBy { en: "Sort by", de: "Sortieren nach", nb: "Sorter etter" }
    LastChanged { en: "Last changed", de: "Zuletzt geändert", nb: "Sist endret" }
    ApplyFilters { en: "Show", de: "Anzeigen", nb: "Vis" }
    ResultsRange { en: "{from}–{to} of {total}", de: "{from}–{to} von {total}", nb: "{from}–{to} av {total}" }
    Pagination { en: "Pages", de: "Seiten", nb: "Sider" }
    PrevPage { en: "Previous", de: "Zurück", nb: "Forrige" }
    NextPage { en: "Next", de: "Weiter", nb: "Neste" }
    NoMatches { en: "Nothing matches these filters.", de: "Nichts passt zu diesen Filtern.", nb: "Ingenting passer med disse filtrene." }
    FindingsKnown { en: "Findings", de: "Feststellungen", nb: "Funn" }
    SendsPersonalData { en: "Personal data", de: "Personenbezug", nb: "Personopplysninger" }
    UsedBy { en: "Used by", de: "Verwendet von", nb: "Brukt av" }
    NoServicesYet { en: "No services name this vendor yet.", de: "Noch kein Dienst nennt diesen Anbieter.", nb: "Ingen tjenester viser til denne leverandøren ennå." }
    BackToList { en: "Back to the list", de: "Zurück zur Liste", nb: "Tilbake til listen" }

    // --- dashboard ---
    DashInventoryTitle { en: "Your AI services", de: "Ihre KI-Dienste", nb: "KI-tjenestene deres" }
    DashVendors { en: "Vendors", de: "Anbieter", nb: "Leverandører" }
    DashPersonal { en: "Receive personal data", de: "Erhalten personenbezogene Daten", nb: "Mottar personopplysninger" }
    DashOpenFindings { en: "With unknown findings", de: "Mit ungeklärten Punkten", nb: "Med uavklarte punkter" }
    StepDone { en: "Done", de: "Erledigt", nb: "Ferdig" }

    // --- data classes ---
    DataClassesTitle { en: "Data classes", de: "Datenklassen", nb: "Dataklasser" }
    DataClassesLead {
        en: "The kinds of data you tell apart. Each service records which of them it receives; mark the ones that are personal data.",
        de: "Die Arten von Daten, die Sie unterscheiden. Zu jedem Dienst wird festgehalten, welche er erhält; markieren Sie die personenbezogenen.",
        nb: "Typene data dere skiller mellom. For hver tjeneste registreres hvilke den mottar; merk dem som er personopplysninger.",
    }
    FieldPersonal { en: "Counts as personal data", de: "Gilt als personenbezogen", nb: "Regnes som personopplysninger" }
    AddDataClass { en: "Add data class", de: "Datenklasse hinzufügen", nb: "Legg til dataklasse" }
    FieldArchived { en: "Archived", de: "Archiviert", nb: "Arkivert" }

    // --- several services at once ---
    QuickEntry { en: "Add several", de: "Mehrere hinzufügen", nb: "Legg til flere" }
    QuickTitle { en: "Add several services", de: "Mehrere Dienste hinzufügen", nb: "Legg til flere tjenester" }
    QuickLead {
        en: "Tick the AI services you use, or type a row for each of your own. Vendors you have not listed yet are added by name; data, contract and supply chain follow on each service's page.",
        de: "Kreuzen Sie die KI-Dienste an, die Sie nutzen, oder tragen Sie für jeden eigenen eine Zeile ein. Noch nicht erfasste Anbieter werden mit ihrem Namen angelegt; Daten, Vertrag und Lieferkette folgen auf der Seite jedes Dienstes.",
        nb: "Kryss av for KI-tjenestene dere bruker, eller skriv en rad for hver av deres egne. Leverandører som ikke er registrert ennå, legges til med navnet; data, avtale og leverandørkjede fyller dere inn på siden til hver tjeneste.",
    }
    QuickCatalogueTitle { en: "Widely used AI services", de: "Verbreitete KI-Dienste", nb: "Utbredte KI-tjenester" }
    QuickCatalogueHint {
        en: "Only the name and the vendor come from this list; it says nothing about their contracts.",
        de: "Aus dieser Liste kommen nur Name und Anbieter; über die Verträge sagt sie nichts.",
        nb: "Fra denne listen kommer bare navn og leverandør; den sier ingenting om avtalene.",
    }
    QuickRowsTitle { en: "Your own services", de: "Eigene Dienste", nb: "Egne tjenester" }
    QuickRowsHint {
        en: "An assistant your IT provider built into your software: its vendor is whose AI it uses, \"built in by\" the IT provider.",
        de: "Ein Assistent, den Ihr IT-Dienstleister in Ihre Software eingebaut hat: Anbieter ist, wessen KI er nutzt, „eingebaut von“ der IT-Dienstleister.",
        nb: "En assistent som IT-leverandøren har bygget inn i programvaren deres: leverandøren er den som leverer KI-en, «bygget inn av» er IT-leverandøren.",
    }
    QuickAlreadyListed { en: "already listed", de: "schon erfasst", nb: "allerede registrert" }
    QuickMoreRows {
        en: "Need more rows? Show {n} (before typing: the page loads again).",
        de: "Mehr Zeilen nötig? {n} zeigen (vor dem Eintragen: die Seite wird neu geladen).",
        nb: "Trenger dere flere rader? Vis {n} (før dere skriver: siden lastes på nytt).",
    }
    QuickSave { en: "Add these services", de: "Diese Dienste hinzufügen", nb: "Legg til disse tjenestene" }
    ColService { en: "Service", de: "Dienst", nb: "Tjeneste" }
    FieldVendorName { en: "Vendor", de: "Anbieter", nb: "Leverandør" }
    FieldBuiltInBy { en: "Built in by", de: "Eingebaut von", nb: "Bygget inn av" }
    FieldNewVendorName { en: "Or a new vendor", de: "Oder ein neuer Anbieter", nb: "Eller en ny leverandør" }
    FieldNewVendorNameHint {
        en: "Not in the list? Type its name: the vendor is added with it, details later on its page.",
        de: "Nicht in der Liste? Geben Sie den Namen ein: Der Anbieter wird damit angelegt, Details später auf seiner Seite.",
        nb: "Ikke i listen? Skriv navnet: leverandøren legges til sammen med tjenesten, detaljer senere på leverandørsiden.",
    }
    FieldNewVendorRole { en: "Its role", de: "Seine Rolle", nb: "Rollen" }
    ErrVendorOrNew {
        en: "Choose a vendor from the list or type a new one, not both.",
        de: "Wählen Sie einen Anbieter aus der Liste oder geben Sie einen neuen ein, nicht beides.",
        nb: "Velg en leverandør fra listen eller skriv inn en ny, ikke begge deler.",
    }
    ErrVendorNameRequired { en: "Please enter the vendor.", de: "Bitte geben Sie den Anbieter an.", nb: "Skriv inn leverandøren." }
    ErrQuickNothing {
        en: "Nothing to add yet: tick a service or fill in a row.",
        de: "Noch nichts hinzuzufügen: Kreuzen Sie einen Dienst an oder füllen Sie eine Zeile aus.",
        nb: "Ingenting å legge til ennå: kryss av for en tjeneste eller fyll ut en rad.",
    }
    ErrQuickTooMany {
        en: "That is more rows than one page takes. Add them in parts, or import a CSV.",
        de: "Das sind mehr Zeilen, als eine Seite aufnimmt. Fügen Sie sie in Teilen hinzu oder importieren Sie eine CSV-Datei.",
        nb: "Det er flere rader enn én side har plass til. Legg dem til i deler, eller importer en CSV.",
    }
    ErrQuickTickFirst {
        en: "Tick the service to add it, or clear this field.",
        de: "Kreuzen Sie den Dienst an, um ihn hinzuzufügen, oder leeren Sie dieses Feld.",
        nb: "Kryss av for tjenesten for å legge den til, eller tøm feltet.",
    }
    ErrCatalogueUnknown {
        en: "This service is not in the list (any more). Reload the page.",
        de: "Dieser Dienst ist nicht (mehr) in der Liste. Laden Sie die Seite neu.",
        nb: "Denne tjenesten er ikke (lenger) i listen. Last inn siden på nytt.",
    }
    ErrQuickNameTwice {
        en: "This name is on the page twice.",
        de: "Dieser Name steht zweimal auf der Seite.",
        nb: "Dette navnet står to ganger på siden.",
    }
    AuditServicesAdded {
        en: { one: "Added {n} service at once.", other: "Added {n} services at once." },
        de: { one: "{n} Dienst auf einmal hinzugefügt.", other: "{n} Dienste auf einmal hinzugefügt." },
        nb: { one: "La til {n} tjeneste på én gang.", other: "La til {n} tjenester på én gang." },
    }

    // --- CSV import and export ---
    ExportCsv { en: "Export CSV", de: "CSV exportieren", nb: "Eksporter CSV" }
    ExportCsvExcel { en: "CSV for Excel (comma-separated)", de: "CSV für Excel (Semikolon getrennt)", nb: "CSV for Excel (semikolonseparert)" }
    ImportCsv { en: "Import CSV", de: "CSV importieren", nb: "Importer CSV" }
    ImportTitle { en: "Import services from CSV", de: "Dienste aus CSV importieren", nb: "Importer tjenester fra CSV" }
    ImportLead {
        en: "Paste the CSV below. Nothing is saved until you confirm the check; then every row is saved, or none.",
        de: "Fügen Sie die CSV unten ein. Gespeichert wird erst, wenn Sie die Prüfung bestätigen; dann alle Zeilen oder keine.",
        nb: "Lim inn CSV-en nedenfor. Ingenting lagres før dere bekrefter kontrollen; da lagres alle radene, eller ingen.",
    }
    DownloadTemplate { en: "Download the template", de: "Vorlage herunterladen", nb: "Last ned malen" }
    FieldCsv { en: "CSV content", de: "CSV-Inhalt", nb: "CSV-innhold" }
    CheckImport { en: "Check", de: "Prüfen", nb: "Kontroller" }
    ImportConfirm { en: "Import these services", de: "Diese Dienste importieren", nb: "Importer disse tjenestene" }
    ImportRow { en: "Row", de: "Zeile", nb: "Rad" }
    ImportColumn { en: "Column", de: "Spalte", nb: "Kolonne" }
    ImportProblem { en: "Problem", de: "Problem", nb: "Problem" }
    ImportHasErrors {
        en: {
            one: "One problem found. Correct the file and check again; nothing was saved.",
            other: "{n} problems found. Correct the file and check again; nothing was saved.",
        },
        de: {
            one: "Ein Problem gefunden. Korrigieren Sie die Datei und prüfen Sie erneut; nichts wurde gespeichert.",
            other: "{n} Probleme gefunden. Korrigieren Sie die Datei und prüfen Sie erneut; nichts wurde gespeichert.",
        },
        nb: {
            one: "Ett problem funnet. Rett filen og kontroller på nytt; ingenting ble lagret.",
            other: "{n} problemer funnet. Rett filen og kontroller på nytt; ingenting ble lagret.",
        },
    }
    ImportReady {
        en: {
            one: "The one row is valid. New vendors to be created: {vendors}.",
            other: "All {n} rows are valid. New vendors to be created: {vendors}.",
        },
        de: {
            one: "Die eine Zeile ist gültig. Neu angelegte Anbieter: {vendors}.",
            other: "Alle {n} Zeilen sind gültig. Neu angelegte Anbieter: {vendors}.",
        },
        nb: {
            one: "Den ene raden er gyldig. Nye leverandører som opprettes: {vendors}.",
            other: "Alle {n} radene er gyldige. Nye leverandører som opprettes: {vendors}.",
        },
    }
    ImportDone {
        en: { one: "{n} service imported.", other: "{n} services imported." },
        de: { one: "{n} Dienst importiert.", other: "{n} Dienste importiert." },
        nb: { one: "{n} tjeneste importert.", other: "{n} tjenester importert." },
    }
    ErrCsvColumnMissing { en: "This column is missing.", de: "Diese Spalte fehlt.", nb: "Denne kolonnen mangler." }
    ErrCsvEmpty { en: "The file holds no services.", de: "Die Datei enthält keine Dienste.", nb: "Filen inneholder ingen tjenester." }
    ErrCsvUnreadable {
        en: "This row cannot be read as CSV (UTF-8, separated by commas or semicolons).",
        de: "Diese Zeile lässt sich nicht als CSV lesen (UTF-8, getrennt durch Kommas oder Semikolons).",
        nb: "Denne raden kan ikke leses som CSV (UTF-8, skilt med komma eller semikolon).",
    }
    ErrCsvTooMany { en: "At most 5,000 rows per import.", de: "Höchstens 5.000 Zeilen pro Import.", nb: "Høyst 5 000 rader per import." }
    ErrDuplicateInFile { en: "This name appears more than once in the file.", de: "Dieser Name kommt in der Datei mehrfach vor.", nb: "Dette navnet står mer enn én gang i filen." }

    // --- the five questions and the optional ones (shared/PRODUCT.md) ---
    QSeparation {
        en: "How do you separate the data of different customers on shared machines — in inference itself, not only in storage and network?",
        de: "Wie trennen Sie die Daten verschiedener Kunden auf gemeinsam genutzten Maschinen – in der Inferenz selbst, nicht nur bei Speicherung und Netzwerk?",
        nb: "Hvordan skiller dere dataene til ulike kunder på delte maskiner – i selve inferensen, ikke bare i lagring og nettverk?",
    }
    QSeparationWhy {
        en: "In autumn 2026 an inference engine served one customer's prompts to others although storage and network were separated.",
        de: "Im Herbst 2026 gab eine Inferenz-Software Eingaben eines Kunden an andere Kunden aus, obwohl Speicherung und Netzwerk getrennt waren.",
        nb: "Høsten 2026 ga en inferensmotor én kundes forespørsler til andre kunder, selv om lagring og nettverk var atskilt.",
    }
    QRetention {
        en: "How long do our requests stay in caches and intermediate storage?",
        de: "Wie lange bleiben unsere Anfragen in Caches und Zwischenspeichern?",
        nb: "Hvor lenge blir forespørslene våre liggende i hurtigbuffere og mellomlagring?",
    }
    QRetentionWhy {
        en: "Whatever is kept can leak; we need to know how long our data exists outside our control.",
        de: "Was gespeichert bleibt, kann abfließen; wir müssen wissen, wie lange unsere Daten außerhalb unserer Kontrolle existieren.",
        nb: "Det som lagres, kan lekke; vi må vite hvor lenge dataene våre finnes utenfor vår kontroll.",
    }
    QLeakTests {
        en: "Do you test for data mixing between customers (cross-tenant leakage), and how?",
        de: "Testen Sie auf Vermischung von Daten zwischen Kunden (mandantenübergreifende Lecks), und wie?",
        nb: "Tester dere for sammenblanding av data mellom kunder (lekkasje på tvers av kunder), og hvordan?",
    }
    QLeakTestsWhy {
        en: "Tests that only check for error codes missed the 2026 incident: the wrong answers came back without an error.",
        de: "Tests, die nur Fehlercodes prüfen, haben den Vorfall von 2026 übersehen: Die falschen Antworten kamen ohne Fehler zurück.",
        nb: "Tester som bare ser etter feilkoder, oppdaget ikke hendelsen i 2026: De gale svarene kom tilbake uten feil.",
    }
    QNotification {
        en: "When and how will we be informed of an incident, and is there a fixed deadline for that in our contract?",
        de: "Wann und wie werden wir über einen Vorfall informiert, und gibt es dafür eine feste Frist in unserem Vertrag?",
        nb: "Når og hvordan blir vi varslet om en hendelse, og har avtalen vår en fast frist for det?",
    }
    QNotificationWhy {
        en: "When personal data is involved we must report to the supervisory authority within 72 hours (GDPR Art. 33), so we need to hear from you quickly.",
        de: "Sind personenbezogene Daten betroffen, müssen wir binnen 72 Stunden an die Aufsichtsbehörde melden (Art. 33 DSGVO); dafür brauchen wir Ihre Nachricht rasch.",
        nb: "Gjelder det personopplysninger, må vi melde fra til tilsynsmyndigheten innen 72 timer (GDPR art. 33), så vi trenger å høre fra dere raskt.",
    }
    QAfterIncident {
        en: "After an incident: how would we learn which of our data was in the affected system, and who reports to the supervisory authority when personal data is involved?",
        de: "Nach einem Vorfall: Wie erfahren wir, welche unserer Daten im betroffenen System waren, und wer meldet an die Aufsichtsbehörde, wenn personenbezogene Daten betroffen sind?",
        nb: "Etter en hendelse: Hvordan får vi vite hvilke av dataene våre som var i det berørte systemet, og hvem melder fra til tilsynsmyndigheten når personopplysninger er berørt?",
    }
    QAfterIncidentWhy {
        en: "We can only assess the risk to the people concerned, and report correctly, if we know what was exposed and who does what.",
        de: "Nur wenn wir wissen, was offengelegt wurde und wer was tut, können wir das Risiko für die Betroffenen einschätzen und richtig melden.",
        nb: "Bare når vi vet hva som ble eksponert og hvem som gjør hva, kan vi vurdere risikoen for de berørte og melde riktig.",
    }
    QIncident {
        en: "About the incident \"{title}\" (we learned of it on {aware}): when did you become aware of it, when was it fixed, and when and how did you inform us? Which of our data was in the affected system?",
        de: "Zum Vorfall „{title}“ (uns bekannt seit {aware}): Wann haben Sie davon erfahren, wann wurde er behoben, und wann und wie haben Sie uns informiert? Welche unserer Daten waren im betroffenen System?",
        nb: "Om hendelsen «{title}» (kjent for oss siden {aware}): Når fikk dere vite om den, når ble den rettet, og når og hvordan varslet dere oss? Hvilke av dataene våre var i det berørte systemet?",
    }
    QIncidentWhy {
        en: "We must decide within 72 hours whether to notify the supervisory authority (GDPR Art. 33), and for that we need your timeline and what of ours was exposed.",
        de: "Wir müssen binnen 72 Stunden entscheiden, ob wir die Aufsichtsbehörde benachrichtigen (Art. 33 DSGVO); dafür brauchen wir Ihren zeitlichen Ablauf und was von unseren Daten offengelegt wurde.",
        nb: "Vi må innen 72 timer avgjøre om vi skal varsle tilsynsmyndigheten (GDPR art. 33), og til det trenger vi tidslinjen deres og hva av våre data som ble eksponert.",
    }
    AskAboutIncidentNote {
        en: "Asking about the incident \"{title}\": its own question comes first, and the question about the inference software is ticked.",
        de: "Sie fragen zum Vorfall „{title}“: Die Frage dazu steht an erster Stelle, und die Frage nach der Inferenz-Software ist angekreuzt.",
        nb: "Du spør om hendelsen «{title}»: Spørsmålet om den kommer først, og spørsmålet om inferensprogramvaren er krysset av.",
    }
    QEngines {
        en: "Which inference software and versions do you run, and how do you track and apply its security fixes?",
        de: "Welche Inferenz-Software in welchen Versionen setzen Sie ein, und wie verfolgen und installieren Sie deren Sicherheitskorrekturen?",
        nb: "Hvilken inferensprogramvare og hvilke versjoner bruker dere, og hvordan følger dere med på og installerer sikkerhetsrettelser?",
    }
    QEnginesWhy {
        en: "The 2026 fault was fixed in a later engine release; services on older versions stayed exposed.",
        de: "Der Fehler von 2026 wurde in einer späteren Version der Software behoben; Dienste mit älteren Versionen blieben angreifbar.",
        nb: "Feilen fra 2026 ble rettet i en senere versjon av programvaren; tjenester på eldre versjoner var fortsatt sårbare.",
    }
    QOverlong {
        en: "What happens to a request that is longer than your cache pool: is it rejected, or truncated or replaced?",
        de: "Was geschieht mit einer Anfrage, die länger ist als Ihr Cache-Speicher: Wird sie abgelehnt, oder gekürzt bzw. ersetzt?",
        nb: "Hva skjer med en forespørsel som er lengre enn hurtigbufferen deres: Blir den avvist, eller avkortet eller erstattet?",
    }
    QOverlongWhy {
        en: "An over-long request that was not rejected is how one customer's data reached another in 2026.",
        de: "Eine zu lange Anfrage, die nicht abgelehnt wurde, war 2026 der Weg, auf dem Daten eines Kunden zu einem anderen gelangten.",
        nb: "En for lang forespørsel som ikke ble avvist, var i 2026 veien én kundes data tok til en annen.",
    }
    QTraining {
        en: "Are our prompts or outputs used for training, or kept in logs, and if so for how long?",
        de: "Werden unsere Eingaben oder Ausgaben für Training verwendet oder in Protokollen gespeichert, und wenn ja, wie lange?",
        nb: "Brukes forespørslene eller svarene våre til trening, eller lagres de i logger, og i så fall hvor lenge?",
    }
    QTrainingWhy {
        en: "Data used for training or kept in logs lives on beyond the request and needs its own legal basis.",
        de: "Daten, die für Training genutzt oder protokolliert werden, leben über die Anfrage hinaus und brauchen eine eigene Rechtsgrundlage.",
        nb: "Data som brukes til trening eller lagres i logger, lever videre etter forespørselen og trenger eget rettslig grunnlag.",
    }
    QSupplyChain {
        en: "What is your place in the AI supply chain (model provider, inference host, application), and who are your sub-processors?",
        de: "Welche Rolle haben Sie in der KI-Lieferkette (Modellanbieter, Inferenz-Hoster, Anwendung), und wer sind Ihre Unterauftragsverarbeiter?",
        nb: "Hvilken plass har dere i KI-leverandørkjeden (modelleverandør, inferensvert, applikasjon), og hvem er underdatabehandlerne deres?",
    }
    QSupplyChainWhy {
        en: "The party that runs the model may not be the one we have a contract with; we need to know everyone who handles our data.",
        de: "Wer das Modell betreibt, ist nicht unbedingt unser Vertragspartner; wir müssen alle kennen, die unsere Daten verarbeiten.",
        nb: "Den som drifter modellen, er ikke nødvendigvis den vi har avtale med; vi må kjenne alle som behandler dataene våre.",
    }
    ReviewSatisfactory { en: "Satisfactory", de: "Zufriedenstellend", nb: "Tilfredsstillende" }
    ReviewUnclear { en: "Unclear", de: "Unklar", nb: "Uklart" }
    ReviewMissing { en: "Missing", de: "Fehlt", nb: "Mangler" }
    AssessmentNotAsked { en: "Not asked", de: "Nicht gefragt", nb: "Ikke spurt" }
    AssessmentAsked { en: "Asked", de: "Gefragt", nb: "Spurt" }
    AssessmentAnswered { en: "Answered, to review", de: "Beantwortet, zu prüfen", nb: "Besvart, skal vurderes" }
    AssessmentCleared { en: "Cleared", de: "Freigegeben", nb: "Godkjent" }
    AssessmentConditional { en: "Cleared with conditions", de: "Mit Auflagen freigegeben", nb: "Godkjent med vilkår" }
    AssessmentNotCleared { en: "Not cleared", de: "Nicht freigegeben", nb: "Ikke godkjent" }
    RequestSent { en: "Waiting for the answer", de: "Antwort ausstehend", nb: "Venter på svar" }
    RequestDraft { en: "Draft saved by the vendor", de: "Entwurf vom Anbieter gespeichert", nb: "Utkast lagret av leverandøren" }
    RequestSubmitted { en: "Answered", de: "Beantwortet", nb: "Besvart" }
    ErrFormExpired { en: "This form has expired. Please reload the page and try again.", de: "Dieses Formular ist abgelaufen. Bitte laden Sie die Seite neu und versuchen Sie es erneut.", nb: "Dette skjemaet er utløpt. Last inn siden på nytt og prøv igjen." }
    ErrChooseContact { en: "Please choose at least one contact.", de: "Bitte wählen Sie mindestens einen Kontakt.", nb: "Velg minst én kontakt." }
    ErrDeadlineRequired { en: "Please enter the date by which you need the answer.", de: "Bitte geben Sie an, bis wann Sie die Antwort brauchen.", nb: "Skriv inn datoen du trenger svaret innen." }
    ErrDeadlinePast { en: "The deadline must be after today.", de: "Die Frist muss nach dem heutigen Tag liegen.", nb: "Fristen må være etter i dag." }
    ErrAnswerRequired { en: "Please answer this question; a short \"does not apply\" with the reason is fine.", de: "Bitte beantworten Sie diese Frage; ein kurzes „trifft nicht zu“ mit Begründung genügt.", nb: "Svar på dette spørsmålet; et kort «gjelder ikke» med begrunnelse er greit." }
    ErrRequestClosed { en: "These answers were submitted and are closed for changes.", de: "Diese Antworten wurden abgeschickt und können nicht mehr geändert werden.", nb: "Disse svarene er sendt inn og kan ikke lenger endres." }
    ErrNothingToAskAgain { en: "Every answer is satisfactory; there is nothing to ask again.", de: "Alle Antworten sind zufriedenstellend; es gibt nichts nachzufragen.", nb: "Alle svar er tilfredsstillende; det er ingenting å spørre om igjen." }
    ErrNotAnsweredYet { en: "The vendor has not answered yet.", de: "Der Anbieter hat noch nicht geantwortet.", nb: "Leverandøren har ikke svart ennå." }
    QuestionsTitle { en: "Questions to the vendor", de: "Fragen an den Anbieter", nb: "Spørsmål til leverandøren" }
    AssessmentLabel { en: "Assessment", de: "Bewertung", nb: "Vurdering" }
    FollowUpOn { en: "Follow up by", de: "Wiedervorlage am", nb: "Følg opp innen" }
    AskVendor { en: "Ask the vendor", de: "Anbieter befragen", nb: "Spør leverandøren" }
    NoRequests { en: "No questions sent yet.", de: "Noch keine Fragen verschickt.", nb: "Ingen spørsmål sendt ennå." }
    RequestTo { en: "To", de: "An", nb: "Til" }
    RequestSentAt { en: "Sent", de: "Gesendet", nb: "Sendt" }
    RequestDeadline { en: "Answer by", de: "Antwort bis", nb: "Svar innen" }
    RequestStatusLabel { en: "State", de: "Stand", nb: "Status" }
    RequestMail { en: "Mail", de: "E-Mail", nb: "E-post" }
    RequestOpenItems { en: "Open questions", de: "Offene Fragen", nb: "Åpne spørsmål" }
    RequestOpen { en: "Open", de: "Öffnen", nb: "Åpne" }
    LinkRevoked { en: "Link withdrawn", de: "Link zurückgezogen", nb: "Lenken er trukket tilbake" }
    LinkExpired { en: "Link expired", de: "Link abgelaufen", nb: "Lenken er utløpt" }
    TimelineTitle { en: "Timeline", de: "Verlauf", nb: "Tidslinje" }
    EventToWithQuestions {
        en: { one: "{name} <{email}>, {n} question", other: "{name} <{email}>, {n} questions" },
        de: { one: "{name} <{email}>, {n} Frage", other: "{name} <{email}>, {n} Fragen" },
        nb: { one: "{name} <{email}>, {n} spørsmål", other: "{name} <{email}>, {n} spørsmål" },
    }
    EventReviewedDetail { en: "Question {question}: {review}", de: "Frage {question}: {review}", nb: "Spørsmål {question}: {review}" }
    AnsweredViaPortal { en: "On the answer page", de: "Auf der Antwortseite", nb: "På svarsiden" }
    AnsweredViaManual { en: "Entered from a mail or letter", de: "Aus E-Mail oder Brief erfasst", nb: "Registrert fra e-post eller brev" }
    EventFollowUpMoved { en: "Follow-up moved", de: "Wiedervorlage verschoben", nb: "Oppfølging flyttet" }
    EventFollowUpMovedDetail { en: "{reason}, now {due_on}", de: "{reason}, jetzt am {due_on}", nb: "{reason}, nå {due_on}" }
    EventFollowUpDone { en: "Follow-up marked done", de: "Wiedervorlage erledigt", nb: "Oppfølging markert som ferdig" }
    EventReminderSent { en: "Reminder sent", de: "Erinnerung gesendet", nb: "Påminnelse sendt" }
    EventReminderSentDetail { en: "{to}, reminder {number}", de: "{to}, Erinnerung {number}", nb: "{to}, påminnelse {number}" }
    EventNoAnswer { en: "No answer", de: "Keine Antwort", nb: "Intet svar" }
    EventNoAnswerDetail {
        en: { one: "{to} did not answer after {n} reminder", other: "{to} did not answer after {n} reminders" },
        de: { one: "{to} hat nach {n} Erinnerung nicht geantwortet", other: "{to} hat nach {n} Erinnerungen nicht geantwortet" },
        nb: { one: "{to} svarte ikke etter {n} påminnelse", other: "{to} svarte ikke etter {n} påminnelser" },
    }
    EventDeadlinePassed { en: "Deadline passed without an answer", de: "Frist ohne Antwort verstrichen", nb: "Fristen gikk ut uten svar" }
    EventDeadlinePassedDetail { en: "{to}, due {deadline}", de: "{to}, fällig am {deadline}", nb: "{to}, frist {deadline}" }
    JobQueued { en: "Waiting", de: "Wartet", nb: "Venter" }
    JobRunning { en: "Running", de: "Läuft", nb: "Kjører" }
    JobDone { en: "Done", de: "Erledigt", nb: "Ferdig" }
    JobRetrying { en: "Failed; will be tried again", de: "Fehlgeschlagen; wird erneut versucht", nb: "Mislyktes; prøves igjen" }
    JobFailed { en: "Failed", de: "Fehlgeschlagen", nb: "Mislyktes" }
    JobSweep { en: "Hourly housekeeping", de: "Stündliche Aufräumarbeiten", nb: "Opprydding hver time" }
    JobDeadlinePassed { en: "Noting a passed deadline", de: "Verstrichene Frist vermerken", nb: "Registrere en utløpt frist" }
    JobReminder { en: "Reminding a vendor", de: "Anbieter erinnern", nb: "Minne en leverandør" }
    JobNoAnswer { en: "Marking a request unanswered", de: "Anfrage als unbeantwortet markieren", nb: "Markere en forespørsel som ubesvart" }
    JobDigest { en: "A member's digest", de: "Übersicht für ein Mitglied", nb: "Oversikt for et medlem" }
    JobAnswersArrived { en: "Notice of a vendor's answers", de: "Hinweis auf Antworten eines Anbieters", nb: "Varsel om svar fra en leverandør" }
    JobsTitle { en: "Background work", de: "Hintergrundarbeiten", nb: "Bakgrunnsarbeid" }
    JobsLead {
        en: "Work that runs on its own: noting passed deadlines and, later, reminders. Work that failed is kept here with its error until it is tried again.",
        de: "Arbeiten, die von selbst laufen: verstrichene Fristen vermerken und künftig Erinnerungen. Fehlgeschlagene Arbeiten bleiben hier mit ihrem Fehler, bis sie erneut versucht werden.",
        nb: "Arbeid som går av seg selv: registrere utløpte frister og senere påminnelser. Arbeid som mislyktes, blir stående her med feilen til det prøves igjen.",
    }
    NoFailedJobs { en: "Nothing has failed.", de: "Nichts ist fehlgeschlagen.", nb: "Ingenting har mislyktes." }
    JobAttempts {
        en: { one: "{n} attempt", other: "{n} attempts" },
        de: { one: "{n} Versuch", other: "{n} Versuche" },
        nb: { one: "{n} forsøk", other: "{n} forsøk" },
    }
    JobWhat { en: "What", de: "Was", nb: "Hva" }
    JobDue { en: "Due", de: "Fällig", nb: "Forfaller" }
    EventSent { en: "Questions sent", de: "Fragen verschickt", nb: "Spørsmål sendt" }
    EventAskedAgain { en: "Asked again", de: "Erneut nachgefragt", nb: "Spurt på nytt" }
    EventDelivered { en: "Mail delivered to the mail server", de: "E-Mail an den Mailserver übergeben", nb: "E-post levert til e-posttjeneren" }
    EventSaved { en: "Draft saved by the vendor", de: "Entwurf vom Anbieter gespeichert", nb: "Utkast lagret av leverandøren" }
    EventSubmitted { en: "Answers submitted by the vendor", de: "Antworten vom Anbieter abgeschickt", nb: "Svar sendt inn av leverandøren" }
    EventEntered { en: "Answer entered from a mail or letter", de: "Antwort aus E-Mail oder Brief erfasst", nb: "Svar registrert fra e-post eller brev" }
    EventReviewed { en: "Answer reviewed", de: "Antwort geprüft", nb: "Svar vurdert" }
    EventDecided { en: "Decision recorded", de: "Entscheidung festgehalten", nb: "Beslutning registrert" }
    EventRevoked { en: "Answer link withdrawn", de: "Antwort-Link zurückgezogen", nb: "Svarlenken trukket tilbake" }
    EventReopened { en: "Reopened for changes", de: "Für Änderungen wieder geöffnet", nb: "Åpnet for endringer igjen" }
    DecisionLabel { en: "Decision", de: "Entscheidung", nb: "Beslutning" }
    DecisionNote { en: "Conditions or reasons", de: "Auflagen oder Gründe", nb: "Vilkår eller begrunnelse" }
    DecisionSave { en: "Record the decision", de: "Entscheidung festhalten", nb: "Registrer beslutningen" }
    AskTitle { en: "Ask the vendor the questions", de: "Dem Anbieter die Fragen stellen", nb: "Still leverandøren spørsmålene" }
    AskIntro {
        en: "The mail contains the questions themselves, a personal link to answer them without an account, and the deadline. Replies to the mail go to you.",
        de: "Die E-Mail enthält die Fragen selbst, einen persönlichen Link zum Beantworten ohne Konto und die Frist. Antworten auf die E-Mail gehen an Sie.",
        nb: "E-posten inneholder selve spørsmålene, en personlig lenke for å svare uten konto, og fristen. Svar på e-posten går til deg.",
    }
    AskContacts { en: "Send to", de: "Senden an", nb: "Send til" }
    AskNoContacts {
        en: "The vendors of this service have no contacts yet. Add one on the vendor's page first.",
        de: "Die Anbieter dieses Dienstes haben noch keine Kontakte. Legen Sie zuerst einen auf der Seite des Anbieters an.",
        nb: "Leverandørene til denne tjenesten har ingen kontakter ennå. Legg først til en på leverandørens side.",
    }
    AskLang { en: "Language of the mail", de: "Sprache der E-Mail", nb: "Språk i e-posten" }
    AskLangContact { en: "Each contact's own language", de: "Sprache des jeweiligen Kontakts", nb: "Kontaktens eget språk" }
    AskOptional { en: "Also ask", de: "Außerdem fragen", nb: "Spør også" }
    AskPreview { en: "Preview the mail", de: "Vorschau der E-Mail", nb: "Forhåndsvis e-posten" }
    AskSend { en: "Send the questions", de: "Fragen senden", nb: "Send spørsmålene" }
    AskSent {
        en: { one: "Sent to {n} contact.", other: "Sent to {n} contacts." },
        de: { one: "An {n} Kontakt gesendet.", other: "An {n} Kontakte gesendet." },
        nb: { one: "Sendt til {n} kontakt.", other: "Sendt til {n} kontakter." },
    }
    RequestTitle { en: "Questions to {vendor}", de: "Fragen an {vendor}", nb: "Spørsmål til {vendor}" }
    RequestSentBy { en: "Sent by", de: "Gesendet von", nb: "Sendt av" }
    RequestLinkUntil { en: "Link valid until", de: "Link gültig bis", nb: "Lenken gjelder til" }
    RequestResponder { en: "Answered by", de: "Beantwortet von", nb: "Besvart av" }
    RevokeLink { en: "Withdraw the link", de: "Link zurückziehen", nb: "Trekk tilbake lenken" }
    ReopenRequest { en: "Reopen for changes", de: "Für Änderungen öffnen", nb: "Åpne for endringer" }
    AskAgain { en: "Ask the open questions again", de: "Offene Fragen erneut stellen", nb: "Still de åpne spørsmålene på nytt" }
    EnterAnswers { en: "Enter an answer received by mail or letter", de: "Per E-Mail oder Brief erhaltene Antwort erfassen", nb: "Registrer et svar mottatt per e-post eller brev" }
    EarlierAnswer { en: "Earlier answer", de: "Frühere Antwort", nb: "Tidligere svar" }
    EarlierNote { en: "What we still need to know", de: "Was uns noch fehlt", nb: "Hva vi fortsatt trenger å vite" }
    AskAgainNoteFor { en: "What we still need to know about question {n}", de: "Was uns zu Frage {n} noch fehlt", nb: "Hva vi fortsatt trenger å vite om spørsmål {n}" }
    AskAgainNotesHint { en: "The mail quotes each earlier answer with the note below; change or clear it before sending.", de: "Die E-Mail zitiert jede frühere Antwort mit der Notiz darunter; ändern oder leeren Sie sie vor dem Senden.", nb: "E-posten siterer hvert tidligere svar med merknaden nedenfor; endre eller tøm den før sending." }
    AnswerLabel { en: "Answer", de: "Antwort", nb: "Svar" }
    NoAnswerYet { en: "No answer yet.", de: "Noch keine Antwort.", nb: "Ikke besvart ennå." }
    ReviewLabel { en: "Review", de: "Prüfung", nb: "Vurdering" }
    ReviewNote { en: "Reviewer's note", de: "Notiz der Prüfung", nb: "Merknad fra vurderingen" }
    ReviewSave { en: "Save review", de: "Prüfung speichern", nb: "Lagre vurderingen" }
    ReviewedBy { en: "Reviewed by {name} on {date}", de: "Geprüft von {name} am {date}", nb: "Vurdert av {name} den {date}" }
    ReceivedOn { en: "Received on", de: "Eingegangen am", nb: "Mottatt den" }
    ReceivedSource { en: "Received how (e.g. mail from the DPO)", de: "Eingegangen wie (z. B. E-Mail des DSB)", nb: "Mottatt hvordan (f.eks. e-post fra personvernombudet)" }
    WhyWeAsk { en: "Why we ask", de: "Warum wir fragen", nb: "Hvorfor vi spør" }
    PortalTitle { en: "Questions from {org}", de: "Fragen von {org}", nb: "Spørsmål fra {org}" }
    PortalIntro {
        en: "{org} uses {service} and asks you, as its supplier, these questions about how customers' data is kept apart and how incidents are reported. Please answer by {deadline}. You can save a draft and come back later with the same link.",
        de: "{org} nutzt {service} und stellt Ihnen als Anbieter diese Fragen dazu, wie die Daten von Kunden getrennt bleiben und wie Vorfälle gemeldet werden. Bitte antworten Sie bis {deadline}. Sie können einen Entwurf speichern und später mit demselben Link weitermachen.",
        nb: "{org} bruker {service} og stiller dere som leverandør disse spørsmålene om hvordan kundenes data holdes adskilt og hvordan hendelser meldes. Svar innen {deadline}. Dere kan lagre et utkast og fortsette senere med samme lenke.",
    }
    PortalResponder { en: "Who is answering", de: "Wer antwortet", nb: "Hvem svarer" }
    PortalRole { en: "Role or title", de: "Funktion", nb: "Rolle eller tittel" }
    PortalSaveDraft { en: "Save draft", de: "Entwurf speichern", nb: "Lagre utkast" }
    PortalSubmit { en: "Submit the answers", de: "Antworten abschicken", nb: "Send inn svarene" }
    PortalSaved { en: "Draft saved. You can come back with the same link.", de: "Entwurf gespeichert. Sie können mit demselben Link weitermachen.", nb: "Utkastet er lagret. Dere kan fortsette med samme lenke." }
    FieldRequiredMark { en: "required", de: "Pflichtfeld", nb: "må fylles ut" }
    PortalCheckFields { en: "Please check the marked fields. Nothing you typed has been lost.", de: "Bitte prüfen Sie die markierten Felder. Ihre Eingaben sind erhalten.", nb: "Kontroller de merkede feltene. Ingenting av det du skrev, har gått tapt." }
    PortalReceipt {
        en: "Thank you. Your answers were submitted on {date}. {org} has received them; this page shows what you sent.",
        de: "Vielen Dank. Ihre Antworten wurden am {date} abgeschickt. {org} hat sie erhalten; diese Seite zeigt, was Sie gesendet haben.",
        nb: "Takk. Svarene ble sendt inn {date}. {org} har mottatt dem; denne siden viser hva dere sendte.",
    }
    PortalReceiptNo { en: "Receipt number", de: "Belegnummer", nb: "Kvitteringsnummer" }
    PortalInvalidTitle { en: "This link does not work", de: "Dieser Link funktioniert nicht", nb: "Denne lenken virker ikke" }
    PortalInvalid {
        en: "The link may be mistyped, expired or withdrawn. No answers can be given or seen with it. Please ask the person who sent it to you for a new link.",
        de: "Der Link ist vielleicht falsch kopiert, abgelaufen oder zurückgezogen. Mit ihm lassen sich keine Antworten geben oder ansehen. Bitte bitten Sie die Person, die ihn Ihnen geschickt hat, um einen neuen Link.",
        nb: "Lenken kan være feilskrevet, utløpt eller trukket tilbake. Den kan ikke brukes til å gi eller se svar. Be personen som sendte den, om en ny lenke.",
    }
    PortalQuestion { en: "Question {n}", de: "Frage {n}", nb: "Spørsmål {n}" }
    ErrTooLong1000 { en: "At most 1,000 characters.", de: "Höchstens 1.000 Zeichen.", nb: "Høyst 1 000 tegn." }
    ErrQuestionRequired { en: "Please write the question.", de: "Bitte formulieren Sie die Frage.", nb: "Skriv spørsmålet." }
    ErrTooManyQuestions { en: "At most 16 questions per set.", de: "Höchstens 16 Fragen pro Fragenkatalog.", nb: "Høyst 16 spørsmål per spørsmålssett." }
    QuestionSetTitle { en: "Questions to vendors", de: "Fragen an Anbieter", nb: "Spørsmål til leverandører" }
    QuestionSetLead {
        en: "The five core questions go into every request. Switch on further questions, word them your way, or add your own. Each change is kept as a new version; requests already sent keep the wording they were sent with.",
        de: "Die fünf Kernfragen gehen in jede Anfrage. Schalten Sie weitere Fragen zu, formulieren Sie sie nach Ihren Wünschen oder ergänzen Sie eigene. Jede Änderung wird als neue Version gespeichert; bereits verschickte Anfragen behalten ihren Wortlaut.",
        nb: "De fem kjernespørsmålene går inn i hver forespørsel. Slå på flere spørsmål, formuler dem slik dere vil, eller legg til egne. Hver endring lagres som en ny versjon; forespørsler som alt er sendt, beholder ordlyden de ble sendt med.",
    }
    QuestionSetVersion { en: "Version {n}", de: "Version {n}", nb: "Versjon {n}" }
    QuestionCore { en: "Always asked", de: "Wird immer gefragt", nb: "Spørres alltid" }
    QuestionEnabled { en: "Ask by default", de: "Standardmäßig fragen", nb: "Spør som standard" }
    QuestionOwn { en: "Your own question", de: "Eigene Frage", nb: "Eget spørsmål" }
    QuestionRemove { en: "Remove this question", de: "Diese Frage entfernen", nb: "Fjern dette spørsmålet" }
    QuestionWording { en: "Wording", de: "Wortlaut", nb: "Ordlyd" }
    QuestionText { en: "Question ({lang})", de: "Frage ({lang})", nb: "Spørsmål ({lang})" }
    QuestionWhy { en: "Why we ask ({lang})", de: "Warum wir fragen ({lang})", nb: "Hvorfor vi spør ({lang})" }
    QuestionAdd { en: "Add a question of your own", de: "Eigene Frage hinzufügen", nb: "Legg til et eget spørsmål" }
    QuestionAddLang { en: "Language of the new question", de: "Sprache der neuen Frage", nb: "Språk for det nye spørsmålet" }
    QuestionSetSave { en: "Save as a new version", de: "Als neue Version speichern", nb: "Lagre som ny versjon" }
    EditQuestions { en: "Edit the questions", de: "Fragen bearbeiten", nb: "Rediger spørsmålene" }
    ErrSetChanged {
        en: "Someone else changed the questions meanwhile. Please reload the page to see their version, then make your change again.",
        de: "Jemand anders hat die Fragen inzwischen geändert. Bitte laden Sie die Seite neu, um dessen Fassung zu sehen, und nehmen Sie Ihre Änderung erneut vor.",
        nb: "Noen andre har endret spørsmålene i mellomtiden. Last inn siden på nytt for å se deres versjon, og gjør endringen din på nytt.",
    }
    ErrFileTooLargeNamed {
        en: "The document {name} is larger than {limit} and was not attached. Please attach a smaller file, for example a PDF of the pages that matter.",
        de: "Das Dokument {name} ist größer als {limit} und wurde nicht angehängt. Bitte hängen Sie eine kleinere Datei an, zum Beispiel ein PDF der wichtigen Seiten.",
        nb: "Dokumentet {name} er større enn {limit} og ble ikke lagt ved. Legg ved en mindre fil, for eksempel en PDF med sidene som betyr noe.",
    }
    ErrFileEmpty { en: "The file is empty.", de: "Die Datei ist leer.", nb: "Filen er tom." }
    ErrFileTooLarge { en: "Files can be at most 10 MB.", de: "Dateien dürfen höchstens 10 MB groß sein.", nb: "Filer kan være på høyst 10 MB." }
    ErrFileType {
        en: "Please attach a PDF, an office document (Word, Excel, PowerPoint, OpenDocument), a text file or a saved mail (.eml, .msg).",
        de: "Bitte hängen Sie ein PDF, ein Office-Dokument (Word, Excel, PowerPoint, OpenDocument), eine Textdatei oder eine gespeicherte E-Mail (.eml, .msg) an.",
        nb: "Legg ved en PDF, et kontordokument (Word, Excel, PowerPoint, OpenDocument), en tekstfil eller en lagret e-post (.eml, .msg).",
    }
    ErrTooManyFiles { en: "At most 10 files per request.", de: "Höchstens 10 Dateien pro Anfrage.", nb: "Høyst 10 filer per forespørsel." }
    AttachmentsTitle { en: "Attached documents", de: "Angehängte Dokumente", nb: "Vedlagte dokumenter" }
    AttachFile { en: "Attach a document (optional)", de: "Dokument anhängen (optional)", nb: "Legg ved et dokument (valgfritt)" }
    AttachFileHint {
        en: "PDF, office document, text or saved mail; at most 10 MB.",
        de: "PDF, Office-Dokument, Text oder gespeicherte E-Mail; höchstens 10 MB.",
        nb: "PDF, kontordokument, tekst eller lagret e-post; høyst 10 MB.",
    }
    AttachOriginal { en: "Attach the original mail or document", de: "Original-E-Mail oder -Dokument anhängen", nb: "Legg ved den opprinnelige e-posten eller dokumentet" }
    AttachUpload { en: "Upload", de: "Hochladen", nb: "Last opp" }
    AttachedBy { en: "from {who}", de: "von {who}", nb: "fra {who}" }
    PortalAttached { en: "The document {name} is attached.", de: "Das Dokument {name} ist angehängt.", nb: "Dokumentet {name} er lagt ved." }
    DashAwaiting { en: "Waiting for vendor answers", de: "Warten auf Antworten der Anbieter", nb: "Venter på svar fra leverandører" }
    DashToReview { en: "Answers to review", de: "Antworten zu prüfen", nb: "Svar som skal vurderes" }
    ErrChooseService { en: "Please choose at least one service.", de: "Bitte wählen Sie mindestens einen Dienst.", nb: "Velg minst én tjeneste." }
    AskVendorTitle { en: "Ask the vendor about its services", de: "Anbieter zu seinen Diensten befragen", nb: "Spør leverandøren om tjenestene deres" }
    AskServices { en: "Ask about", de: "Fragen zu", nb: "Spør om" }
    AskVendorNoServices { en: "No service names this vendor yet.", de: "Noch kein Dienst nennt diesen Anbieter.", nb: "Ingen tjeneste nevner denne leverandøren ennå." }
    VendorNameUnknown {
        en: "No vendor has this name, or several start with it. Type more of the name.",
        de: "Kein Anbieter heißt so, oder mehrere beginnen damit. Geben Sie mehr vom Namen ein.",
        nb: "Ingen leverandør heter dette, eller flere begynner slik. Skriv mer av navnet.",
    }
    TimeZone { en: "Time zone", de: "Zeitzone", nb: "Tidssone" }
    TimeZoneHint {
        en: "Dates and times are shown in this zone, and deadlines count its days.",
        de: "Datum und Uhrzeit werden in dieser Zone angezeigt, und Fristen zählen nach ihren Tagen.",
        nb: "Datoer og klokkeslett vises i denne sonen, og frister regnes etter dagene her.",
    }
    ErrTimeZoneInvalid {
        en: "Please choose a time zone from the list.",
        de: "Bitte wählen Sie eine Zeitzone aus der Liste.",
        nb: "Velg en tidssone fra listen.",
    }
    // --- incidents ---
    AffectedUnknown { en: "Not known yet", de: "Noch unbekannt", nb: "Ikke kjent ennå" }
    AffectedYes { en: "Yes, we are affected", de: "Ja, wir sind betroffen", nb: "Ja, vi er berørt" }
    AffectedNo { en: "No, we are not affected", de: "Nein, wir sind nicht betroffen", nb: "Nei, vi er ikke berørt" }
    RiskNotAssessed { en: "Not assessed yet", de: "Noch nicht bewertet", nb: "Ikke vurdert ennå" }
    RiskNone { en: "No risk to people", de: "Kein Risiko für Personen", nb: "Ingen risiko for personer" }
    RiskSome { en: "A risk to people", de: "Ein Risiko für Personen", nb: "En risiko for personer" }
    RiskHigh { en: "A high risk to people", de: "Ein hohes Risiko für Personen", nb: "En høy risiko for personer" }
    Art33Notify { en: "Notify the supervisory authority", de: "Der Aufsichtsbehörde melden", nb: "Melde til tilsynsmyndigheten" }
    Art33NotRequired { en: "Notification not required", de: "Meldung nicht erforderlich", nb: "Melding ikke nødvendig" }
    Art34Inform { en: "Inform the people affected", de: "Betroffene Personen benachrichtigen", nb: "Varsle de berørte personene" }
    Art34NotRequired { en: "Informing them not required", de: "Benachrichtigung nicht erforderlich", nb: "Varsling ikke nødvendig" }
    IncidentOpen { en: "Open", de: "Offen", nb: "Åpen" }
    IncidentClosed { en: "Closed", de: "Abgeschlossen", nb: "Avsluttet" }
    ErrDateTimeInvalid { en: "Please enter a date and time (YYYY-MM-DD HH:MM).", de: "Bitte geben Sie Datum und Uhrzeit ein (JJJJ-MM-TT HH:MM).", nb: "Skriv inn dato og klokkeslett (ÅÅÅÅ-MM-DD TT:MM)." }
    ErrIncidentTitleRequired { en: "Please give the incident a title.", de: "Bitte geben Sie dem Vorfall einen Titel.", nb: "Gi hendelsen en tittel." }
    ErrIncidentVendorRequired { en: "Please choose the vendor or the affected service.", de: "Bitte wählen Sie den Anbieter oder den betroffenen Dienst.", nb: "Velg leverandøren eller den berørte tjenesten." }
    ErrTooMany { en: "That is too many.", de: "Das sind zu viele.", nb: "Det er for mange." }
    ErrAwareRequired { en: "When did you become aware? The 72-hour clock starts there.", de: "Wann haben Sie davon erfahren? Dort beginnt die 72-Stunden-Frist.", nb: "Når ble dere kjent med det? Der starter 72-timersfristen." }
    ErrAwareFuture { en: "That is in the future.", de: "Das liegt in der Zukunft.", nb: "Det er fram i tid." }
    ErrEndBeforeStart { en: "The end is before the start.", de: "Das Ende liegt vor dem Beginn.", nb: "Slutten er før starten." }
    ErrChooseDecision { en: "Please choose a decision.", de: "Bitte wählen Sie eine Entscheidung.", nb: "Velg en avgjørelse." }
    ErrRationaleRequired { en: "Please write down why: the register keeps it.", de: "Bitte halten Sie die Begründung fest: Das Verzeichnis bewahrt sie auf.", nb: "Skriv ned begrunnelsen: registeret tar vare på den." }
    ErrNotifiedAtRequired { en: "When was the authority notified?", de: "Wann wurde die Behörde benachrichtigt?", nb: "Når ble myndigheten varslet?" }
    ErrNotifiedFuture { en: "The notification cannot be in the future.", de: "Die Meldung kann nicht in der Zukunft liegen.", nb: "Meldingen kan ikke ligge fram i tid." }
    ErrDelayReasonRequired { en: "Notified after the 72 hours: the notification must give the reasons for the delay.", de: "Nach Ablauf der 72 Stunden gemeldet: Die Meldung muss die Gründe für die Verzögerung nennen.", nb: "Meldt etter 72 timer: meldingen må oppgi grunnene til forsinkelsen." }
    ErrAuthorityRequired { en: "Which authority was notified?", de: "Welche Behörde wurde benachrichtigt?", nb: "Hvilken myndighet ble varslet?" }
    ErrInformedOnRequired { en: "When were the people informed?", de: "Wann wurden die Personen benachrichtigt?", nb: "Når ble personene varslet?" }
    ErrInformedFuture { en: "That day is still to come.", de: "Dieser Tag liegt noch in der Zukunft.", nb: "Den dagen har ikke kommet ennå." }
    EntryRecorded { en: "Recorded the incident “{title}”", de: "Vorfall „{title}“ erfasst", nb: "Registrerte hendelsen «{title}»" }
    EntryChanged { en: "Changed: {fields}", de: "Geändert: {fields}", nb: "Endret: {fields}" }
    EntryAwareMoved { en: "Moved “we became aware” from {from} to {to}; the 72-hour clock moved with it", de: "„Kenntnis erlangt“ von {from} auf {to} verschoben; die 72-Stunden-Frist verschiebt sich mit", nb: "Flyttet «ble kjent med» fra {from} til {to}; 72-timersfristen flyttet seg med" }
    EntryServiceLinked { en: "Linked the service {service}", de: "Dienst {service} verknüpft", nb: "Koblet til tjenesten {service}" }
    EntryServiceUnlinked { en: "Unlinked the service {service}", de: "Verknüpfung mit dem Dienst {service} gelöst", nb: "Fjernet koblingen til tjenesten {service}" }
    EntryArt33Decided { en: "Art. 33 decision: {decision}", de: "Entscheidung nach Art. 33: {decision}", nb: "Avgjørelse etter art. 33: {decision}" }
    EntryArt34Decided { en: "Art. 34 decision: {decision}", de: "Entscheidung nach Art. 34: {decision}", nb: "Avgjørelse etter art. 34: {decision}" }
    EntryAlertSent {
        en: { one: "{hours}-hour alert mailed to {n} owner", other: "{hours}-hour alert mailed to {n} owners" },
        de: { one: "Hinweis nach {hours} Stunden an {n} Inhaber gesendet", other: "Hinweis nach {hours} Stunden an {n} Inhaber gesendet" },
        nb: { one: "Varsel etter {hours} timer sendt til {n} eier", other: "Varsel etter {hours} timer sendt til {n} eiere" },
    }
    EntryClosed { en: "Closed the incident", de: "Vorfall abgeschlossen", nb: "Avsluttet hendelsen" }
    EntryReopened { en: "Reopened the incident", de: "Vorfall wieder geöffnet", nb: "Åpnet hendelsen igjen" }
    ClockLate { en: "after the deadline", de: "nach Fristablauf", nb: "etter fristen" }
    FieldIncidentTitle { en: "Title", de: "Titel", nb: "Tittel" }
    FieldIncidentDescription { en: "What happened", de: "Was geschehen ist", nb: "Hva som skjedde" }
    FieldSourceLinks { en: "Sources (one web address per line)", de: "Quellen (eine Webadresse pro Zeile)", nb: "Kilder (én nettadresse per linje)" }
    FieldIncidentVendors { en: "Vendors", de: "Anbieter", nb: "Leverandører" }
    FieldIncidentServices { en: "Affected services", de: "Betroffene Dienste", nb: "Berørte tjenester" }
    FieldIncidentDataClasses { en: "Data classes involved", de: "Betroffene Datenklassen", nb: "Berørte dataklasser" }
    FieldExposureStart { en: "Exposure began", de: "Offenlegung begann", nb: "Eksponeringen begynte" }
    FieldExposureEnd { en: "Exposure ended", de: "Offenlegung endete", nb: "Eksponeringen sluttet" }
    FieldVendorAware { en: "Vendor became aware", de: "Anbieter erlangte Kenntnis", nb: "Leverandøren ble kjent med det" }
    FieldVendorFixed { en: "Vendor fixed it", de: "Anbieter behob es", nb: "Leverandøren rettet det" }
    FieldVendorNotified { en: "Vendor told us", de: "Anbieter informierte uns", nb: "Leverandøren varslet oss" }
    FieldVendorNotifiedHow { en: "How the vendor told us", de: "Wie der Anbieter uns informierte", nb: "Hvordan leverandøren varslet oss" }
    FieldDisclosed { en: "Public report", de: "Öffentlicher Bericht", nb: "Offentlig rapport" }
    FieldWeAware { en: "We became aware", de: "Wir erlangten Kenntnis", nb: "Vi ble kjent med det" }
    FieldAffected { en: "Are we affected?", de: "Sind wir betroffen?", nb: "Er vi berørt?" }
    FieldAffectedEvidence { en: "What we know about that, and from where", de: "Was wir darüber wissen, und woher", nb: "Hva vi vet om det, og hvorfra" }
    FieldPersonalDataInvolved { en: "Personal data may be involved", de: "Personenbezogene Daten könnten betroffen sein", nb: "Personopplysninger kan være berørt" }
    FieldRisk { en: "Risk to people", de: "Risiko für Personen", nb: "Risiko for personer" }
    FieldArt33Decision { en: "Decision", de: "Entscheidung", nb: "Avgjørelse" }
    FieldRationale { en: "Why", de: "Begründung", nb: "Begrunnelse" }
    FieldNotifiedAt { en: "Notified at", de: "Gemeldet am", nb: "Meldt" }
    FieldAuthority { en: "Supervisory authority", de: "Aufsichtsbehörde", nb: "Tilsynsmyndighet" }
    FieldAuthorityReference { en: "The authority's reference", de: "Aktenzeichen der Behörde", nb: "Myndighetens referanse" }
    FieldDelayReason { en: "Reasons for the delay", de: "Gründe für die Verzögerung", nb: "Grunner til forsinkelsen" }
    FieldInformedOn { en: "Informed on", de: "Benachrichtigt am", nb: "Varslet den" }
    FieldNote { en: "Note", de: "Notiz", nb: "Notat" }
    FieldYear { en: "Year", de: "Jahr", nb: "År" }
    IncidentNew { en: "Record an incident", de: "Vorfall erfassen", nb: "Registrer en hendelse" }
    IncidentEdit { en: "Edit the incident", de: "Vorfall bearbeiten", nb: "Rediger hendelsen" }
    IncidentRegisterLead {
        en: "Every incident at a vendor that may concern your data, notified or not. Keeping this record is what Art. 33(5) GDPR asks of you.",
        de: "Jeder Vorfall bei einem Anbieter, der Ihre Daten betreffen kann, gemeldet oder nicht. Diese Dokumentation verlangt Art. 33 Abs. 5 DSGVO.",
        nb: "Hver hendelse hos en leverandør som kan gjelde dataene deres, meldt eller ikke. Denne dokumentasjonen krever art. 33 nr. 5 i personvernforordningen.",
    }
    TimesInZone { en: "Dates and times in {zone}.", de: "Datum und Uhrzeit in {zone}.", nb: "Dato og klokkeslett i {zone}." }
    HintWeAware {
        en: "When someone in your organisation first learned of it (a mail, a news report). The 72-hour clock starts here.",
        de: "Wann jemand in Ihrer Organisation zuerst davon erfuhr (eine Mail, eine Meldung in den Nachrichten). Hier beginnt die 72-Stunden-Frist.",
        nb: "Når noen i organisasjonen først fikk vite om det (en e-post, en nyhetssak). Her starter 72-timersfristen.",
    }
    Art33Heading { en: "Notifying the supervisory authority (Art. 33)", de: "Meldung an die Aufsichtsbehörde (Art. 33)", nb: "Melding til tilsynsmyndigheten (art. 33)" }
    Art34Heading { en: "Informing the people affected (Art. 34)", de: "Benachrichtigung der betroffenen Personen (Art. 34)", nb: "Varsling av de berørte personene (art. 34)" }
    Art33Hint {
        en: "If personal data may be involved, notify the supervisory authority within 72 hours of becoming aware, unless the breach is unlikely to result in a risk to people. The hours run through weekends and holidays. You may give the information in phases; a late notification gives the reasons for the delay. In Germany the authority is that of your federal state, in Norway Datatilsynet. A hint, not legal advice.",
        de: "Wenn personenbezogene Daten betroffen sein können, melden Sie den Vorfall binnen 72 Stunden, nachdem Sie davon erfahren haben, der Aufsichtsbehörde, es sei denn, er führt voraussichtlich nicht zu einem Risiko für Personen. Die Stunden laufen auch am Wochenende und an Feiertagen. Die Angaben dürfen schrittweise folgen; eine verspätete Meldung nennt die Gründe. In Deutschland ist die Behörde Ihres Bundeslands zuständig, in Norwegen Datatilsynet. Ein Hinweis, keine Rechtsberatung.",
        nb: "Hvis personopplysninger kan være berørt, meld bruddet til tilsynsmyndigheten innen 72 timer etter at dere ble kjent med det, med mindre det trolig ikke medfører risiko for personer. Timene løper også i helger og på helligdager. Opplysningene kan gis trinnvis; en sen melding oppgir grunnene. I Norge er det Datatilsynet, i Tyskland myndigheten i delstaten. Et råd, ikke juridisk rådgivning.",
    }
    Art34Hint {
        en: "When the risk to the people affected is high, they must be told without undue delay, in plain words. This is a decision of its own. A hint, not legal advice.",
        de: "Ist das Risiko für die betroffenen Personen hoch, sind sie unverzüglich in klarer Sprache zu benachrichtigen. Das ist eine eigene Entscheidung. Ein Hinweis, keine Rechtsberatung.",
        nb: "Når risikoen for de berørte er høy, skal de varsles uten ugrunnet opphold, med klare ord. Det er en egen avgjørelse. Et råd, ikke juridisk rådgivning.",
    }
    ClockNone { en: "No 72-hour clock: no personal data marked as involved", de: "Keine 72-Stunden-Frist: keine personenbezogenen Daten als betroffen markiert", nb: "Ingen 72-timersfrist: ingen personopplysninger merket som berørt" }
    ClockRunning { en: "{left} left to decide on notifying: deadline {deadline}", de: "Noch {left} für die Entscheidung über die Meldung: Frist {deadline}", nb: "{left} igjen til å avgjøre melding: frist {deadline}" }
    ClockMissed { en: "The 72 hours ended {over} ago ({deadline}): decide now, with the reasons for the delay", de: "Die 72 Stunden endeten vor {over} ({deadline}): jetzt entscheiden, mit den Gründen für die Verzögerung", nb: "De 72 timene gikk ut for {over} siden ({deadline}): avgjør nå, med grunnene til forsinkelsen" }
    ClockDecided { en: "Decided: {decision}", de: "Entschieden: {decision}", nb: "Avgjort: {decision}" }
    LabelExposure { en: "Exposure lasted", de: "Dauer der Offenlegung", nb: "Eksponeringen varte" }
    LabelDisclosureLag { en: "From the fix to the public report", de: "Von der Behebung bis zum öffentlichen Bericht", nb: "Fra rettingen til den offentlige rapporten" }
    LabelVendorNotice { en: "The vendor's notice to us", de: "Die Meldung des Anbieters an uns", nb: "Leverandørens varsel til oss" }
    NoticeNoDeadline { en: "{service}: the contract names no deadline", de: "{service}: Der Vertrag nennt keine Frist", nb: "{service}: kontrakten oppgir ingen frist" }
    NoticeNotYet { en: "{service}: not told yet", de: "{service}: noch nicht informiert", nb: "{service}: ikke varslet ennå" }
    NoticeNotYetDue { en: "{service}: not told yet, due by {due} ({hours} h)", de: "{service}: noch nicht informiert, fällig bis {due} ({hours} Std.)", nb: "{service}: ikke varslet ennå, frist {due} ({hours} t)" }
    NoticeWithin { en: "{service}: told after {took}, within the {hours} hours of the contract", de: "{service}: nach {took} informiert, innerhalb der vertraglichen {hours} Stunden", nb: "{service}: varslet etter {took}, innenfor kontraktens {hours} timer" }
    NoticeLate { en: "{service}: told after {took}, later than the {hours} hours of the contract", de: "{service}: nach {took} informiert, später als die vertraglichen {hours} Stunden", nb: "{service}: varslet etter {took}, senere enn kontraktens {hours} timer" }
    AskAboutIncident { en: "Ask the vendor about it", de: "Den Anbieter dazu befragen", nb: "Spør leverandøren om det" }
    AskAboutIncidentLead {
        en: "Ask the vendor in writing: question 5 asks which of your data was in the affected system and who notifies the supervisory authority. Note the vendor's answer and its own notification timeline here.",
        de: "Fragen Sie den Anbieter schriftlich: Frage 5 fragt, welche Ihrer Daten im betroffenen System waren und wer die Aufsichtsbehörde informiert. Halten Sie seine Antwort und seinen eigenen Meldeablauf hier fest.",
        nb: "Spør leverandøren skriftlig: spørsmål 5 spør hvilke av dataene deres som var i det berørte systemet, og hvem som melder til tilsynsmyndigheten. Noter svaret og leverandørens egen varslingstidslinje her.",
    }
    RecordDecision { en: "Record the decision", de: "Entscheidung festhalten", nb: "Registrer avgjørelsen" }
    AddNote { en: "Add to the timeline", de: "Zur Chronik hinzufügen", nb: "Legg til i tidslinjen" }
    CloseIncident { en: "Close the incident", de: "Vorfall abschließen", nb: "Avslutt hendelsen" }
    ReopenIncident { en: "Reopen", de: "Wieder öffnen", nb: "Åpne igjen" }
    IncidentTimeline { en: "Timeline", de: "Chronik", nb: "Tidslinje" }
    IncidentFacts { en: "What we know", de: "Was wir wissen", nb: "Hva vi vet" }
    IncidentAssessment { en: "Our assessment", de: "Unsere Bewertung", nb: "Vår vurdering" }
    DashClocks { en: "72-hour clocks", de: "72-Stunden-Fristen", nb: "72-timersfrister" }
    ServiceIncidentBanner { en: "Affected by an open incident: {title}. Decisions for protected data classes made before it are suspended.", de: "Von einem offenen Vorfall betroffen: {title}. Entscheidungen zu geschützten Datenklassen von davor sind ausgesetzt.", nb: "Berørt av en åpen hendelse: {title}. Avgjørelser for beskyttede dataklasser fra før den er satt på vent." }
    EventIncidentLinked { en: "Linked to an incident", de: "Mit einem Vorfall verknüpft", nb: "Koblet til en hendelse" }
    ReasonIncident { en: "Incident follow-up", de: "Nachverfolgung eines Vorfalls", nb: "Oppfølging av hendelse" }
    JobArt33Alert { en: "72-hour deadline alert", de: "Hinweis auf die 72-Stunden-Frist", nb: "Varsel om 72-timersfristen" }
    AuditIncidentRecorded { en: "Recorded the incident “{title}”", de: "Vorfall „{title}“ erfasst", nb: "Registrerte hendelsen «{title}»" }
    AuditIncidentUpdated { en: "Changed the incident “{title}”", de: "Vorfall „{title}“ geändert", nb: "Endret hendelsen «{title}»" }
    AuditIncidentAwareMoved { en: "Moved when we became aware of “{title}” (the 72-hour clock moved with it)", de: "Zeitpunkt der Kenntnis von „{title}“ verschoben (die 72-Stunden-Frist mit ihm)", nb: "Flyttet når vi ble kjent med «{title}» (72-timersfristen flyttet seg med)" }
    AuditArt33Decided { en: "Art. 33 decision on “{title}”: {decision}", de: "Entscheidung nach Art. 33 zu „{title}“: {decision}", nb: "Avgjørelse etter art. 33 om «{title}»: {decision}" }
    AuditArt34Decided { en: "Art. 34 decision on “{title}”: {decision}", de: "Entscheidung nach Art. 34 zu „{title}“: {decision}", nb: "Avgjørelse etter art. 34 om «{title}»: {decision}" }
    AuditIncidentClosed { en: "Closed the incident “{title}”", de: "Vorfall „{title}“ abgeschlossen", nb: "Avsluttet hendelsen «{title}»" }
    AuditIncidentReopened { en: "Reopened the incident “{title}”", de: "Vorfall „{title}“ wieder geöffnet", nb: "Åpnet hendelsen «{title}» igjen" }
    ColAwareAt { en: "We became aware", de: "Kenntnis seit", nb: "Kjent siden" }
    ColClock { en: "72 hours", de: "72 Stunden", nb: "72 timer" }
    ErrEngineForVersion { en: "Which engine is this the version of?", de: "Zu welcher Engine gehört diese Version?", nb: "Hvilken motor er dette versjonen av?" }
    FieldEngineKind { en: "Inference engine", de: "Inferenz-Engine", nb: "Inferensmotor" }
    FieldEngineVersion { en: "Engine version", de: "Version der Engine", nb: "Motorversjon" }
    FieldEngineVersionHint { en: "As the vendor gives it, e.g. 0.5.20 (Python package versions for SGLang and vLLM).", de: "Wie der Anbieter sie angibt, z. B. 0.5.20 (Versionen des Python-Pakets bei SGLang und vLLM).", nb: "Slik leverandøren oppgir den, f.eks. 0.5.20 (Python-pakkeversjoner for SGLang og vLLM)." }
    FieldEngineSource { en: "Where the version comes from", de: "Woher die Version stammt", nb: "Hvor versjonen kommer fra" }
    AdvisoriesTitle { en: "Engine advisories", de: "Hinweise zu Inferenz-Engines", nb: "Varsler om inferensmotorer" }
    AdvisoriesLead {
        en: "Security advisories for inference engines (OSV format). aivet ships the ones it knows; paste more OSV records here. Services whose engine and version match are flagged.",
        de: "Sicherheitshinweise zu Inferenz-Engines (OSV-Format). aivet bringt die bekannten mit; weitere OSV-Einträge können Sie hier einfügen. Dienste, deren Engine und Version passen, werden markiert.",
        nb: "Sikkerhetsvarsler for inferensmotorer (OSV-format). aivet har med dem den kjenner; lim inn flere OSV-oppføringer her. Tjenester med motor og versjon som passer, blir merket.",
    }
    FieldOsvJson { en: "OSV records (JSON: one record or a list)", de: "OSV-Einträge (JSON: ein Eintrag oder eine Liste)", nb: "OSV-oppføringer (JSON: én oppføring eller en liste)" }
    ImportAdvisories { en: "Import advisories", de: "Hinweise importieren", nb: "Importer varsler" }
    FieldOsvFile { en: "OSV file (JSON: one record or a list)", de: "OSV-Datei (JSON: ein Eintrag oder eine Liste)", nb: "OSV-fil (JSON: én oppføring eller en liste)" }
    ImportAdvisoryFile { en: "Import the file", de: "Datei importieren", nb: "Importer filen" }
    AdvisoryBuiltIn { en: "shipped with aivet", de: "mit aivet geliefert", nb: "levert med aivet" }
    AdvisoryImported { en: "imported", de: "importiert", nb: "importert" }
    ErrOsvRecords { en: "Nothing was imported. {names}", de: "Nichts wurde importiert. {names}", nb: "Ingenting ble importert. {names}" }
    AuditAdvisoriesImported {
        en: { one: "Imported {n} engine advisory ({ids})", other: "Imported {n} engine advisories ({ids})" },
        de: { one: "{n} Engine-Hinweis importiert ({ids})", other: "{n} Engine-Hinweise importiert ({ids})" },
        nb: { one: "Importerte {n} motorvarsel ({ids})", other: "Importerte {n} motorvarsler ({ids})" },
    }
    ErrOsvEmpty { en: "Paste at least one OSV record.", de: "Bitte fügen Sie mindestens einen OSV-Eintrag ein.", nb: "Lim inn minst én OSV-oppføring." }
    ServiceAdvisoryUnknown { en: "The engine version is not known, so aivet cannot tell whether this advisory applies: ask the vendor which version runs.", de: "Die Version der Engine ist unbekannt, daher lässt sich nicht sagen, ob dieser Hinweis zutrifft: Fragen Sie den Anbieter nach der Version.", nb: "Motorversjonen er ikke kjent, så aivet kan ikke si om varselet gjelder: spør leverandøren hvilken versjon som kjører." }
    DashAdvisories { en: "Hit by engine advisories", de: "Von Engine-Hinweisen betroffen", nb: "Rammet av motorvarsler" }
    ColDeadline { en: "Art. 33 deadline", de: "Frist nach Art. 33", nb: "Frist etter art. 33" }
    Yes { en: "yes", de: "ja", nb: "ja" }
    No { en: "no", de: "nein", nb: "nei" }
    ErrNoteRequired { en: "Please write the note.", de: "Bitte schreiben Sie die Notiz.", nb: "Skriv notatet." }
    NoIncidentsMatch { en: "No incident matches these filters.", de: "Kein Vorfall passt zu diesen Filtern.", nb: "Ingen hendelser passer med disse filtrene." }

    DurationDays {
        en: { one: "{n} day", other: "{n} days" },
        de: { one: "{n} Tag", other: "{n} Tage" },
        nb: { one: "{n} dag", other: "{n} dager" },
    }
    DurationHours {
        en: { one: "{n} hour", other: "{n} hours" },
        de: { one: "{n} Stunde", other: "{n} Stunden" },
        nb: { one: "{n} time", other: "{n} timer" },
    }
    DurationMinutes {
        en: { one: "{n} minute", other: "{n} minutes" },
        de: { one: "{n} Minute", other: "{n} Minuten" },
        nb: { one: "{n} minutt", other: "{n} minutter" },
    }
    DurationUnderMinute { en: "less than a minute", de: "weniger als eine Minute", nb: "mindre enn ett minutt" }
    AuditSignedUp { en: "Created the account and the organisation", de: "Konto und Organisation angelegt", nb: "Opprettet kontoen og organisasjonen" }
    AuditSignedIn { en: "Signed in", de: "Angemeldet", nb: "Logget inn" }
    AuditPasswordChanged { en: "Changed the password", de: "Passwort geändert", nb: "Endret passordet" }
    AuditPasswordReset { en: "Set a new password with a reset link", de: "Neues Passwort über einen Link zum Zurücksetzen gesetzt", nb: "Satte nytt passord med en tilbakestillingslenke" }
    AuditOrgCreated { en: "Created the organisation {name}", de: "Organisation {name} angelegt", nb: "Opprettet organisasjonen {name}" }
    AuditOrgImported {
        en: "Loaded the organisation into this database from its export (data SHA-256 {sha256})",
        de: "Organisation aus ihrem Export in diese Datenbank geladen (SHA-256 der Daten {sha256})",
        nb: "Lastet organisasjonen inn i denne databasen fra eksporten (SHA-256 for dataene {sha256})",
    }
    AuditOrgRetired { en: "Took the organisation out of use ({suffix})", de: "Organisation außer Betrieb genommen ({suffix})", nb: "Tok organisasjonen ut av bruk ({suffix})" }
    AuditTimeZoneChanged { en: "Set the time zone to {zone}", de: "Zeitzone auf {zone} gesetzt", nb: "Satte tidssonen til {zone}" }
    AuditMemberJoined { en: "Joined through an invitation as {role}", de: "Über eine Einladung beigetreten als {role}", nb: "Ble med via en invitasjon som {role}" }
    AuditMemberRemoved { en: "Removed a member", de: "Ein Mitglied entfernt", nb: "Fjernet et medlem" }
    AuditMemberRoleChanged { en: "Changed a member's role to {role}", de: "Rolle eines Mitglieds auf {role} geändert", nb: "Endret rollen til et medlem til {role}" }
    AuditInviteCreated { en: "Invited {email} as {role}", de: "{email} als {role} eingeladen", nb: "Inviterte {email} som {role}" }
    AuditInviteRevoked { en: "Withdrew the invitation to {email}", de: "Einladung an {email} zurückgezogen", nb: "Trakk tilbake invitasjonen til {email}" }
    AuditMailQueued { en: "Queued a mail to {to}", de: "E-Mail an {to} in den Versand gegeben", nb: "La en e-post til {to} i utsendingskøen" }
    AuditMailRetried { en: "Sent a failed mail again", de: "Fehlgeschlagene E-Mail erneut versendet", nb: "Sendte en mislykket e-post på nytt" }
    AuditDataClassCreated { en: "Added the data class {name}", de: "Datenkategorie {name} hinzugefügt", nb: "La til datakategorien {name}" }
    AuditDataClassUpdated { en: "Changed the data class {name}", de: "Datenkategorie {name} geändert", nb: "Endret datakategorien {name}" }
    AuditDataClassDeleted { en: "Deleted a data class", de: "Eine Datenkategorie gelöscht", nb: "Slettet en datakategori" }
    AuditVendorCreated { en: "Added the vendor {name}", de: "Anbieter {name} hinzugefügt", nb: "La til leverandøren {name}" }
    AuditVendorUpdated { en: "Changed the vendor {name}", de: "Anbieter {name} geändert", nb: "Endret leverandøren {name}" }
    AuditVendorArchived { en: "Archived a vendor", de: "Einen Anbieter archiviert", nb: "Arkiverte en leverandør" }
    AuditVendorRestored { en: "Restored a vendor from the archive", de: "Einen Anbieter aus dem Archiv geholt", nb: "Hentet en leverandør tilbake fra arkivet" }
    AuditVendorDeleted { en: "Deleted a vendor", de: "Einen Anbieter gelöscht", nb: "Slettet en leverandør" }
    AuditContactAdded { en: "Added the contact {email}", de: "Kontakt {email} hinzugefügt", nb: "La til kontakten {email}" }
    AuditContactMadePrimary { en: "Made a contact the primary one", de: "Einen Kontakt zum Hauptkontakt gemacht", nb: "Gjorde en kontakt til hovedkontakt" }
    AuditContactRemoved { en: "Removed a contact", de: "Einen Kontakt entfernt", nb: "Fjernet en kontakt" }
    AuditServiceCreated { en: "Added the service {name}", de: "Dienst {name} hinzugefügt", nb: "La til tjenesten {name}" }
    AuditServiceUpdated { en: "Changed the service {name}", de: "Dienst {name} geändert", nb: "Endret tjenesten {name}" }
    AuditServiceArchived { en: "Archived a service", de: "Einen Dienst archiviert", nb: "Arkiverte en tjeneste" }
    AuditServiceRestored { en: "Restored a service from the archive", de: "Einen Dienst aus dem Archiv geholt", nb: "Hentet en tjeneste tilbake fra arkivet" }
    AuditServiceDeleted { en: "Deleted a service", de: "Einen Dienst gelöscht", nb: "Slettet en tjeneste" }
    AuditFindingSaved { en: "Recorded a finding on {topic}: {status}", de: "Feststellung zu {topic} erfasst: {status}", nb: "Registrerte et funn om {topic}: {status}" }
    AuditServicesImported {
        en: { one: "Imported {n} service from CSV.", other: "Imported {n} services from CSV." },
        de: { one: "{n} Dienst aus CSV importiert.", other: "{n} Dienste aus CSV importiert." },
        nb: { one: "Importerte {n} tjeneste fra CSV.", other: "Importerte {n} tjenester fra CSV." },
    }
    AuditVendorsCreated {
        en: { one: "{n} new vendor.", other: "{n} new vendors." },
        de: { one: "{n} neuer Anbieter.", other: "{n} neue Anbieter." },
        nb: { one: "{n} ny leverandør.", other: "{n} nye leverandører." },
    }
    AuditQuestionsSent {
        en: { one: "Sent the questions about {n} service to {to}", other: "Sent the questions about {n} services to {to}" },
        de: { one: "Fragen zu {n} Dienst an {to} gesendet", other: "Fragen zu {n} Diensten an {to} gesendet" },
        nb: { one: "Sendte spørsmålene om {n} tjeneste til {to}", other: "Sendte spørsmålene om {n} tjenester til {to}" },
    }
    AuditAskedAgain {
        en: { one: "Asked {to} again about {n} question", other: "Asked {to} again about {n} questions" },
        de: { one: "{to} erneut zu {n} Frage angefragt", other: "{to} erneut zu {n} Fragen angefragt" },
        nb: { one: "Spurte {to} på nytt om {n} spørsmål", other: "Spurte {to} på nytt om {n} spørsmål" },
    }
    AuditAnswered { en: "The vendor submitted its answers", de: "Der Anbieter hat seine Antworten abgeschickt", nb: "Leverandøren sendte inn svarene sine" }
    AuditAnsweredBy { en: "The vendor submitted its answers ({by})", de: "Der Anbieter hat seine Antworten abgeschickt ({by})", nb: "Leverandøren sendte inn svarene sine ({by})" }
    AuditReviewed { en: "Reviewed the answer to question {question}: {review}", de: "Antwort auf Frage {question} bewertet: {review}", nb: "Vurderte svaret på spørsmål {question}: {review}" }
    AuditDecided { en: "Decided on a service: {decision}", de: "Über einen Dienst entschieden: {decision}", nb: "Tok en beslutning om en tjeneste: {decision}" }
    AuditLinkRevoked { en: "Withdrew a vendor's answer link", de: "Antwortlink eines Anbieters zurückgezogen", nb: "Trakk tilbake svarlenken til en leverandør" }
    AuditReopened { en: "Reopened a request for more answers", de: "Eine Anfrage für weitere Antworten wieder geöffnet", nb: "Åpnet en forespørsel igjen for flere svar" }
    AuditAnswersEntered { en: "Entered answers that came by mail or letter", de: "Per E-Mail oder Brief erhaltene Antworten erfasst", nb: "Registrerte svar som kom på e-post eller brev" }
    AuditFileAttached { en: "Attached the document {file}", de: "Dokument {file} angehängt", nb: "La ved dokumentet {file}" }
    AuditFileAttachedByVendor { en: "The vendor attached the document {file}", de: "Der Anbieter hat das Dokument {file} angehängt", nb: "Leverandøren la ved dokumentet {file}" }
    AuditJobRetried { en: "Retried failed background work", de: "Fehlgeschlagene Hintergrundarbeit erneut angestoßen", nb: "Prøvde mislykket bakgrunnsarbeid på nytt" }
    AuditReminded { en: "Reminded a vendor (reminder {number})", de: "Einen Anbieter erinnert (Erinnerung {number})", nb: "Minnet en leverandør (påminnelse {number})" }
    AuditNoAnswer { en: "Marked a request as unanswered after its reminders", de: "Eine Anfrage nach ihren Erinnerungen als unbeantwortet markiert", nb: "Markerte en forespørsel som ubesvart etter påminnelsene" }
    AuditRemindersOn { en: "Switched reminders on for a request", de: "Erinnerungen für eine Anfrage eingeschaltet", nb: "Slo på påminnelser for en forespørsel" }
    AuditRemindersOff { en: "Switched reminders off for a request", de: "Erinnerungen für eine Anfrage ausgeschaltet", nb: "Slo av påminnelser for en forespørsel" }
    AuditCalendarOn { en: "Made a new calendar feed link (the old one stopped working)", de: "Neuen Kalender-Link erstellt (der alte gilt nicht mehr)", nb: "Laget en ny kalenderlenke (den gamle virker ikke lenger)" }
    AuditCalendarOff { en: "Switched the calendar feed off", de: "Kalender-Abo ausgeschaltet", nb: "Slo av kalenderabonnementet" }
    AuditFollowUpMoved { en: "Moved a follow-up to {due_on}", de: "Wiedervorlage auf {due_on} verschoben", nb: "Flyttet en oppfølging til {due_on}" }
    AuditFollowUpDone { en: "Marked a follow-up done", de: "Wiedervorlage als erledigt markiert", nb: "Markerte en oppfølging som ferdig" }
    AuditFollowUpPolicy {
        en: { one: "Set follow-ups: {n} reminder, review within {days} days, assess again after {months} months", other: "Set follow-ups: up to {n} reminders, review within {days} days, assess again after {months} months" },
        de: { one: "Wiedervorlagen festgelegt: {n} Erinnerung, Prüfung binnen {days} Tagen, erneute Prüfung nach {months} Monaten", other: "Wiedervorlagen festgelegt: bis zu {n} Erinnerungen, Prüfung binnen {days} Tagen, erneute Prüfung nach {months} Monaten" },
        nb: { one: "Satte oppfølging: {n} påminnelse, vurdering innen {days} dager, ny vurdering etter {months} måneder", other: "Satte oppfølging: inntil {n} påminnelser, vurdering innen {days} dager, ny vurdering etter {months} måneder" },
    }
    AuditFollowUpPolicyNoReminders { en: "Set follow-ups: no reminders, review within {days} days, assess again after {months} months", de: "Wiedervorlagen festgelegt: keine Erinnerungen, Prüfung binnen {days} Tagen, erneute Prüfung nach {months} Monaten", nb: "Satte oppfølging: ingen påminnelser, vurdering innen {days} dager, ny vurdering etter {months} måneder" }
    AuditQuestionSetSaved { en: "Saved version {version} of the questions", de: "Version {version} der Fragen gespeichert", nb: "Lagret versjon {version} av spørsmålene" }
    DigestOff { en: "No digest", de: "Keine Übersicht", nb: "Ingen oversikt" }
    DigestDaily { en: "Every morning", de: "Jeden Morgen", nb: "Hver morgen" }
    DigestWeekly { en: "Monday mornings", de: "Montagmorgens", nb: "Mandag morgen" }
    ErrFollowUpClosed { en: "This follow-up is already done.", de: "Diese Wiedervorlage ist bereits erledigt.", nb: "Denne oppfølgingen er allerede ferdig." }
    FollowUpReasonLabel { en: "Reason", de: "Anlass", nb: "Grunn" }
    FollowUpNext { en: "Next step", de: "Nächster Schritt", nb: "Neste steg" }
    FollowUpRecordAnswer { en: "Open the request", de: "Anfrage öffnen", nb: "Åpne forespørselen" }
    FollowUpReview { en: "Review the answers", de: "Antworten prüfen", nb: "Vurder svarene" }
    FollowUpAskAgain { en: "Ask again", de: "Erneut anfragen", nb: "Spør på nytt" }
    FollowUpMove { en: "Move to another day", de: "Auf einen anderen Tag legen", nb: "Flytt til en annen dag" }
    FollowUpNewDate { en: "New date", de: "Neues Datum", nb: "Ny dato" }
    FollowUpWhy { en: "Why (optional)", de: "Warum (optional)", nb: "Hvorfor (valgfritt)" }
    FollowUpMarkDone { en: "Mark done", de: "Erledigt", nb: "Marker som ferdig" }
    FollowUpDoneFor { en: "Mark the follow-up of {service} done", de: "Wiedervorlage zu {service} als erledigt markieren", nb: "Marker oppfølgingen av {service} som ferdig" }
    DashOverdue { en: "Follow-ups overdue", de: "Überfällige Wiedervorlagen", nb: "Forfalte oppfølginger" }
    FollowUpPolicyTitle { en: "Follow-ups", de: "Wiedervorlagen", nb: "Oppfølging" }
    FollowUpPolicySummary {
        en: { one: "Vendors get {n} reminder while no answer has arrived. Answers are due for review {days} days after they arrive; a decision is looked at again after {months} months.", other: "Vendors get up to {n} reminders while no answer has arrived. Answers are due for review {days} days after they arrive; a decision is looked at again after {months} months." },
        de: { one: "Anbieter erhalten {n} Erinnerung, solange keine Antwort da ist. Antworten sind {days} Tage nach Eingang zu prüfen; eine Entscheidung wird nach {months} Monaten erneut geprüft.", other: "Anbieter erhalten bis zu {n} Erinnerungen, solange keine Antwort da ist. Antworten sind {days} Tage nach Eingang zu prüfen; eine Entscheidung wird nach {months} Monaten erneut geprüft." },
        nb: { one: "Leverandører får {n} påminnelse så lenge det ikke har kommet svar. Svar skal vurderes {days} dager etter at de kom; en beslutning vurderes på nytt etter {months} måneder.", other: "Leverandører får inntil {n} påminnelser så lenge det ikke har kommet svar. Svar skal vurderes {days} dager etter at de kom; en beslutning vurderes på nytt etter {months} måneder." },
    }
    FollowUpPolicySummaryNoReminders {
        en: "Vendors get no reminders. Answers are due for review {days} days after they arrive; a decision is looked at again after {months} months.",
        de: "Anbieter erhalten keine Erinnerungen. Antworten sind {days} Tage nach Eingang zu prüfen; eine Entscheidung wird nach {months} Monaten erneut geprüft.",
        nb: "Leverandører får ingen påminnelser. Svar skal vurderes {days} dager etter at de kom; en beslutning vurderes på nytt etter {months} måneder.",
    }
    FollowUpPolicyReminders { en: "Remind vendors by mail while no answer has arrived", de: "Anbieter per E-Mail erinnern, solange keine Antwort da ist", nb: "Minn leverandører på e-post så lenge det ikke har kommet svar" }
    FollowUpPolicyMax { en: "Reminders at most (3 days before the deadline, on it, then weekly from a week after)", de: "Höchstens so viele Erinnerungen (3 Tage vor der Frist, am Tag, dann wöchentlich ab einer Woche danach)", nb: "Høyst så mange påminnelser (3 dager før fristen, på dagen, så ukentlig fra en uke etter)" }
    FollowUpPolicyReviewDays { en: "Days to review answers", de: "Tage bis zur Prüfung der Antworten", nb: "Dager til svarene er vurdert" }
    FollowUpPolicyReassess { en: "Months until a decision is looked at again", de: "Monate bis zur erneuten Prüfung einer Entscheidung", nb: "Måneder til en beslutning vurderes på nytt" }
    ErrNotWaiting { en: "This request is no longer waiting for an answer.", de: "Diese Anfrage wartet nicht mehr auf eine Antwort.", nb: "Denne forespørselen venter ikke lenger på svar." }
    RemindersLabel { en: "Reminders", de: "Erinnerungen", nb: "Påminnelser" }
    RemindersSent {
        en: { one: "{n} sent", other: "{n} sent" },
        de: { one: "{n} gesendet", other: "{n} gesendet" },
        nb: { one: "{n} sendt", other: "{n} sendt" },
    }
    RemindersOffForRequest { en: "Switched off for this request", de: "Für diese Anfrage ausgeschaltet", nb: "Slått av for denne forespørselen" }
    RemindersSwitchOff { en: "No more reminders", de: "Keine Erinnerungen mehr", nb: "Ingen flere påminnelser" }
    RemindersSwitchOn { en: "Remind again", de: "Wieder erinnern", nb: "Minn på igjen" }
    RemindNow { en: "Send a reminder now", de: "Jetzt erinnern", nb: "Send en påminnelse nå" }
    CalendarEventTitle { en: "aivet: follow up {service}", de: "aivet: Wiedervorlage {service}", nb: "aivet: følg opp {service}" }
    CalendarName { en: "aivet follow-ups ({org})", de: "aivet-Wiedervorlagen ({org})", nb: "aivet-oppfølging ({org})" }
    DigestSummary {
        en: { one: "{n} follow-up", other: "{n} follow-ups" },
        de: { one: "{n} Wiedervorlage", other: "{n} Wiedervorlagen" },
        nb: { one: "{n} oppfølging", other: "{n} oppfølginger" },
    }
    DigestOverdue {
        en: { one: "{n} overdue", other: "{n} overdue" },
        de: { one: "{n} überfällig", other: "{n} überfällig" },
        nb: { one: "{n} forfalt", other: "{n} forfalt" },
    }
    FollowUpsMine { en: "Your digest and calendar", de: "Ihre Übersicht und Ihr Kalender", nb: "Din oversikt og kalender" }
    DigestLabel { en: "Digest of your follow-ups by mail", de: "Übersicht Ihrer Wiedervorlagen per E-Mail", nb: "Oversikt over oppfølgingene dine på e-post" }
    CalendarTitle { en: "In your calendar", de: "In Ihrem Kalender", nb: "I kalenderen din" }
    CalendarFeedLead {
        en: "Subscribe to your follow-ups from Outlook, Google or Apple Calendar: they appear on their due dates and move when a date changes. Calendars fetch it every few hours; reminders come by mail.",
        de: "Abonnieren Sie Ihre Wiedervorlagen in Outlook, Google oder Apple Kalender: Sie erscheinen an ihrem Fälligkeitstag und wandern mit, wenn sich ein Datum ändert. Kalender rufen das Abo alle paar Stunden ab; Erinnerungen kommen per E-Mail.",
        nb: "Abonner på oppfølgingene dine fra Outlook, Google eller Apple Kalender: de vises på forfallsdagen og flytter seg når en dato endres. Kalendere henter abonnementet med noen timers mellomrom; påminnelser kommer på e-post.",
    }
    CalendarFeedPrivate { en: "Anyone with this link sees your follow-ups' dates and service names. Make a new link if it got into the wrong hands.", de: "Wer diesen Link hat, sieht Daten und Dienstnamen Ihrer Wiedervorlagen. Erstellen Sie einen neuen Link, falls er in falsche Hände geraten ist.", nb: "Alle med denne lenken ser datoene og tjenestenavnene i oppfølgingene dine. Lag en ny lenke hvis den har havnet hos feil person." }
    CalendarSubscribe { en: "Subscribe", de: "Abonnieren", nb: "Abonner" }
    CalendarStart { en: "Make a calendar link", de: "Kalender-Link erstellen", nb: "Lag en kalenderlenke" }
    CalendarRotate { en: "Make a new link", de: "Neuen Link erstellen", nb: "Lag en ny lenke" }
    CalendarStop { en: "Stop the calendar feed", de: "Kalender-Abo beenden", nb: "Stopp kalenderabonnementet" }
    CalendarFile { en: "Add to calendar", de: "In den Kalender", nb: "Legg i kalenderen" }
    ReasonAnswerDue { en: "Answer due", de: "Antwort fällig", nb: "Svar forfaller" }
    ReasonReviewDue { en: "Review due", de: "Prüfung fällig", nb: "Vurdering forfaller" }
    ReasonReassessment { en: "Assess again", de: "Erneut prüfen", nb: "Vurder på nytt" }
    FollowUpOpen { en: "Open", de: "Offen", nb: "Åpen" }
    FollowUpDone { en: "Done", de: "Erledigt", nb: "Ferdig" }
    FollowUpCancelled { en: "No longer needed", de: "Nicht mehr nötig", nb: "Ikke lenger nødvendig" }
    FollowUpsOverdue { en: "Overdue", de: "Überfällig", nb: "Forfalt" }
    FollowUpsThisWeek { en: "Due this week", de: "Diese Woche fällig", nb: "Forfaller denne uken" }
    FollowUpsLater { en: "Later", de: "Später", nb: "Senere" }
    ErrReminderCount { en: "Choose between 1 and 10 reminders.", de: "Wählen Sie zwischen 1 und 10 Erinnerungen.", nb: "Velg mellom 1 og 10 påminnelser." }
    ErrReviewDays { en: "Choose between 1 and 90 days.", de: "Wählen Sie zwischen 1 und 90 Tagen.", nb: "Velg mellom 1 og 90 dager." }
    ErrReassessMonths { en: "Choose between 1 and 60 months.", de: "Wählen Sie zwischen 1 und 60 Monaten.", nb: "Velg mellom 1 og 60 måneder." }
    ErrDateInPast { en: "Please choose today or a later day.", de: "Bitte wählen Sie heute oder einen späteren Tag.", nb: "Velg i dag eller en senere dag." }
    ErrDateTooFar { en: "Please choose a day within the next three years.", de: "Bitte wählen Sie einen Tag innerhalb der nächsten drei Jahre.", nb: "Velg en dag innen de neste tre årene." }
    MailWillRetry { en: "Not delivered yet; trying again", de: "Noch nicht zugestellt; neuer Versuch folgt", nb: "Ikke levert ennå; prøver igjen" }
    ReportTitle { en: "Compliance report: AI services", de: "Compliance-Bericht: KI-Dienste", nb: "Samsvarsrapport: KI-tjenester" }
    ReportScope { en: "Scope", de: "Umfang", nb: "Omfang" }
    ReportScopeAll { en: "All services", de: "Alle Dienste", nb: "Alle tjenester" }
    ReportScopeSelection {
        en: { one: "{n} selected service", other: "{n} selected services" },
        de: { one: "{n} ausgewählter Dienst", other: "{n} ausgewählte Dienste" },
        nb: { one: "{n} valgt tjeneste", other: "{n} valgte tjenester" },
    }
    ReportGeneratedAt { en: "Generated", de: "Erstellt", nb: "Laget" }
    ReportGeneratedOn { en: "Generated on {at}", de: "Erstellt am {at}", nb: "Laget {at}" }
    ReportTimeZone { en: "Time zone of all dates", de: "Zeitzone aller Angaben", nb: "Tidssone for alle tidspunkter" }
    ReportPreparedBy { en: "Prepared by", de: "Erstellt von", nb: "Laget av" }
    ReportHashNote {
        en: "SHA-256 of the report's data (canonical JSON, without the time of generation, the person and the language). A later report of unchanged data has the same value; it is also recorded in the audit log.",
        de: "SHA-256 der Berichtsdaten (kanonisches JSON, ohne Erstellungszeit, Person und Sprache). Ein späterer Bericht unveränderter Daten hat denselben Wert; er steht auch im Prüfprotokoll.",
        nb: "SHA-256 av rapportens data (kanonisk JSON, uten tidspunkt, person og språk). En senere rapport av uendrede data har samme verdi; den er også ført i revisjonsloggen.",
    }
    ReportContents { en: "Contents", de: "Inhalt", nb: "Innhold" }
    ReportSummary { en: "Summary", de: "Zusammenfassung", nb: "Sammendrag" }
    ReportVendors { en: "Vendors and their place in the supply chain", de: "Anbieter und ihre Rolle in der Lieferkette", nb: "Leverandører og deres plass i leverandørkjeden" }
    ReportAppendix { en: "Appendix", de: "Anhang", nb: "Vedlegg" }
    ReportMailTrail { en: "Mails sent to vendors", de: "An Anbieter gesendete E-Mails", nb: "E-post sendt til leverandører" }
    ReportAnswersReceived { en: "Answers received", de: "Eingegangene Antworten", nb: "Mottatte svar" }
    ReportAuditLog { en: "Audit log", de: "Prüfprotokoll", nb: "Revisjonslogg" }
    ReportByStatus { en: "Services by status", de: "Dienste nach Status", nb: "Tjenester etter status" }
    ReportByAssessment { en: "Services by assessment", de: "Dienste nach Bewertung", nb: "Tjenester etter vurdering" }
    ReportAttention { en: "Needs attention", de: "Offene Punkte", nb: "Trenger oppfølging" }
    ReportNoAnswer { en: "Requests with no answer", de: "Anfragen ohne Antwort", nb: "Forespørsler uten svar" }
    ReportOpenRequests { en: "Requests waiting for an answer", de: "Anfragen, die auf Antwort warten", nb: "Forespørsler som venter på svar" }
    ReportGivenUpOn { en: "Given up on", de: "Aufgegeben am", nb: "Gitt opp" }
    ReportFacts { en: "Facts", de: "Angaben", nb: "Opplysninger" }
    ReportSupplyChain { en: "Supply chain", de: "Lieferkette", nb: "Leverandørkjede" }
    ReportPart { en: "Part", de: "Funktion", nb: "Funksjon" }
    ReportTopic { en: "Topic", de: "Thema", nb: "Tema" }
    ReportHowSure { en: "How sure", de: "Wie sicher", nb: "Hvor sikkert" }
    ReportQuestionsAsked { en: "Questions asked and answers", de: "Gestellte Fragen und Antworten", nb: "Stilte spørsmål og svar" }
    ReportWhyAsked { en: "Why we ask", de: "Warum wir fragen", nb: "Hvorfor vi spør" }
    ReportEarlierAnswer { en: "Earlier answer", de: "Frühere Antwort", nb: "Tidligere svar" }
    ReportNotReviewed { en: "Not reviewed yet", de: "Noch nicht bewertet", nb: "Ikke vurdert ennå" }
    ReportNoAnswerYet { en: "(no answer)", de: "(keine Antwort)", nb: "(ikke besvart)" }
    ReportAnsweredAt { en: "Answered on", de: "Beantwortet am", nb: "Besvart" }
    ReportAnsweredVia { en: "Answered", de: "Beantwortet", nb: "Besvart via" }
    ReportReceivedOn { en: "Received on", de: "Eingegangen am", nb: "Mottatt" }
    ReportReceivedSource { en: "Received as", de: "Eingegangen als", nb: "Mottatt som" }
    ReportMessageId { en: "Message-ID", de: "Message-ID", nb: "Message-ID" }
    ReportQueuedAt { en: "Queued", de: "Eingereiht", nb: "Lagt i kø" }
    ReportPersonal { en: "personal data", de: "personenbezogen", nb: "personopplysninger" }
    ReportAuthorityNotifier { en: "Reports to the supervisory authority", de: "Meldet an die Aufsichtsbehörde", nb: "Melder til tilsynsmyndigheten" }
    ReportMoved { en: "Times moved", de: "Verschoben", nb: "Flyttet" }
    ReportClosedAt { en: "Closed", de: "Abgeschlossen", nb: "Avsluttet" }
    ReportWhen { en: "When", de: "Wann", nb: "Når" }
    ReportWho { en: "Who", de: "Wer", nb: "Hvem" }
    ReportWhat { en: "What", de: "Was", nb: "Hva" }
    ReportMediaType { en: "Type", de: "Typ", nb: "Type" }
    ReportSize { en: "Size", de: "Größe", nb: "Størrelse" }
    ReportBytes {
        en: { one: "{n} byte", other: "{n} bytes" },
        de: { one: "{n} Byte", other: "{n} Bytes" },
        nb: { one: "{n} byte", other: "{n} byte" },
    }
    ReportLinks { en: "Documents", de: "Dokumente", nb: "Dokumenter" }
    ReportNone { en: "None.", de: "Keine.", nb: "Ingen." }
    ReportFormatPdf { en: "PDF report", de: "PDF-Bericht", nb: "PDF-rapport" }
    ReportFormatServicesCsv { en: "CSV of services", de: "CSV der Dienste", nb: "CSV over tjenester" }
    ReportFormatAnswersCsv { en: "CSV of answers", de: "CSV der Antworten", nb: "CSV over svar" }
    ReportFormatJson { en: "JSON export", de: "JSON-Export", nb: "JSON-eksport" }
    ReportQuestion { en: "Question", de: "Frage", nb: "Spørsmål" }
    ReportReviewer { en: "Reviewed by", de: "Bewertet von", nb: "Vurdert av" }
    ErrReportChooseServices { en: "Choose at least one service, or all of them.", de: "Wählen Sie mindestens einen Dienst oder alle.", nb: "Velg minst én tjeneste, eller alle." }
    ReportsMake { en: "Make a report", de: "Bericht erstellen", nb: "Lag en rapport" }
    ReportsIntro { en: "For your data-protection officer or an auditor: the services with their vendors, findings, the questions exactly as sent with the answers, the reviews and decisions, follow-ups, the incident register with the Art. 33 and Art. 34 decisions, the mails and the audit log. Each download is recorded in the audit log with the SHA-256 of its data.", de: "Für Ihre Datenschutzbeauftragte oder Prüfer: die Dienste mit ihren Anbietern, Erkenntnissen, den Fragen genau wie gesendet mit den Antworten, Bewertungen und Entscheidungen, Wiedervorlagen, dem Verzeichnis der Vorfälle mit den Entscheidungen nach Art. 33 und Art. 34, E-Mails und dem Prüfprotokoll. Jeder Download wird mit dem SHA-256 seiner Daten im Prüfprotokoll vermerkt.", nb: "For personvernombudet eller en revisor: tjenestene med leverandører, funn, spørsmålene nøyaktig slik de ble sendt med svarene, vurderinger og beslutninger, oppfølginger, hendelsesregisteret med avgjørelsene etter art. 33 og art. 34, e-postene og revisjonsloggen. Hver nedlasting føres i revisjonsloggen med SHA-256 av dataene." }
    ReportsChosenOnly { en: "Only these services:", de: "Nur diese Dienste:", nb: "Bare disse tjenestene:" }
    ReportsJsonNote { en: "The JSON export always holds the whole organisation, with the attached documents, and can be imported into another aivet (aivet import).", de: "Der JSON-Export enthält immer die ganze Organisation mit den angehängten Dokumenten und lässt sich in ein anderes aivet importieren (aivet import).", nb: "JSON-eksporten inneholder alltid hele organisasjonen med vedlagte dokumenter, og kan importeres i en annen aivet (aivet import)." }
    ReportsEarlier { en: "Earlier exports", de: "Frühere Exporte", nb: "Tidligere eksporter" }
    ReportsFormat { en: "Format", de: "Format", nb: "Format" }
    ReportPage { en: "Page", de: "Seite", nb: "Side" }
    ReportOpenIncidents { en: "Open incidents", de: "Offene Vorfälle", nb: "Åpne hendelser" }
    ReportClocksPending { en: "Open incidents awaiting the Art. 33 decision", de: "Offene Vorfälle ohne Entscheidung nach Art. 33", nb: "Åpne hendelser som venter på avgjørelse etter art. 33" }
    ReportClocksMissed { en: "Of these, past the 72 hours", de: "Davon nach Ablauf der 72 Stunden", nb: "Av disse, etter at 72 timer har gått" }
    ReportLinkedIncidents { en: "Linked incidents", de: "Verknüpfte Vorfälle", nb: "Tilknyttede hendelser" }
    ReportSources { en: "Sources", de: "Quellen", nb: "Kilder" }
    ReportRecordedBy { en: "Recorded by", de: "Erfasst von", nb: "Registrert av" }
    AuditReportExported { en: "Exported the report ({format}, {scope}), SHA-256 {sha256}", de: "Bericht exportiert ({format}, {scope}), SHA-256 {sha256}", nb: "Eksporterte rapporten ({format}, {scope}), SHA-256 {sha256}" }
    ClearanceAllowed { en: "Allowed", de: "Erlaubt", nb: "Tillatt" }
    ClearanceConditional { en: "Allowed with conditions", de: "Erlaubt unter Bedingungen", nb: "Tillatt med vilkår" }
    ClearanceNotAllowed { en: "Not allowed", de: "Nicht erlaubt", nb: "Ikke tillatt" }
    StandingAllowed { en: "Allowed", de: "Erlaubt", nb: "Tillatt" }
    StandingConditional { en: "Allowed with conditions", de: "Erlaubt unter Bedingungen", nb: "Tillatt med vilkår" }
    StandingNotAllowed { en: "Not allowed", de: "Nicht erlaubt", nb: "Ikke tillatt" }
    StandingNotDecided { en: "Not decided", de: "Nicht entschieden", nb: "Ikke avgjort" }
    GroundDecided { en: "As decided.", de: "Wie entschieden.", nb: "Som avgjort." }
    GroundNoClearanceNeeded { en: "The policy does not require a clearance for this class.", de: "Die Richtlinie verlangt für diese Klasse keine Freigabe.", nb: "Retningslinjen krever ingen klarering for denne klassen." }
    GroundUndecided { en: "Needs a clearance; nobody has decided yet.", de: "Braucht eine Freigabe; noch nicht entschieden.", nb: "Krever klarering; ingen har avgjort ennå." }
    GroundExpired { en: "The decision has expired: decide again.", de: "Die Entscheidung ist abgelaufen: bitte neu entscheiden.", nb: "Beslutningen har utløpt: avgjør på nytt." }
    GroundSuspended { en: "Suspended by an incident at the vendor: decide again.", de: "Wegen eines Vorfalls beim Anbieter ausgesetzt: bitte neu entscheiden.", nb: "Satt på vent på grunn av en hendelse hos leverandøren: avgjør på nytt." }
    GroundAssessmentNotCleared { en: "The service's assessment is “not cleared”.", de: "Die Prüfung des Dienstes lautet „nicht freigegeben“.", nb: "Vurderingen av tjenesten er «ikke godkjent»." }
    GroundAssessmentPending { en: "Allowed once the service's assessment is cleared.", de: "Erlaubt, sobald die Prüfung des Dienstes freigegeben ist.", nb: "Tillatt når vurderingen av tjenesten er godkjent." }
    ErrChooseClearance { en: "Please choose what applies to this data.", de: "Bitte wählen Sie, was für diese Daten gilt.", nb: "Velg hva som gjelder for disse dataene." }
    ErrConditionRequired { en: "Please describe the condition, for example “only pseudonymised”.", de: "Bitte beschreiben Sie die Bedingung, zum Beispiel „nur pseudonymisiert“.", nb: "Beskriv vilkåret, for eksempel «bare pseudonymisert»." }
    ErrExpiryPast { en: "The last day cannot be in the past.", de: "Der letzte Tag kann nicht in der Vergangenheit liegen.", nb: "Siste dag kan ikke være i fortiden." }
    ErrServiceArchived { en: "This service is archived. Restore it before deciding.", de: "Dieser Dienst ist archiviert. Stellen Sie ihn wieder her, bevor Sie entscheiden.", nb: "Denne tjenesten er arkivert. Gjenopprett den før du avgjør." }
    ErrExpiryNoticeDays { en: "Choose between 1 and 90 days.", de: "Wählen Sie zwischen 1 und 90 Tagen.", nb: "Velg mellom 1 og 90 dager." }
    ClearanceTitle { en: "Which data may go in", de: "Welche Daten hinein dürfen", nb: "Hvilke data som kan sendes inn" }
    ClearanceLead { en: "One decision per data class. A class marked “needs clearance” may go in only with a current decision, once the service's assessment is cleared.", de: "Eine Entscheidung je Datenklasse. Eine Klasse mit „braucht Freigabe“ darf nur mit einer gültigen Entscheidung hinein, wenn die Prüfung des Dienstes freigegeben ist.", nb: "Én beslutning per dataklasse. En klasse merket «krever klarering» kan bare sendes inn med en gjeldende beslutning, når vurderingen av tjenesten er godkjent." }
    ClearanceClass { en: "Data class", de: "Datenklasse", nb: "Dataklasse" }
    ClearanceStanding { en: "May it go in?", de: "Darf sie hinein?", nb: "Kan den sendes inn?" }
    ClearanceDecidedLabel { en: "Decided", de: "Entschieden", nb: "Avgjort" }
    ClearanceDecidedBy { en: "{name}, {at}", de: "{name}, {at}", nb: "{name}, {at}" }
    ClearanceLastDay { en: "Last day", de: "Letzter Tag", nb: "Siste dag" }
    ClearanceLastDayHelp { en: "Optional. From the day after, the class counts as not allowed.", de: "Optional. Ab dem Tag danach gilt die Klasse als nicht erlaubt.", nb: "Valgfritt. Fra dagen etter regnes klassen som ikke tillatt." }
    ClearanceCondition { en: "Condition", de: "Bedingung", nb: "Vilkår" }
    ClearanceEvidence { en: "Rests on", de: "Gestützt auf", nb: "Bygger på" }
    ClearanceEvidenceNone { en: "No findings or reviewed answers yet.", de: "Noch keine Erkenntnisse oder bewerteten Antworten.", nb: "Ingen funn eller vurderte svar ennå." }
    ClearanceReceives { en: "Sent to this service", de: "Geht an diesen Dienst", nb: "Sendes til tjenesten" }
    ClearanceProtected { en: "Needs clearance", de: "Braucht Freigabe", nb: "Krever klarering" }
    ClearanceDecide { en: "Decide", de: "Entscheiden", nb: "Avgjør" }
    ClearanceSave { en: "Save decision", de: "Entscheidung speichern", nb: "Lagre beslutningen" }
    ClearanceNoClasses { en: "The organisation has no data classes yet (Settings).", de: "Die Organisation hat noch keine Datenklassen (Einstellungen).", nb: "Organisasjonen har ingen dataklasser ennå (Innstillinger)." }
    CiteFinding { en: "Finding: {topic}", de: "Erkenntnis: {topic}", nb: "Funn: {topic}" }
    CiteAnswer { en: "Answer to question {n} ({review})", de: "Antwort auf Frage {n} ({review})", nb: "Svar på spørsmål {n} ({review})" }
    ConflictBanner {
        en: { one: "{n} data class goes to this service although it may not:", other: "{n} data classes go to this service although they may not:" },
        de: { one: "{n} Datenklasse geht an diesen Dienst, obwohl sie nicht darf:", other: "{n} Datenklassen gehen an diesen Dienst, obwohl sie nicht dürfen:" },
        nb: { one: "{n} dataklasse sendes til denne tjenesten selv om den ikke er tillatt:", other: "{n} dataklasser sendes til denne tjenesten selv om de ikke er tillatt:" },
    }
    DashConflicts { en: "Services receiving data they may not", de: "Dienste mit Daten, die nicht hinein dürfen", nb: "Tjenester som får data de ikke skal ha" }
    FilterConflicts { en: "Only with data conflicts", de: "Nur mit Datenkonflikten", nb: "Bare med datakonflikter" }
    ConflictBadge { en: "Data conflict", de: "Datenkonflikt", nb: "Datakonflikt" }
    NavAllowed { en: "Which data where", de: "Welche Daten wohin", nb: "Hvilke data hvor" }
    AllowedTitle { en: "Which data may I put into which AI tool?", de: "Welche Daten darf ich in welches KI-Werkzeug eingeben?", nb: "Hvilke data kan jeg legge inn i hvilket KI-verktøy?" }
    AllowedLead { en: "For everyone at {org}: what you may put into each AI tool we use. If a kind of data is not listed as allowed for a tool, do not put it in. When in doubt, ask before you paste.", de: "Für alle bei {org}: was Sie in welches unserer KI-Werkzeuge eingeben dürfen. Steht eine Art von Daten bei einem Werkzeug nicht als erlaubt, geben Sie sie dort nicht ein. Im Zweifel erst fragen, dann einfügen.", nb: "For alle i {org}: hva du kan legge inn i hvert KI-verktøy vi bruker. Står en type data ikke som tillatt for et verktøy, skal du ikke legge den inn der. Er du i tvil, spør før du limer inn." }
    AllowedAsOf { en: "As of {date}", de: "Stand: {date}", nb: "Per {date}" }
    AllowedYes { en: "You may put in", de: "Erlaubt", nb: "Du kan legge inn" }
    AllowedIf { en: "Only under a condition", de: "Nur unter einer Bedingung", nb: "Bare på vilkår" }
    AllowedNo { en: "Do not put in", de: "Nicht eingeben", nb: "Ikke legg inn" }
    AllowedNone { en: "No AI services are in use yet.", de: "Noch keine KI-Dienste im Einsatz.", nb: "Ingen KI-tjenester er i bruk ennå." }
    AllowedNothing { en: "nothing", de: "nichts", nb: "ingenting" }
    AllowedTrial { en: "(on trial)", de: "(in Erprobung)", nb: "(under utprøving)" }
    FieldNeedsClearance { en: "Needs clearance", de: "Braucht Freigabe", nb: "Krever klarering" }
    PolicyLead { en: "A class marked “needs clearance” may go into an AI service only after the service's assessment is cleared and someone decided it may. The others may go in unless someone decides otherwise.", de: "Eine Klasse mit „braucht Freigabe“ darf erst in einen KI-Dienst, wenn dessen Prüfung freigegeben ist und jemand es erlaubt hat. Die anderen dürfen hinein, solange niemand anders entscheidet.", nb: "En klasse merket «krever klarering» kan bare sendes til en KI-tjeneste når vurderingen er godkjent og noen har tillatt det. De andre kan sendes inn med mindre noen avgjør noe annet." }
    PolicyReviewedOn { en: "Policy checked on {at} by {name}.", de: "Richtlinie geprüft am {at} von {name}.", nb: "Retningslinjen ble kontrollert {at} av {name}." }
    PolicyNotReviewed { en: "Nobody has checked the policy yet.", de: "Die Richtlinie wurde noch nicht geprüft.", nb: "Ingen har kontrollert retningslinjen ennå." }
    PolicyConfirm { en: "I have checked which classes need clearance", de: "Ich habe geprüft, welche Klassen eine Freigabe brauchen", nb: "Jeg har kontrollert hvilke klasser som krever klarering" }
    FieldExpiryNoticeDays { en: "Days before a data decision expires to follow it up", de: "Tage vor Ablauf einer Datenentscheidung bis zur Wiedervorlage", nb: "Dager før en databeslutning utløper til oppfølging" }
    ReasonDecisionExpiry { en: "Data decision expires", de: "Datenentscheidung läuft ab", nb: "Databeslutning utløper" }
    AuditClearanceDecided { en: "Decided for {class}: {clearance}", de: "Für {class} entschieden: {clearance}", nb: "Avgjorde for {class}: {clearance}" }
    AuditPolicyReviewed { en: "Checked which data classes need clearance", de: "Geprüft, welche Datenklassen eine Freigabe brauchen", nb: "Kontrollerte hvilke dataklasser som krever klarering" }
    EventClearanceDecided { en: "Data decision", de: "Datenentscheidung", nb: "Databeslutning" }

    // --- engine advisories ---
    EngineSglang { en: "SGLang", de: "SGLang", nb: "SGLang" }
    EngineVllm { en: "vLLM", de: "vLLM", nb: "vLLM" }
    EngineTensorrtLlm { en: "TensorRT-LLM", de: "TensorRT-LLM", nb: "TensorRT-LLM" }
    EngineTgi { en: "Text Generation Inference (TGI)", de: "Text Generation Inference (TGI)", nb: "Text Generation Inference (TGI)" }
    EngineLlamaCpp { en: "llama.cpp", de: "llama.cpp", nb: "llama.cpp" }
    EngineOllama { en: "Ollama", de: "Ollama", nb: "Ollama" }
    EngineOther { en: "Other", de: "Andere", nb: "Annen" }
    VersionSourceVendorAnswer { en: "Vendor's answer", de: "Antwort des Anbieters", nb: "Svar fra leverandøren" }
    VersionSourceContract { en: "Contract", de: "Vertrag", nb: "Kontrakt" }
    VersionSourceOwnDeployment { en: "Own deployment", de: "Eigener Betrieb", nb: "Egen drift" }
    ExposureAffected { en: "Affected", de: "Betroffen", nb: "Berørt" }
    ExposureNotAffected { en: "Not affected", de: "Nicht betroffen", nb: "Ikke berørt" }
    ExposureUnknown { en: "Not known: check the version", de: "Nicht bekannt: Version prüfen", nb: "Ikke kjent: kontroller versjonen" }
    ExposureNotApplicable { en: "Does not apply", de: "Trifft nicht zu", nb: "Gjelder ikke" }
    ExposureFixedIn { en: "Fixed in {version}", de: "Behoben in {version}", nb: "Rettet i {version}" }
    ColAdvisory { en: "Advisory", de: "Hinweis", nb: "Varsel" }
    ColExposure { en: "Exposure", de: "Betroffenheit", nb: "Berørt?" }
    ErrOsvNotJson {
        en: "This is not JSON. An OSV record or a list of OSV records is expected.",
        de: "Das ist kein JSON. Erwartet wird ein OSV-Eintrag oder eine Liste von OSV-Einträgen.",
        nb: "Dette er ikke JSON. Det ventes en OSV-post eller en liste med OSV-poster.",
    }
    ErrOsvNotRecord { en: "Record {position}: not an OSV record.", de: "Eintrag {position}: kein OSV-Eintrag.", nb: "Post {position}: ikke en OSV-post." }
    ErrOsvNoId { en: "Record {position} has no id.", de: "Eintrag {position} hat keine ID.", nb: "Post {position} har ingen ID." }
    ErrOsvNoPackage {
        en: "{id}: no affected package we can match.",
        de: "{id}: kein betroffenes Paket, das wir zuordnen können.",
        nb: "{id}: ingen berørt pakke vi kan gjenkjenne.",
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

    /// Every placeholder of a message in a language, over all its forms
    /// (`n` always, for a plural message).
    fn all_placeholders(m: Msg, lang: Lang) -> BTreeSet<String> {
        let mut out: BTreeSet<String> = m
            .texts(lang)
            .forms()
            .iter()
            .flat_map(|f| placeholders(f))
            .collect();
        if m.is_plural() {
            out.insert("n".into());
        }
        out
    }

    /// Same-as-English texts that are correct in the other language too.
    const SAME_EVERYWHERE: &[Msg] = &[
        Msg::AppName,
        Msg::Organisation,
        Msg::OrgDetailsTitle,
        Msg::ExportCsvExcel,
        Msg::EngineTgi,
    ];

    #[test]
    fn every_key_is_translated_in_every_language() {
        let mut missing = Vec::new();
        for &m in Msg::ALL {
            for lang in Lang::ALL {
                for t in m.texts(lang).forms() {
                    if t.trim().is_empty() {
                        missing.push(format!("{}: empty in {lang}", m.key()));
                    }
                }
                if m.texts(lang).is_plural() != m.is_plural() {
                    missing.push(format!("{}: plural in some languages only", m.key()));
                }
            }
            for lang in [Lang::De, Lang::Nb] {
                if m.text(lang) == m.text(Lang::En)
                    && m.text(Lang::En).len() > 12
                    && !SAME_EVERYWHERE.contains(&m)
                {
                    missing.push(format!("{}: {lang} is the English text", m.key()));
                }
                if all_placeholders(m, lang) != all_placeholders(m, Lang::En) {
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
    fn no_message_hedges_a_plural_with_brackets() {
        // "contact(s)", "Kontakt(e)", "kontakt(er)": a count takes plural forms.
        for &m in Msg::ALL {
            for lang in Lang::ALL {
                for t in m.texts(lang).forms() {
                    for hedge in ["(s)", "(e)", "(er)", "(en)", "(n)"] {
                        assert!(
                            !t.contains(hedge),
                            "{} in {lang} hedges a plural: {t}",
                            m.key()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn keys_round_trip() {
        for &m in Msg::ALL {
            assert_eq!(Msg::from_key(m.key()), Some(m));
        }
    }

    #[test]
    fn msg_fills_placeholders() {
        assert_eq!(
            crate::msg!(Lang::De, Msg::DashboardWelcome, name = "Kari"),
            "Willkommen, Kari."
        );
        let name = String::from("Ola");
        assert_eq!(
            crate::msg!(Lang::Nb, Msg::DashboardWelcome, name = &name),
            "Velkommen, Ola."
        );
    }

    #[test]
    fn a_value_is_never_read_as_a_placeholder() {
        assert_eq!(
            crate::msg!(Lang::En, Msg::DashboardWelcome, name = "{name}"),
            "Welcome, {name}."
        );
    }

    #[test]
    fn plural_forms_follow_the_count() {
        for (lang, one, many, zero) in [
            (
                Lang::En,
                "Sent to 1 contact.",
                "Sent to 3 contacts.",
                "Sent to 0 contacts.",
            ),
            (
                Lang::De,
                "An 1 Kontakt gesendet.",
                "An 3 Kontakte gesendet.",
                "An 0 Kontakte gesendet.",
            ),
            (
                Lang::Nb,
                "Sendt til 1 kontakt.",
                "Sendt til 3 kontakter.",
                "Sendt til 0 kontakter.",
            ),
        ] {
            assert_eq!(crate::msg!(lang, Msg::AskSent, n = 1), one);
            assert_eq!(crate::msg!(lang, Msg::AskSent, n = 3usize), many);
            assert_eq!(crate::msg!(lang, Msg::AskSent, n = 0i64), zero);
        }
        assert_eq!(
            crate::msg!(Lang::En, Msg::ImportHasErrors, n = 1),
            "One problem found. Correct the file and check again; nothing was saved."
        );
    }

    #[test]
    fn the_compile_time_check_compares_names_exactly() {
        assert!(Msg::DashboardWelcome.takes_exactly(&["name"]));
        assert!(!Msg::DashboardWelcome.takes_exactly(&[]));
        assert!(!Msg::DashboardWelcome.takes_exactly(&["nmae"]));
        assert!(!Msg::DashboardWelcome.takes_exactly(&["name", "extra"]));
        assert!(Msg::Save.takes_exactly(&[]));
        assert!(!Msg::Save.takes_exactly(&["name"]));
        // A plural message needs its count, even where a form leaves it out.
        assert!(Msg::ImportHasErrors.takes_exactly(&["n"]));
        assert!(!Msg::ImportHasErrors.takes_exactly(&[]));
        assert!(Msg::ImportReady.takes_exactly(&["n", "vendors"]));
        assert!(!Msg::ImportReady.takes_exactly(&["vendors"]));
        assert!(Msg::OrgsShown.takes_exactly(&["shown", "n"]));
    }

    #[test]
    fn cldr_categories_for_our_languages() {
        use intl_pluralrules::PluralCategory::{ONE, OTHER};
        for lang in Lang::ALL {
            assert_eq!(plural_category(lang, 1), ONE, "{lang}");
            for n in [0, 2, 5, 11, 21, 101, 1_000_000] {
                assert_eq!(plural_category(lang, n), OTHER, "{lang} {n}");
            }
        }
    }
}
