//! The PDF as a reader gets it: the text poppler's `pdftotext` extracts
//! from it (installed by `scripts/tools.sh test`) has the sections and the
//! values, in each language; hostile strings print literally.

use aivet_domain::report::example;
use aivet_domain::report_view::view;
use aivet_domain::Lang;
use std::process::Command;

fn pdf_of(report: &aivet_domain::report::Report, lang: Lang) -> Vec<u8> {
    let v = view(report, lang);
    let pdf =
        aivet_report::pdf(serde_json::to_vec(&v).unwrap(), report.generated_at).expect("renders");
    // AIVET_KEEP_PDF=DIR keeps the documents, to look at them.
    if let Ok(dir) = std::env::var("AIVET_KEEP_PDF") {
        let name = format!("{}-{lang}.pdf", report.data.organisation.slug);
        std::fs::write(std::path::Path::new(&dir).join(name), &pdf).unwrap();
    }
    pdf
}

/// The PDF's text, as `pdftotext` reads it.
pub fn text_of(pdf: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("aivet-pdf-{}", uuid_like()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("report.pdf");
    std::fs::write(&file, pdf).unwrap();
    let out = Command::new("pdftotext")
        .args(["-enc", "UTF-8"])
        .arg(&file)
        .arg("-")
        .output()
        .expect("pdftotext (Debian's poppler-utils; run scripts/tools.sh test)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8(out.stdout).unwrap()
}

fn uuid_like() -> String {
    format!(
        "{}-{:?}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    )
}

/// Text without line breaks, spaces or the zero-width spaces that let long
/// words wrap, for comparing what wraps across lines.
fn squeezed(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace() && *c != '\u{200b}')
        .collect()
}

#[test]
fn each_language_has_its_sections_and_the_values() {
    let report = example("Bäckerei Sonnenschein GmbH", "plain");
    for (lang, words) in [
        (
            Lang::En,
            [
                "Compliance report: AI services",
                "Contents",
                "Summary",
                "Services by status",
                "Questions asked and answers",
                "Mails sent to vendors",
                "Audit log",
                "Requests with no answer",
                "Open incidents",
                "Notifying the supervisory authority (Art. 33)",
            ],
        ),
        (
            Lang::De,
            [
                "Compliance-Bericht: KI-Dienste",
                "Inhalt",
                "Zusammenfassung",
                "Dienste nach Status",
                "Gestellte Fragen und Antworten",
                "An Anbieter gesendete E-Mails",
                "Prüfprotokoll",
                "Anfragen ohne Antwort",
                "Offene Vorfälle",
                "Meldung an die Aufsichtsbehörde (Art. 33)",
            ],
        ),
        (
            Lang::Nb,
            [
                "Samsvarsrapport: KI-tjenester",
                "Innhold",
                "Sammendrag",
                "Tjenester etter status",
                "Stilte spørsmål og svar",
                "E-post sendt til leverandører",
                "Revisjonslogg",
                "Forespørsler uten svar",
                "Åpne hendelser",
                "Melding til tilsynsmyndigheten (art. 33)",
            ],
        ),
    ] {
        let pdf = pdf_of(&report, lang);
        assert!(pdf.starts_with(b"%PDF-"));
        let text = text_of(&pdf);
        for w in words {
            assert!(text.contains(w), "{lang}: {w:?} missing in\n{text}");
        }
        let flat = squeezed(&text);
        for value in [
            "Bäckerei Sonnenschein GmbH",
            "Chat plain",
            "Search plain",
            "Separate caches per tenant. plain",
            "How do you separate customers' data? plain",
            "security@vendor.example",
            "SGLang 0.5.22",
            "answers plain.pdf",
            "Cache leak plain",
            "Authority plain",
            &report.data.sha256(),
            &format!("<{}@aivet.example>", uuid_like_id(5)),
        ] {
            assert!(
                flat.contains(&squeezed(value)),
                "{lang}: {value:?} missing in\n{text}"
            );
        }
        // Page numbers and "generated at" on the pages.
        let generated = match lang {
            Lang::En => "Generated on 30 November 2026, 14:00 CET",
            Lang::De => "Erstellt am 30. November 2026, 14:00 CET",
            Lang::Nb => "Laget 30. november 2026 kl. 14:00 CET",
        };
        assert!(text.contains(generated), "{lang}: {generated:?}");
        assert!(text.contains(" 1 / "), "{lang}: page numbers");
        // Title and language in the metadata; tagged, PDF/UA-1, A4.
        let info = pdfinfo(&pdf, &[]);
        let title = view(&report, lang).title;
        assert!(
            info.contains(&format!("Title:           {title}")),
            "{info}"
        );
        assert!(info.contains("Tagged:          yes"), "{info}");
        assert!(info.contains("(A4)"), "{info}");
        let meta = pdfinfo(&pdf, &["-meta"]);
        assert!(
            meta.contains(&format!(
                "<dc:language><rdf:Bag><rdf:li>{}</rdf:li>",
                lang.code()
            )),
            "{meta}"
        );
        assert!(meta.contains("<pdfuaid:part>1</pdfuaid:part>"), "{meta}");
    }
}

fn pdfinfo(pdf: &[u8], args: &[&str]) -> String {
    let file = std::env::temp_dir().join(format!("aivet-pdfinfo-{}.pdf", uuid_like()));
    std::fs::write(&file, pdf).unwrap();
    let out = Command::new("pdfinfo")
        .args(args)
        .arg(&file)
        .output()
        .expect("pdfinfo (Debian's poppler-utils; run scripts/tools.sh test)");
    let _ = std::fs::remove_file(&file);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn uuid_like_id(n: u128) -> String {
    uuid::Uuid::from_u128(n).to_string()
}

#[test]
fn hostile_strings_print_as_typed_and_run_nothing() {
    let long = "Donaudampfschifffahrtsgesellschaftskapitänswitwenrentenversicherungsanstalt";
    let hostile = format!(
        "#set page(fill: red) #panic(\"x\") $x^2$ [link] \\ ] [ {{}} // /* {long} שלום עליכם مرحبا 😀 tab\there bell\u{7}end"
    );
    let mut report = example(&format!("Evil #org $ [ ] \\ {long}"), &hostile);
    report.data.organisation.slug = "hostile".into();
    let pdf = pdf_of(&report, Lang::En);
    let text = text_of(&pdf);
    let flat = squeezed(&text);
    for literal in [
        "#set page(fill: red)",
        "#panic(\"x\")",
        "$x^2$",
        "[link]",
        "Evil #org $ [ ] \\",
        // An incident's title, as a heading and in the tables.
        "Cache leak #set page(fill: red)",
        "😀",
        "שלום",
        "مرحبا",
        "bell\u{fffd}end",
    ] {
        assert!(
            flat.contains(&squeezed(literal)),
            "{literal:?} missing in\n{text}"
        );
    }
    assert!(flat.contains(long), "the long word, wrapped, is whole");
    // Markup was not run: no red page, no panic, the heading is text.
    assert!(!String::from_utf8_lossy(&pdf).contains("1 0 0 rg"));
}

#[test]
fn a_report_with_nothing_in_it_renders() {
    let mut report = example("Empty Org", "x");
    report.data.inventory = Default::default();
    report.data.questions = Default::default();
    report.data.follow_ups.clear();
    report.data.mail_trail.clear();
    report.data.audit.clear();
    report.data.incidents.clear();
    let text = text_of(&pdf_of(&report, Lang::De));
    assert!(text.contains("Empty Org"));
    assert!(text.contains("Keine."));
}

/// The text of one page.
fn page_text(pdf: &[u8], page: usize) -> String {
    let file = std::env::temp_dir().join(format!("aivet-pdfpage-{}.pdf", uuid_like()));
    std::fs::write(&file, pdf).unwrap();
    let n = page.to_string();
    let out = Command::new("pdftotext")
        .args(["-layout", "-enc", "UTF-8", "-f", &n, "-l", &n])
        .arg(&file)
        .arg("-")
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&file);
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_contents_give_the_page_each_heading_is_on() {
    let report = aivet_domain::report::example_with_services(40);
    let pdf = pdf_of(&report, Lang::En);
    let contents = page_text(&pdf, 1) + &page_text(&pdf, 2);
    let mut checked = 0;
    for title in ["Summary", "Service 0007", "Service 0031", "Audit log"] {
        let line = contents
            .lines()
            .find(|l| l.contains(title) && l.trim_end().ends_with(|c: char| c.is_ascii_digit()))
            .unwrap_or_else(|| panic!("{title:?} not in the contents:\n{contents}"));
        let page: usize = line.split_whitespace().last().unwrap().parse().unwrap();
        let number = line.split_whitespace().next().unwrap();
        let heading = format!("{number} {title}");
        assert!(
            page_text(&pdf, page).contains(&heading),
            "{heading:?} is not on page {page}"
        );
        checked += 1;
    }
    assert_eq!(checked, 4);
}
