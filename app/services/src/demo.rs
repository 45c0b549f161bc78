//! `aivet demo`: a realistic small business, made with the same use cases
//! a person uses, so that a new user sees the product working and each
//! feature can be checked from outside.
//!
//! The demo organisation has the slug `demo` and one owner account. Run
//! again, it starts afresh: the previous demo organisation is taken out of
//! use (renamed, its member removed) but not deleted, because an
//! organisation's audit log is append-only. Time moves on a clock of the
//! demo's own, so that what happened weeks ago (questions sent, answers
//! entered, a deadline passed) has the dates it would have had.
//!
//! Each feature adds its own demo data here.

use crate::clock::FixedClock;
use crate::jobs::JobSettings;
use crate::{Auth, ServiceError, Services};
use aivet_domain::inventory::{ContactForm, FindingForm, ServiceForm, VendorForm};
use aivet_domain::questions::{AnswerForm, DecisionForm, ReviewForm, SendForm};
use aivet_domain::{Email, Lang, OrgName, Password, PersonName, ServiceId, Slug, VendorId};
use aivet_store::NewUser;
use chrono::{DateTime, Duration, Utc};
use rand::Rng;

/// The demo's owner account, as the command prints it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DemoAccount {
    pub email: String,
    pub password: String,
    /// The organisation's slug (`demo`, unless another organisation has it).
    pub slug: String,
}

pub const DEMO_EMAIL: &str = "demo@aivet.example";
pub const DEMO_SLUG: &str = "demo";

struct Vendor {
    name: &'static str,
    role: &'static str,
    website: &'static str,
    dpa_url: &'static str,
    contact: (&'static str, &'static str, Lang),
}

struct Service {
    name: &'static str,
    purpose: &'static str,
    vendor: usize,
    integrator: Option<usize>,
    model_provider: Option<usize>,
    inference_host: Option<usize>,
    model: &'static str,
    engine: &'static str,
    deployment: &'static str,
    status: &'static str,
    /// Positions of the default data classes: 0 public, 1 internal,
    /// 2 confidential, 3 personal, 4 special categories.
    classes: &'static [usize],
    notice_hours: &'static str,
    /// (topic, status, what the documents say).
    findings: Vec<(&'static str, &'static str, &'static str)>,
}

struct Business {
    org: &'static str,
    owner: &'static str,
    vendors: [Vendor; 6],
    services: [Service; 8],
    /// The vendor's answers to the five questions, entered from its mail.
    answers: [&'static str; 5],
    received_from: &'static str,
    review_note: &'static str,
    decision_note: &'static str,
    /// The conditions for confidential and personal data in the cleared service.
    conditions: [&'static str; 2],
    /// The incident at the inference host of the website chat: title,
    /// what happened, what we know about being affected.
    incident: [&'static str; 3],
}

// Vendors: 0 OpenAI, 1 Microsoft, 2 DeepL, 3 Cloudflare, 4 the local IT
// provider (integrator), 5 a transcription service.
fn business(lang: Lang) -> Business {
    let vendors = |it: (&'static str, &'static str, &'static str), contact_lang: Lang| {
        [
            Vendor {
                name: "OpenAI",
                role: "model_provider",
                website: "https://openai.com",
                dpa_url: "https://openai.com/policies/data-processing-addendum",
                contact: ("Privacy team", "privacy@openai.example", Lang::En),
            },
            Vendor {
                name: "Microsoft",
                role: "application",
                website: "https://www.microsoft.com",
                dpa_url: "https://www.microsoft.com/licensing/docs/view/Microsoft-Products-and-Services-Data-Protection-Addendum-DPA",
                contact: ("Account team", "account-team@microsoft.example", contact_lang),
            },
            Vendor {
                name: "DeepL",
                role: "application",
                website: "https://www.deepl.com",
                dpa_url: "https://www.deepl.com/pro-data-security",
                contact: ("Data Protection Officer", "privacy@deepl.example", contact_lang),
            },
            Vendor {
                name: "Cloudflare",
                role: "inference_host",
                website: "https://www.cloudflare.com",
                dpa_url: "https://www.cloudflare.com/cloudflare-customer-dpa/",
                contact: ("Security", "security@cloudflare.example", Lang::En),
            },
            Vendor {
                name: it.0,
                role: "integrator",
                website: it.1,
                dpa_url: "",
                contact: (it.2, "service@it-partner.example", contact_lang),
            },
            Vendor {
                name: "Otter.ai",
                role: "application",
                website: "https://otter.ai",
                dpa_url: "",
                contact: ("Support", "support@otter.example", Lang::En),
            },
        ]
    };
    match lang {
        Lang::En => Business {
            org: "Harbour Street Accountants Ltd",
            owner: "Sam Taylor",
            vendors: vendors(("Brightside IT Ltd", "https://brightside-it.example", "Priya Shah"), Lang::En),
            services: services(
                [
                    ("ChatGPT Team", "Drafting letters and summarising documents"),
                    ("Microsoft 365 Copilot", "Email and meeting summaries in Outlook and Teams"),
                    ("DeepL Pro", "Translating client correspondence"),
                    ("Client chat on the website", "Answers first questions of prospective clients"),
                    ("Receipt scanning", "Reads receipts and invoices into the bookkeeping"),
                    ("Meeting transcripts", "Notes of client meetings"),
                    ("Image generator trial", "Pictures for the newsletter"),
                    ("Old chatbot", "Replaced by the website chat"),
                ],
                [
                    "The contract says prompts are not used for training.",
                    "Retention of 30 days for abuse monitoring, per the help pages.",
                    "Breach notice 'without undue delay'; no fixed hours.",
                    "Runs on Workers AI (GLM) set up by Brightside; isolation not described.",
                    "Brightside says the supplier keeps data in the EU.",
                ],
            ),
            answers: [
                "Each customer's requests run in separate processes; the KV cache is not shared between customers.",
                "Requests stay in memory only while they are processed; logs are kept 30 days without content.",
                "We run cross-tenant tests in every release, including requests longer than the cache.",
                "Within 24 hours by email to the contract contact; the deadline is in section 9 of the DPA.",
                "We tell you which of your data was in the affected system; you report to your authority.",
            ],
            received_from: "Mail from the account team",
            review_note: "The test for long requests is not described: ask which engine they run.",
            decision_note: "No special-category data until question 3 is answered in full.",
            conditions: [
                "No customer names or prices from offers not yet signed.",
                "Only pseudonymised: replace names, addresses and phone numbers first.",
            ],
            incident: [
                "Workers AI (GLM-5.3) returned other customers' prompts",
                "Cloudflare reported that its Workers AI model GLM-5.3 returned content from other customers' requests in 155 responses between 27 August and 9 September 2026. Only requests over 681,280 tokens were affected: the prefill KV cache was smaller than the context window, and SGLang replaced a too-long request by a placeholder instead of rejecting it.",
                "Our website chat runs on GLM-5.3 at Workers AI (built in by Brightside IT). Whether our requests were that long is not known yet: asked Brightside for the logs.",
            ],
        },
        Lang::De => Business {
            org: "Bäckerei Sonnenschein GmbH",
            owner: "Anna Becker",
            vendors: vendors(("Nordwind IT-Service GmbH", "https://nordwind-it.example", "Jonas Wagner"), Lang::De),
            services: services(
                [
                    ("ChatGPT Team", "Texte für Aushänge und Social Media"),
                    ("Microsoft 365 Copilot", "Zusammenfassungen von E-Mails und Besprechungen"),
                    ("DeepL Pro", "Übersetzen von Lieferantenkorrespondenz"),
                    ("Bestell-Chat auf der Website", "Nimmt Vorbestellungen für Torten entgegen"),
                    ("Belegerfassung", "Liest Lieferscheine und Rechnungen in die Buchhaltung"),
                    ("Besprechungsprotokolle", "Mitschriften der Filialleiterrunde"),
                    ("Bildgenerator (Test)", "Bilder für den Newsletter"),
                    ("Alter Chatbot", "Durch den Bestell-Chat ersetzt"),
                ],
                [
                    "Laut Vertrag werden Eingaben nicht zum Training verwendet.",
                    "Aufbewahrung 30 Tage zur Missbrauchserkennung, laut Hilfeseiten.",
                    "Meldung von Vorfällen „unverzüglich“; keine feste Frist.",
                    "Läuft auf Workers AI (GLM), eingerichtet von Nordwind; Trennung nicht beschrieben.",
                    "Nordwind sagt, der Anbieter speichert in der EU.",
                ],
            ),
            answers: [
                "Die Anfragen jedes Kunden laufen in getrennten Prozessen; der KV-Cache wird nicht zwischen Kunden geteilt.",
                "Anfragen bleiben nur während der Verarbeitung im Speicher; Protokolle ohne Inhalte 30 Tage.",
                "Wir testen in jedem Release auf Vermischung zwischen Kunden, auch mit Anfragen länger als der Cache.",
                "Innerhalb von 24 Stunden per E-Mail an den Vertragskontakt; die Frist steht in Abschnitt 9 des AVV.",
                "Wir teilen mit, welche Ihrer Daten im betroffenen System waren; die Meldung an die Behörde machen Sie.",
            ],
            received_from: "E-Mail vom Account-Team",
            review_note: "Der Test mit langen Anfragen ist nicht beschrieben: nach der Inferenz-Software fragen.",
            decision_note: "Keine besonderen Kategorien, bis Frage 3 vollständig beantwortet ist.",
            conditions: [
                "Keine Kundennamen und keine Preise aus noch nicht unterschriebenen Angeboten.",
                "Nur pseudonymisiert: Namen, Adressen und Telefonnummern vorher ersetzen.",
            ],
            incident: [
                "Workers AI (GLM-5.3) gab Anfragen anderer Kunden aus",
                "Cloudflare hat berichtet, dass sein Workers-AI-Modell GLM-5.3 zwischen dem 27. August und dem 9. September 2026 in 155 Antworten Inhalte aus Anfragen anderer Kunden zurückgab. Betroffen waren nur Anfragen über 681.280 Tokens: Der Prefill-KV-Cache war kleiner als das Kontextfenster, und SGLang ersetzte eine zu lange Anfrage durch einen Platzhalter, statt sie abzulehnen.",
                "Unser Website-Chat läuft auf GLM-5.3 bei Workers AI (eingebunden vom IT-Dienstleister). Ob unsere Anfragen so lang waren, ist noch unbekannt: Logs beim IT-Dienstleister angefragt.",
            ],
        },
        Lang::Nb => Business {
            org: "Fjordlys Regnskap AS",
            owner: "Ingrid Hansen",
            vendors: vendors(("Kystnett IT AS", "https://kystnett-it.example", "Ola Berg"), Lang::Nb),
            services: services(
                [
                    ("ChatGPT Team", "Utkast til brev og sammendrag av dokumenter"),
                    ("Microsoft 365 Copilot", "Sammendrag av e-post og møter i Outlook og Teams"),
                    ("DeepL Pro", "Oversettelse av kundekorrespondanse"),
                    ("Kundechat på nettsiden", "Svarer på de første spørsmålene fra nye kunder"),
                    ("Bilagsskanning", "Leser kvitteringer og fakturaer inn i regnskapet"),
                    ("Møtereferater", "Notater fra kundemøter"),
                    ("Bildegenerator (prøve)", "Bilder til nyhetsbrevet"),
                    ("Gammel chatbot", "Erstattet av kundechatten"),
                ],
                [
                    "Avtalen sier at forespørsler ikke brukes til trening.",
                    "Lagring i 30 dager for misbruksovervåking, ifølge hjelpesidene.",
                    "Varsling av hendelser «uten ugrunnet opphold»; ingen fast frist.",
                    "Kjører på Workers AI (GLM), satt opp av Kystnett; skillet er ikke beskrevet.",
                    "Kystnett sier at leverandøren lagrer i EU.",
                ],
            ),
            answers: [
                "Hver kundes forespørsler kjører i egne prosesser; KV-cachen deles ikke mellom kunder.",
                "Forespørsler ligger bare i minnet mens de behandles; logger uten innhold lagres i 30 dager.",
                "Vi tester for datablanding mellom kunder i hver versjon, også med forespørsler lengre enn cachen.",
                "Innen 24 timer på e-post til avtalekontakten; fristen står i punkt 9 i databehandleravtalen.",
                "Vi forteller hvilke av dataene deres som var i det berørte systemet; dere melder til tilsynet.",
            ],
            received_from: "E-post fra kundeteamet",
            review_note: "Testen med lange forespørsler er ikke beskrevet: spør hvilken inferensmotor de bruker.",
            decision_note: "Ingen særlige kategorier før spørsmål 3 er besvart fullt ut.",
            conditions: [
                "Ingen kundenavn og ingen priser fra tilbud som ikke er signert.",
                "Bare pseudonymisert: bytt ut navn, adresser og telefonnumre først.",
            ],
            incident: [
                "Workers AI (GLM-5.3) ga ut andre kunders forespørsler",
                "Cloudflare meldte at Workers AI-modellen GLM-5.3 returnerte innhold fra andre kunders forespørsler i 155 svar mellom 27. august og 9. september 2026. Bare forespørsler over 681 280 tokens ble rammet: prefill-KV-cachen var mindre enn kontekstvinduet, og SGLang byttet ut en for lang forespørsel med en plassholder i stedet for å avvise den.",
                "Nettsidechatten vår kjører på GLM-5.3 hos Workers AI (bygget inn av IT-leverandøren). Om forespørslene våre var så lange, vet vi ikke ennå: har bedt IT-leverandøren om loggene.",
            ],
        },
    }
}

/// The eight services (names and purposes per language; what the
/// documents say in the notes of the first five).
fn services(names: [(&'static str, &'static str); 8], notes: [&'static str; 5]) -> [Service; 8] {
    let base = |(name, purpose): (&'static str, &'static str)| Service {
        name,
        purpose,
        vendor: 0,
        integrator: None,
        model_provider: None,
        inference_host: None,
        model: "",
        engine: "",
        deployment: "shared",
        status: "in_use",
        classes: &[],
        notice_hours: "",
        findings: Vec::new(),
    };
    let [a, b, c, d, e, f, g, h] = names;
    [
        Service {
            vendor: 0,
            model: "GPT-4o",
            classes: &[1, 2],
            findings: vec![
                ("separation", "unknown", ""),
                ("retention", "stated", notes[1]),
                ("notification", "stated", notes[2]),
            ],
            ..base(a)
        },
        Service {
            vendor: 1,
            model_provider: Some(0),
            integrator: Some(4),
            classes: &[1, 2, 3],
            notice_hours: "72",
            findings: vec![("retention", "stated", notes[0])],
            ..base(b)
        },
        Service {
            vendor: 2,
            classes: &[2, 3],
            ..base(c)
        },
        Service {
            vendor: 4,
            inference_host: Some(3),
            model: "GLM-5.3",
            engine: "SGLang 0.5.20",
            classes: &[0, 3],
            findings: vec![("separation", "unknown", notes[3])],
            ..base(d)
        },
        Service {
            vendor: 4,
            deployment: "dedicated",
            classes: &[2, 3],
            findings: vec![("retention", "stated", notes[4])],
            ..base(e)
        },
        Service {
            vendor: 5,
            classes: &[3, 4],
            ..base(f)
        },
        Service {
            vendor: 0,
            status: "trial",
            classes: &[0],
            ..base(g)
        },
        Service {
            vendor: 4,
            status: "retired",
            classes: &[],
            ..base(h)
        },
    ]
}

/// A password for the demo account: readable, 24 characters.
fn demo_password() -> String {
    const CHARS: &[u8] = b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::thread_rng();
    let body: String = (0..20)
        .map(|_| CHARS[rng.gen_range(0..CHARS.len())] as char)
        .collect();
    format!("demo{body}")
}

impl Services {
    /// Creates (or starts afresh) the demo organisation in `lang`. `clock`
    /// must be this `Services`' clock: the demo moves it through the weeks
    /// its story takes, ending at `now`.
    pub async fn create_demo(
        &self,
        lang: Lang,
        clock: &FixedClock,
        now: DateTime<Utc>,
    ) -> Result<DemoAccount, ServiceError> {
        let b = business(lang);
        let start = now - Duration::days(21);
        clock.set(start);
        let password = demo_password();
        let hash =
            crate::accounts::hash_password(Password::parse(&password).expect("a valid password"))
                .await?;
        let email = Email::parse(DEMO_EMAIL).expect("a valid address");
        let name = OrgName::parse(b.org).expect("a valid name");
        let slug = Slug::parse(DEMO_SLUG).expect("a valid slug");
        let tenant = match self.store.credentials(&email).await? {
            Some(user) => {
                let stamp = start.format("replaced-%Y%m%d%H%M%S").to_string();
                for o in self.store.orgs_of_user(user.user_id).await? {
                    if o.slug == DEMO_SLUG {
                        self.store
                            .retire_org(user.user_id, o.org_id, &stamp, start)
                            .await?;
                    }
                }
                self.store
                    .set_password_hash(user.user_id, &hash, start)
                    .await?;
                self.store.set_user_lang(user.user_id, lang).await?;
                self.store
                    .create_org(user.user_id, &name, &slug, start)
                    .await?
            }
            None => {
                let user = NewUser {
                    email,
                    name: PersonName::parse(b.owner).expect("a valid name"),
                    password_hash: hash,
                    lang,
                };
                self.store.sign_up(user, &name, &slug, start).await?.1
            }
        };
        let org = self.store.org(&tenant).await?;
        let (_, auth, _) = self.sign_in(DEMO_EMAIL, &password, "demo", None).await?;
        self.switch_org(&auth, tenant.org_id()).await?;
        let auth = Auth {
            tenant: Some(self.store.tenant_for(auth.user.id, tenant.org_id()).await?),
            ..auth
        };
        self.fill_demo(&auth, &b, clock, now).await?;
        Ok(DemoAccount {
            email: DEMO_EMAIL.to_owned(),
            password,
            slug: org.slug,
        })
    }

    async fn fill_demo(
        &self,
        auth: &Auth,
        b: &Business,
        clock: &FixedClock,
        now: DateTime<Utc>,
    ) -> Result<(), ServiceError> {
        let mut vendors: Vec<VendorId> = Vec::new();
        let mut contacts = Vec::new();
        for v in &b.vendors {
            let id = self
                .create_vendor(
                    auth,
                    &VendorForm {
                        name: v.name.into(),
                        role: v.role.into(),
                        website: v.website.into(),
                        dpa_url: v.dpa_url.into(),
                        ..Default::default()
                    },
                )
                .await?;
            let contact = self
                .add_contact(
                    auth,
                    id,
                    &ContactForm {
                        name: v.contact.0.into(),
                        email: v.contact.1.into(),
                        lang: v.contact.2.code().into(),
                        role: "security".into(),
                        primary: true,
                    },
                )
                .await?;
            vendors.push(id);
            contacts.push(contact);
        }
        let classes = self.data_classes(auth).await?;
        let mut services: Vec<ServiceId> = Vec::new();
        clock.advance(Duration::hours(1));
        for s in &b.services {
            let vendor = |i: Option<usize>| i.map(|i| vendors[i].to_string()).unwrap_or_default();
            // The IT provider told us the chat's engine and version.
            let engine = aivet_domain::advisory::parse_engine(s.engine);
            let id = self
                .create_service(
                    auth,
                    &ServiceForm {
                        name: s.name.into(),
                        purpose: s.purpose.into(),
                        vendor_id: vendors[s.vendor].to_string(),
                        integrator_id: vendor(s.integrator),
                        model_provider_id: vendor(s.model_provider),
                        inference_host_id: vendor(s.inference_host),
                        model: s.model.into(),
                        engine: s.engine.into(),
                        engine_kind: engine
                            .as_ref()
                            .map(|(e, _)| e.as_str().into())
                            .unwrap_or_default(),
                        engine_version: engine
                            .as_ref()
                            .and_then(|(_, v)| v.clone())
                            .unwrap_or_default(),
                        engine_source: if engine.is_some() {
                            "vendor_answer".into()
                        } else {
                            String::new()
                        },
                        deployment: s.deployment.into(),
                        status: s.status.into(),
                        data_classes: s
                            .classes
                            .iter()
                            .filter_map(|c| classes.get(*c).map(|d| d.id.to_string()))
                            .collect(),
                        notice_hours: s.notice_hours.into(),
                        authority_notifier: "us".into(),
                        ..Default::default()
                    },
                )
                .await?;
            for (topic, status, summary) in &s.findings {
                self.save_finding(
                    auth,
                    id,
                    &FindingForm {
                        topic: (*topic).into(),
                        status: (*status).into(),
                        summary: (*summary).into(),
                        checked_on: clock_day(clock),
                        ..Default::default()
                    },
                )
                .await?;
            }
            services.push(id);
        }

        // Questions to Microsoft (answered by mail, reviewed, decided) and
        // to the IT provider about the website chat (no answer; its
        // deadline has passed).
        let ask = |service: ServiceId, contact: String, deadline_in: i64| {
            let deadline = (clock.now_day() + Duration::days(deadline_in)).to_string();
            (
                service,
                SendForm {
                    send_key: crate::secrets::new_token(),
                    contacts: vec![contact],
                    deadline,
                    ..Default::default()
                },
            )
        };
        clock.advance(Duration::hours(2));
        let (service, form) = ask(services[1], contacts[1].to_string(), 10);
        let sent = self.send_questions(auth, Some(service), &form).await?;
        clock.advance(Duration::days(1));
        let (chat, form) = ask(services[3], contacts[4].to_string(), 14);
        self.send_questions(auth, Some(chat), &form).await?;

        clock.advance(Duration::days(6));
        let request = sent.requests[0];
        let detail = self.request_detail(auth, request).await?;
        let mut answers: Vec<String> = b.answers.iter().map(|a| (*a).to_owned()).collect();
        answers.resize(detail.items.len(), String::new());
        self.enter_answers(
            auth,
            request,
            &AnswerForm {
                answers,
                name: b.vendors[1].contact.0.into(),
                email: b.vendors[1].contact.1.into(),
                received_on: clock_day(clock),
                source: b.received_from.into(),
                ..Default::default()
            },
        )
        .await?;
        // The vendor's mail itself, kept with the answers taken from it.
        let (contact_name, contact_email, _) = b.vendors[1].contact;
        let original = format!(
            "From: {contact_name} <{contact_email}>\r\nSubject: {}\r\n\r\n{}\r\n",
            b.received_from,
            b.answers.join("\r\n\r\n")
        );
        self.attach_file(auth, request, "answers.eml", original.into_bytes())
            .await?;
        clock.advance(Duration::hours(20));
        for item in &detail.items {
            let (review, note) = if item.position == 2 {
                ("unclear", b.review_note)
            } else if (item.position as usize) < b.answers.len() {
                ("satisfactory", "")
            } else {
                ("missing", "")
            };
            self.review_answer(
                auth,
                request,
                item.position,
                &ReviewForm {
                    review: review.into(),
                    note: note.into(),
                },
            )
            .await?;
        }
        self.decide(
            auth,
            service,
            &DecisionForm {
                decision: "cleared_with_conditions".into(),
                note: b.decision_note.into(),
            },
        )
        .await?;
        // What may go into it, class by class, resting on the answers found
        // satisfactory and on what the documents say; decided for half a
        // year. The policy was checked. The other services still receive
        // protected data without a cleared assessment: the conflicts the
        // dashboard shows.
        let matrix = self.clearance_matrix(auth, service).await?;
        let evidence: Vec<String> = matrix
            .answers
            .iter()
            .filter(|a| a.review == aivet_domain::questions::Review::Satisfactory)
            .map(|a| {
                aivet_domain::clearance::Cite::Answer {
                    request: a.request_id,
                    position: a.position,
                }
                .to_string()
            })
            .chain(
                matrix
                    .findings
                    .iter()
                    .map(|f| aivet_domain::clearance::Cite::Finding(f.topic).to_string()),
            )
            .collect();
        let half_a_year = (clock.now_day() + Duration::days(182)).to_string();
        for (class, clearance, condition, last_day) in [
            (1, "allowed", "", ""),
            (2, "conditional", b.conditions[0], ""),
            (3, "conditional", b.conditions[1], half_a_year.as_str()),
            (4, "not_allowed", "", ""),
        ] {
            self.decide_clearance(
                auth,
                service,
                classes[class].id,
                &aivet_domain::clearance::ClearanceForm {
                    clearance: clearance.into(),
                    condition: condition.into(),
                    expires_on: last_day.into(),
                    evidence: evidence.clone(),
                },
            )
            .await?;
        }
        self.review_clearance_policy(auth).await?;

        // The days pass: reminders to the IT provider go out on their days
        // (three days before the deadline and on it), then the deadline
        // passes. Four days ago DeepL was asked too; its deadline is next
        // week, so the follow-ups board has something overdue, something
        // due soon and a re-assessment next year.
        let deepl_on = now - Duration::days(4);
        self.live_until(clock, deepl_on).await?;
        let (deepl, form) = ask(services[2], contacts[2].to_string(), 9);
        self.send_questions(auth, Some(deepl), &form).await?;
        // Twenty hours ago the owner read about the Workers AI incident:
        // the website chat runs there, and personal data may have been in
        // it, so the 72-hour clock is running (52 hours left now).
        self.live_until(clock, now - Duration::hours(20)).await?;
        self.record_demo_incident(auth, b, &vendors, &services, &classes)
            .await?;
        self.live_until(clock, now).await?;
        // The owner reads a digest on Monday mornings.
        self.set_digest(auth, "weekly").await?;
        Ok(())
    }

    /// The seed case of shared knowledge: Cloudflare's report of
    /// 26 October 2026, with its dates, linked to the website chat.
    async fn record_demo_incident(
        &self,
        auth: &Auth,
        b: &Business,
        vendors: &[VendorId],
        services: &[ServiceId],
        classes: &[aivet_store::inventory::DataClass],
    ) -> Result<(), ServiceError> {
        use aivet_domain::incident::{local_input, IncidentForm};
        use chrono::TimeZone;
        let zone = auth.tenant()?.zone();
        let t =
            |y, mo, d, h, mi| local_input(Utc.with_ymd_and_hms(y, mo, d, h, mi, 0).unwrap(), zone);
        let form = IncidentForm {
            title: b.incident[0].into(),
            description: b.incident[1].into(),
            source_links: "https://blog.cloudflare.com/".into(),
            vendors: vec![vendors[3].to_string()],
            services: vec![services[3].to_string()],
            data_classes: classes
                .get(3)
                .map(|c| c.id.to_string())
                .into_iter()
                .collect(),
            exposure_start: t(2026, 8, 27, 0, 0),
            exposure_end: t(2026, 9, 9, 14, 0),
            vendor_aware_at: t(2026, 9, 8, 12, 0),
            vendor_fixed_at: t(2026, 9, 9, 19, 40),
            disclosed_at: t(2026, 10, 26, 12, 0),
            we_aware_at: local_input(self.clock.now(), zone),
            affected: "unknown".into(),
            affected_evidence: b.incident[2].into(),
            personal_data: "true".into(),
            risk: "risk".into(),
            ..Default::default()
        };
        self.record_incident(auth, &form).await?;
        Ok(())
    }

    /// Moves the demo's clock day by day up to `until`, running the jobs
    /// that fall due on the way, as the server would have.
    async fn live_until(
        &self,
        clock: &FixedClock,
        until: DateTime<Utc>,
    ) -> Result<(), ServiceError> {
        while crate::Clock::now(clock) + Duration::days(1) < until {
            clock.advance(Duration::days(1));
            self.run_due_jobs("demo", &JobSettings::default()).await?;
        }
        clock.set(until);
        self.run_due_jobs("demo", &JobSettings::default()).await?;
        Ok(())
    }
}

fn clock_day(clock: &FixedClock) -> String {
    clock.now_day().to_string()
}

impl FixedClock {
    /// The clock's date in UTC.
    pub(crate) fn now_day(&self) -> chrono::NaiveDate {
        crate::Clock::now(self).date_naive()
    }
}
