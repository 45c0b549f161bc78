//! The PDF as assistive technology reads it: the checks of PDF/UA-1 that
//! the structure makes (ISO 14289-1, as the Matterhorn protocol lists them)
//! and that a PDF parser can see. Every piece of text is either real
//! content, marked with an id that the structure tree leads back to, or
//! an artifact; the structure tree's elements point to their parents and
//! to the pages their content is on; the document declares that it is
//! tagged, its language and its title; every font is embedded with a map
//! back to Unicode; table header cells have a scope.

use aivet_domain::report::{example, example_with_services};
use aivet_domain::report_view::view;
use aivet_domain::Lang;
use lopdf::content::Content;
use lopdf::{Dictionary, Document, Object, ObjectId};
use std::collections::{BTreeMap, HashMap, HashSet};

fn pdf_of(report: &aivet_domain::report::Report, lang: Lang) -> Vec<u8> {
    let v = view(report, lang);
    aivet_report::pdf(serde_json::to_vec(&v).unwrap(), report.generated_at).expect("renders")
}

fn dict<'a>(doc: &'a Document, o: &'a Object) -> &'a Dictionary {
    match o {
        Object::Reference(id) => doc.get_dictionary(*id).expect("a dictionary"),
        Object::Dictionary(d) => d,
        other => panic!("not a dictionary: {other:?}"),
    }
}

fn name<'a>(d: &'a Dictionary, key: &[u8]) -> &'a [u8] {
    d.get(key).and_then(Object::as_name).unwrap_or(b"")
}

/// What the structure tree says about each marked-content id: the element
/// it belongs to, per page.
struct Tree {
    /// (page object, mcid) → the element that holds it in its /K.
    owner: HashMap<(ObjectId, i64), ObjectId>,
    /// The roles of the elements.
    roles: Vec<Vec<u8>>,
}

fn walk(
    doc: &Document,
    id: ObjectId,
    parent: ObjectId,
    tree: &mut Tree,
    seen: &mut HashSet<ObjectId>,
) {
    assert!(seen.insert(id), "element {id:?} is in the tree twice");
    let elem = doc.get_dictionary(id).unwrap();
    assert_eq!(name(elem, b"Type"), b"StructElem");
    let p = elem.get(b"P").unwrap().as_reference().unwrap();
    assert_eq!(p, parent, "the /P of {id:?} is not its parent");
    let role = name(elem, b"S").to_vec();
    assert!(!role.is_empty(), "{id:?} has no role");
    if role == b"TH" {
        let attributes = match elem.get(b"A").expect("a TH with attributes") {
            Object::Array(a) => a.iter().map(|o| dict(doc, o)).collect::<Vec<_>>(),
            other => vec![dict(doc, other)],
        };
        assert!(
            attributes
                .iter()
                .any(|a| name(a, b"O") == b"Table" && a.get(b"Scope").is_ok()),
            "a TH without a scope"
        );
    }
    tree.roles.push(role);
    let page = elem.get(b"Pg").ok().and_then(|o| o.as_reference().ok());
    let kids = match elem.get(b"K") {
        Ok(Object::Array(a)) => a.clone(),
        Ok(other) => vec![other.clone()],
        Err(_) => Vec::new(),
    };
    assert!(!kids.is_empty(), "{id:?} is empty");
    for kid in kids {
        match kid {
            Object::Integer(mcid) => {
                let page = page.expect("an element with content on its /Pg");
                assert!(tree.owner.insert((page, mcid), id).is_none());
            }
            Object::Reference(child) => {
                let d = doc.get_dictionary(child).unwrap();
                if name(d, b"Type") == b"StructElem" {
                    walk(doc, child, id, tree, seen);
                } else {
                    panic!("unexpected kid {d:?}");
                }
            }
            Object::Dictionary(mcr) => {
                assert_eq!(name(&mcr, b"Type"), b"MCR");
                let page = mcr.get(b"Pg").unwrap().as_reference().unwrap();
                let mcid = mcr.get(b"MCID").unwrap().as_i64().unwrap();
                assert!(tree.owner.insert((page, mcid), id).is_none());
            }
            other => panic!("unexpected kid {other:?}"),
        }
    }
}

/// Checks the document and returns its structure roles and the text it
/// spells out (`/ActualText`).
fn check(pdf: &[u8], lang: &str) -> (Vec<Vec<u8>>, Vec<String>) {
    let doc = Document::load_mem(pdf).expect("a PDF lopdf reads");
    let catalog = doc.catalog().unwrap();
    let marked = dict(&doc, catalog.get(b"MarkInfo").unwrap());
    assert!(marked.get(b"Marked").unwrap().as_bool().unwrap());
    assert_eq!(
        catalog.get(b"Lang").unwrap().as_str().unwrap(),
        lang.as_bytes()
    );
    let prefs = dict(&doc, catalog.get(b"ViewerPreferences").unwrap());
    assert!(prefs.get(b"DisplayDocTitle").unwrap().as_bool().unwrap());
    assert!(catalog.get(b"Metadata").is_ok());

    // The tree, from its root down.
    let root_id = catalog
        .get(b"StructTreeRoot")
        .unwrap()
        .as_reference()
        .unwrap();
    let root = doc.get_dictionary(root_id).unwrap();
    let mut tree = Tree {
        owner: HashMap::new(),
        roles: Vec::new(),
    };
    let top = root.get(b"K").unwrap().as_reference().unwrap();
    walk(&doc, top, root_id, &mut tree, &mut HashSet::new());
    assert_eq!(tree.roles[0], b"Document");

    // The parent tree: page key → the element of each mcid.
    let parents = dict(&doc, root.get(b"ParentTree").unwrap());
    let nums = parents.get(b"Nums").unwrap().as_array().unwrap();
    let mut parent_tree: BTreeMap<i64, Vec<ObjectId>> = BTreeMap::new();
    for pair in nums.chunks(2) {
        let key = pair[0].as_i64().unwrap();
        let refs = match &pair[1] {
            Object::Array(a) => a.iter().map(|o| o.as_reference().unwrap()).collect(),
            Object::Reference(r) => doc
                .get_object(*r)
                .unwrap()
                .as_array()
                .unwrap()
                .iter()
                .map(|o| o.as_reference().unwrap())
                .collect(),
            other => panic!("{other:?}"),
        };
        parent_tree.insert(key, refs);
    }

    let mut spelled = Vec::new();
    let mut fonts_seen = HashSet::new();
    for (number, page_id) in doc.get_pages() {
        let page = doc.get_dictionary(page_id).unwrap();
        let key = page.get(b"StructParents").unwrap().as_i64().unwrap();
        let elems = &parent_tree[&key];
        let content = Content::decode(&doc.get_page_content(page_id)).unwrap();
        // The open marked-content sequences: Some(mcid) or None (artifact).
        let mut stack: Vec<Option<i64>> = Vec::new();
        let mut mcids = HashSet::new();
        for op in &content.operations {
            match op.operator.as_str() {
                "BDC" => {
                    let tag = op.operands[0].as_name().unwrap();
                    let props = match &op.operands[1] {
                        Object::Dictionary(d) => d.clone(),
                        other => panic!("properties not inline: {other:?}"),
                    };
                    assert!(
                        stack.is_empty(),
                        "page {number}: marked content nested in marked content"
                    );
                    if tag == b"Artifact" {
                        stack.push(None);
                    } else {
                        let mcid = props.get(b"MCID").unwrap().as_i64().unwrap();
                        assert!(mcids.insert(mcid), "page {number}: mcid {mcid} twice");
                        let owner = tree.owner.get(&(page_id, mcid)).unwrap_or_else(|| {
                            panic!("page {number}: mcid {mcid} is in no element")
                        });
                        assert_eq!(
                            elems.get(mcid as usize),
                            Some(owner),
                            "page {number}: the parent tree's element of mcid {mcid}"
                        );
                        if let Ok(text) = props.get(b"ActualText") {
                            spelled.push(lopdf::decode_text_string(text).unwrap());
                        }
                        stack.push(Some(mcid));
                    }
                }
                "BMC" => panic!("page {number}: unmarked sequence"),
                "EMC" => {
                    stack.pop().expect("an EMC without its BDC");
                }
                "Tj" | "TJ" | "'" | "\"" => {
                    assert!(
                        !stack.is_empty(),
                        "page {number}: text that is neither content nor artifact"
                    );
                }
                "Tf" => {
                    fonts_seen.insert((page_id, op.operands[0].as_name().unwrap().to_vec()));
                }
                _ => {}
            }
        }
        assert!(stack.is_empty(), "page {number}: marked content left open");
        assert_eq!(
            mcids.len(),
            elems.len(),
            "page {number}: the parent tree lists other ids than the page has"
        );
    }

    // Every font used is embedded, with a map back to Unicode.
    for (page_id, font) in fonts_seen {
        let fonts = doc.get_page_fonts(page_id).unwrap();
        let f = fonts.get(font.as_slice()).expect("a font in the resources");
        assert_eq!(name(f, b"Subtype"), b"Type0");
        assert!(f.get(b"ToUnicode").is_ok());
        let descendants = f.get(b"DescendantFonts").unwrap().as_array().unwrap();
        let cid = dict(&doc, &descendants[0]);
        let descriptor = dict(&doc, cid.get(b"FontDescriptor").unwrap());
        assert!(descriptor.get(b"FontFile2").is_ok(), "font not embedded");
    }
    (tree.roles, spelled)
}

#[test]
fn every_text_is_tagged_content_or_an_artifact_and_the_tree_leads_back_to_it() {
    let report = example_with_services(12);
    for lang in [Lang::En, Lang::De, Lang::Nb] {
        let (roles, spelled) = check(&pdf_of(&report, lang), lang.code());
        for role in [
            &b"H1"[..],
            b"H2",
            b"H3",
            b"H4",
            b"P",
            b"Table",
            b"TR",
            b"TH",
            b"TD",
            b"TOC",
            b"TOCI",
        ] {
            assert!(
                roles.iter().any(|r| r == role),
                "{lang}: no {}",
                String::from_utf8_lossy(role)
            );
        }
        assert!(
            spelled.is_empty(),
            "{lang}: Latin text needs no spelling out"
        );
    }
}

#[test]
fn text_the_fonts_lack_is_spelled_out_and_the_document_does_not_claim_pdf_ua() {
    // Hebrew and Arabic are in the fonts (shaped, mapped glyph by glyph);
    // Chinese is not: drawn as missing glyphs, its text spelled out.
    let report = example("Org 漢字", "שלום مرحبا 漢字 plain");
    let pdf = pdf_of(&report, Lang::En);
    let (_, spelled) = check(&pdf, "en");
    assert!(spelled.iter().any(|s| s.contains("漢字")), "{spelled:?}");
    assert!(!spelled.iter().any(|s| s.contains("שלום")), "{spelled:?}");
    let xmp = String::from_utf8_lossy(&pdf);
    assert!(
        !xmp.contains("pdfuaid:part"),
        "claims PDF/UA with .notdef glyphs"
    );

    let plain = pdf_of(&example("Org", "שלום مرحبا plain"), Lang::En);
    check(&plain, "en");
    assert!(String::from_utf8_lossy(&plain).contains("<pdfuaid:part>1</pdfuaid:part>"));
}
