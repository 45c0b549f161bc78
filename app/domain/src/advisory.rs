//! Engine advisories: security advisories in the OSV format
//! (<https://ossf.github.io/osv-schema/>), matched against the inference
//! engine and engine version of each service.
//!
//! Parsing is lenient: an affected entry we cannot use is skipped and
//! counted, and a record is refused only when no entry is left. Versions are
//! compared in the order of the range: PEP 440 for PyPI, SemVer for `SEMVER`
//! ranges and Go. Where we know no order, a version counts as affected only
//! when the record lists it. A version we cannot read is never taken as safe.

use crate::i18n::Msg;
use crate::inventory::choice;
use crate::lang::Lang;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::cell::OnceCell;
use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

choice!(
    /// The inference engine a service runs on.
    Engine {
        Sglang = "sglang" => EngineSglang,
        Vllm = "vllm" => EngineVllm,
        TensorrtLlm = "tensorrt_llm" => EngineTensorrtLlm,
        Tgi = "tgi" => EngineTgi,
        LlamaCpp = "llama_cpp" => EngineLlamaCpp,
        Ollama = "ollama" => EngineOllama,
        Other = "other" => EngineOther,
    }
);

choice!(
    /// Where the engine version of a service comes from.
    VersionSource {
        VendorAnswer = "vendor_answer" => VersionSourceVendorAnswer,
        Contract = "contract" => VersionSourceContract,
        OwnDeployment = "own_deployment" => VersionSourceOwnDeployment,
    }
);

/// Names by which free text refers to an engine, longest first where one
/// is the start of another.
const ENGINE_NAMES: &[(&str, Engine)] = &[
    ("text-generation-inference", Engine::Tgi),
    ("text generation inference", Engine::Tgi),
    ("tgi", Engine::Tgi),
    ("tensorrt-llm", Engine::TensorrtLlm),
    ("tensorrt_llm", Engine::TensorrtLlm),
    ("tensorrt llm", Engine::TensorrtLlm),
    ("trt-llm", Engine::TensorrtLlm),
    ("llama.cpp", Engine::LlamaCpp),
    ("llamacpp", Engine::LlamaCpp),
    ("sglang", Engine::Sglang),
    ("vllm", Engine::Vllm),
    ("ollama", Engine::Ollama),
];

/// Reads an engine and its version from the free text the inventory kept so
/// far ("vLLM 0.6.3", "vllm==0.6.3", "SGLang v0.5.20", "sglang").
///
/// `None` unless the text clearly names one engine, optionally followed by
/// one version; the caller then keeps the text as it is.
pub fn parse_engine(text: &str) -> Option<(Engine, Option<String>)> {
    let s = text.trim();
    let lower = s.to_ascii_lowercase();
    let (engine, rest) = ENGINE_NAMES.iter().find_map(|(name, engine)| {
        lower
            .strip_prefix(name)
            .map(|rest| (*engine, &s[s.len() - rest.len()..]))
    })?;
    if rest.is_empty() {
        return Some((engine, None));
    }
    let spaced = rest.trim_start();
    let version = match ["==", "=", "@", ":"]
        .iter()
        .find_map(|sep| spaced.strip_prefix(sep))
    {
        Some(after) => after.trim_start(),
        None if spaced.len() < rest.len() => spaced,
        None => return None,
    };
    let version = version.strip_prefix(['v', 'V']).unwrap_or(version);
    looks_like_version(engine, version).then(|| (engine, Some(version.to_owned())))
}

/// One token that starts with a digit (or `b` and a digit, for llama.cpp
/// builds).
fn looks_like_version(engine: Engine, v: &str) -> bool {
    let digits = match v.strip_prefix('b') {
        Some(build) if engine == Engine::LlamaCpp => build,
        _ => v,
    };
    digits.starts_with(|c: char| c.is_ascii_digit())
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '-' | '_' | '!'))
}

/// How the versions of a range or package compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Order {
    Pep440,
    Semver,
    /// No order we know: only listed versions count.
    Verbatim,
}

/// A version in an event or a `versions` list.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Point {
    /// `introduced: "0"`, before every version.
    Zero,
    Pep(pep440_rs::Version),
    Sem(semver::Version),
    /// A version of an ecosystem whose order we do not know.
    Text,
    /// `limit: "*"`.
    Infinity,
}

impl Point {
    fn parse(order: Order, raw: &str) -> Option<Point> {
        match order {
            Order::Pep440 => pep440(raw).map(Point::Pep),
            Order::Semver => semver(raw).map(Point::Sem),
            Order::Verbatim => Some(Point::Text),
        }
    }

    /// The order of events within one range (all of one kind of version).
    fn sort_cmp(&self, other: &Point) -> Ordering {
        fn rank(p: &Point) -> u8 {
            match p {
                Point::Zero => 0,
                Point::Pep(_) | Point::Sem(_) | Point::Text => 1,
                Point::Infinity => 2,
            }
        }
        match (self, other) {
            (Point::Pep(a), Point::Pep(b)) => a.cmp(b),
            (Point::Sem(a), Point::Sem(b)) => a.cmp(b),
            _ => rank(self).cmp(&rank(other)),
        }
    }
}

/// A PEP 440 version without its local part (`0.5.22+cu126` orders as
/// `0.5.22`).
fn pep440(raw: &str) -> Option<pep440_rs::Version> {
    pep440_rs::Version::from_str(raw.trim())
        .ok()
        .map(pep440_rs::Version::without_local)
}

/// A SemVer version, with a leading `v` allowed, missing minor or patch
/// numbers taken as 0 and build metadata dropped.
fn semver(raw: &str) -> Option<semver::Version> {
    let s = raw.trim();
    let s = s.strip_prefix(['v', 'V']).unwrap_or(s);
    let mut v = semver::Version::parse(s).ok().or_else(|| {
        let end = s.find(['-', '+']).unwrap_or(s.len());
        let (core, rest) = s.split_at(end);
        let parts = core.split('.').collect::<Vec<_>>();
        let numeric = parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
        if parts.len() > 2 || !numeric {
            return None;
        }
        semver::Version::parse(&format!("{core}{}{rest}", ".0".repeat(3 - parts.len()))).ok()
    })?;
    v.build = semver::BuildMetadata::EMPTY;
    Some(v)
}

/// The kind of an OSV range event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    Introduced,
    Fixed,
    LastAffected,
    Limit,
}

impl EventKind {
    const KEYS: [(&'static str, EventKind); 4] = [
        ("introduced", EventKind::Introduced),
        ("fixed", EventKind::Fixed),
        ("last_affected", EventKind::LastAffected),
        ("limit", EventKind::Limit),
    ];
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Event {
    kind: EventKind,
    raw: String,
    point: Point,
}

/// One `ECOSYSTEM` or `SEMVER` range of an affected package, its events
/// sorted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Range {
    order: Order,
    events: Vec<Event>,
}

impl Range {
    /// The events as written, in version order.
    pub fn events(&self) -> impl Iterator<Item = (EventKind, &str)> {
        self.events.iter().map(|e| (e.kind, e.raw.as_str()))
    }

    /// Only `introduced: "0"`: every version is affected.
    fn every_version(&self) -> bool {
        self.events
            .iter()
            .all(|e| e.kind == EventKind::Introduced && e.point == Point::Zero)
    }

    /// Whether the version is in the range (OSV's evaluation); `None` when
    /// it cannot be told.
    fn includes(&self, v: &ServiceVersion) -> Option<bool> {
        if self.every_version() {
            return Some(true);
        }
        let v = v.get(self.order)?;
        let mut limited = false;
        let mut below_a_limit = false;
        for e in self.events.iter().filter(|e| e.kind == EventKind::Limit) {
            limited = true;
            below_a_limit |= v.compare(&e.point)? == Ordering::Less;
        }
        if limited && !below_a_limit {
            return Some(false);
        }
        let mut affected = false;
        for e in &self.events {
            let c = v.compare(&e.point)?;
            match e.kind {
                EventKind::Introduced if c != Ordering::Less => affected = true,
                EventKind::Fixed if c != Ordering::Less => affected = false,
                EventKind::LastAffected if c == Ordering::Greater => affected = false,
                _ => {}
            }
        }
        Some(affected)
    }

    /// The first fix above the version.
    fn fixed_after(&self, v: &ServiceVersion) -> Option<String> {
        let v = v.get(self.order);
        self.events
            .iter()
            .filter(|e| e.kind == EventKind::Fixed)
            .find(|e| v.is_none_or(|v| v.compare(&e.point) == Some(Ordering::Less)))
            .map(|e| e.raw.clone())
    }
}

/// One usable `affected` entry of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Package {
    pub ecosystem: String,
    pub name: String,
    pub engine: Engine,
    pub ranges: Vec<Range>,
    /// The versions the record lists as affected.
    pub versions: Vec<String>,
    order: Order,
    listed: Vec<Point>,
}

impl Package {
    fn exposure(&self, v: &ServiceVersion) -> Exposure {
        let fixed = || self.ranges.iter().find_map(|r| r.fixed_after(v));
        if let Some(raw) = v.raw {
            let listed_as_written = self
                .versions
                .iter()
                .any(|l| l.trim().eq_ignore_ascii_case(raw));
            let listed = listed_as_written
                || v.get(self.order).is_some_and(|v| {
                    self.listed
                        .iter()
                        .any(|p| v.compare(p) == Some(Ordering::Equal))
                });
            if listed {
                return Exposure::Affected { fixed: fixed() };
            }
        }
        let mut unknown = self.ranges.is_empty() && v.get(self.order).is_none();
        for r in &self.ranges {
            match r.includes(v) {
                Some(true) => {
                    return Exposure::Affected {
                        fixed: r.fixed_after(v),
                    }
                }
                Some(false) => {}
                None => unknown = true,
            }
        }
        if unknown {
            Exposure::Unknown
        } else {
            Exposure::NotAffected
        }
    }
}

/// One OSV record, as far as we use it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Advisory {
    pub id: String,
    pub aliases: Vec<String>,
    pub summary: Option<String>,
    pub details: Option<String>,
    pub published: Option<DateTime<Utc>>,
    pub modified: Option<DateTime<Utc>>,
    /// Set when the record was withdrawn; it then matches nothing.
    pub withdrawn: Option<DateTime<Utc>>,
    /// The severity as the record gives it (`CVSS_V3: CVSS:3.1/…`, or the
    /// database's own word such as `HIGH`).
    pub severity: Option<String>,
    /// The reference URLs.
    pub references: Vec<String>,
    /// The affected entries we can match, at least one.
    pub affected: Vec<Package>,
    /// Affected entries left out (unknown ecosystem or package, unreadable
    /// ranges).
    pub skipped_entries: usize,
    /// Ranges left out of the entries kept (`GIT` ranges).
    pub skipped_ranges: usize,
}

impl Advisory {
    /// The engines the advisory is about.
    pub fn engines(&self) -> Vec<Engine> {
        let mut engines: Vec<Engine> = self.affected.iter().map(|p| p.engine).collect();
        engines.sort();
        engines.dedup();
        engines
    }
}

/// Why an OSV text or record cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OsvError {
    /// The text is not JSON.
    NotJson {
        detail: String,
    },
    /// The record at `index` (0-based) is not a JSON object.
    NotARecord {
        index: usize,
    },
    NoId {
        index: usize,
    },
    /// No affected entry names an engine and versions we can compare.
    NoPackage {
        index: usize,
        id: String,
        detail: String,
    },
}

impl OsvError {
    pub fn msg(&self) -> Msg {
        match self {
            OsvError::NotJson { .. } => Msg::ErrOsvNotJson,
            OsvError::NotARecord { .. } => Msg::ErrOsvNotRecord,
            OsvError::NoId { .. } => Msg::ErrOsvNoId,
            OsvError::NoPackage { .. } => Msg::ErrOsvNoPackage,
        }
    }

    /// The position of the record in the file (0-based).
    pub fn index(&self) -> Option<usize> {
        match self {
            OsvError::NotJson { .. } => None,
            OsvError::NotARecord { index }
            | OsvError::NoId { index }
            | OsvError::NoPackage { index, .. } => Some(*index),
        }
    }

    pub fn id(&self) -> Option<&str> {
        match self {
            OsvError::NoPackage { id, .. } => Some(id),
            _ => None,
        }
    }

    /// The technical detail (in English), empty if there is none.
    pub fn detail(&self) -> &str {
        match self {
            OsvError::NotJson { detail } | OsvError::NoPackage { detail, .. } => detail,
            _ => "",
        }
    }

    /// The message for the user, filled in.
    pub fn text(&self, lang: Lang) -> String {
        let position = self.index().map_or(1, |i| i + 1);
        match self {
            OsvError::NotJson { .. } => Msg::ErrOsvNotJson.text(lang).to_owned(),
            OsvError::NotARecord { .. } => {
                crate::msg!(lang, Msg::ErrOsvNotRecord, position = position)
            }
            OsvError::NoId { .. } => crate::msg!(lang, Msg::ErrOsvNoId, position = position),
            OsvError::NoPackage { id, .. } => crate::msg!(lang, Msg::ErrOsvNoPackage, id = id),
        }
    }
}

impl fmt::Display for OsvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))?;
        match self.detail() {
            "" => Ok(()),
            detail => write!(f, " ({detail})"),
        }
    }
}

impl std::error::Error for OsvError {}

/// Parses one OSV record.
pub fn parse_osv(json: &str) -> Result<Advisory, OsvError> {
    let value: Value = serde_json::from_str(json).map_err(|e| OsvError::NotJson {
        detail: e.to_string(),
    })?;
    record(0, &value)
}

/// Parses a file holding one OSV record or a JSON array of records, with a
/// result per record.
pub fn parse_osv_file(json: &str) -> Vec<Result<Advisory, OsvError>> {
    match serde_json::from_str::<Value>(json) {
        Err(e) => vec![Err(OsvError::NotJson {
            detail: e.to_string(),
        })],
        Ok(Value::Array(records)) => records
            .iter()
            .enumerate()
            .map(|(i, r)| record(i, r))
            .collect(),
        Ok(one) => vec![record(0, &one)],
    }
}

/// A non-empty trimmed string.
fn text(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

fn texts(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|s| text(Some(s))).collect())
        .unwrap_or_default()
}

fn time(v: Option<&Value>) -> Option<DateTime<Utc>> {
    text(v)
        .and_then(|s| DateTime::parse_from_rfc3339(&s).ok())
        .map(|t| t.with_timezone(&Utc))
}

fn severity(obj: &Map<String, Value>) -> Option<String> {
    let scores: Vec<String> = obj
        .get("severity")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|s| {
            let score = text(s.get("score"))?;
            Some(match text(s.get("type")) {
                Some(kind) => format!("{kind}: {score}"),
                None => score,
            })
        })
        .collect();
    if scores.is_empty() {
        text(obj.get("database_specific").and_then(|d| d.get("severity")))
    } else {
        Some(scores.join("; "))
    }
}

fn record(index: usize, value: &Value) -> Result<Advisory, OsvError> {
    let obj = value.as_object().ok_or(OsvError::NotARecord { index })?;
    let id = text(obj.get("id")).ok_or(OsvError::NoId { index })?;
    let mut affected = Vec::new();
    let mut skipped = Vec::new();
    let mut skipped_ranges = 0;
    let entries = obj.get("affected").and_then(Value::as_array);
    for (i, entry) in entries.into_iter().flatten().enumerate() {
        match package(entry) {
            Ok((p, git)) => {
                affected.push(p);
                skipped_ranges += git;
            }
            Err(why) => skipped.push(format!("affected[{i}]: {why}")),
        }
    }
    if affected.is_empty() {
        let detail = if skipped.is_empty() {
            "no affected entries".to_owned()
        } else {
            skipped.join("; ")
        };
        return Err(OsvError::NoPackage { index, id, detail });
    }
    Ok(Advisory {
        id,
        aliases: texts(obj.get("aliases")),
        summary: text(obj.get("summary")),
        details: text(obj.get("details")),
        published: time(obj.get("published")),
        modified: time(obj.get("modified")),
        withdrawn: time(obj.get("withdrawn")),
        severity: severity(obj),
        references: obj
            .get("references")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|r| text(r.get("url")))
            .collect(),
        affected,
        skipped_entries: skipped.len(),
        skipped_ranges,
    })
}

/// A PyPI project name as PEP 503 compares it.
fn pep503(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.trim().chars() {
        if matches!(c, '-' | '_' | '.') {
            if !out.ends_with('-') {
                out.push('-');
            }
        } else {
            out.push(c.to_ascii_lowercase());
        }
    }
    out
}

/// A repository named by URL or `owner/name`, as `owner/name` in lower case.
fn repo_name(name: &str) -> String {
    let s = name.trim().to_ascii_lowercase();
    let s = s.split_once("://").map_or(s.as_str(), |(_, rest)| rest);
    let s = s.strip_prefix("github.com/").unwrap_or(s);
    let s = s.trim_end_matches('/');
    s.strip_suffix(".git").unwrap_or(s).to_owned()
}

/// The engine an OSV package is, and how its versions compare.
fn package_engine(ecosystem: &str, name: &str) -> Result<(Engine, Order), String> {
    let engine = match ecosystem {
        "PyPI" => match pep503(name).as_str() {
            "sglang" => Some(Engine::Sglang),
            "vllm" => Some(Engine::Vllm),
            "tensorrt-llm" => Some(Engine::TensorrtLlm),
            "text-generation-inference" => Some(Engine::Tgi),
            _ => None,
        }
        .map(|e| (e, Order::Pep440)),
        "Go" => name
            .trim()
            .eq_ignore_ascii_case("github.com/ollama/ollama")
            .then_some((Engine::Ollama, Order::Semver)),
        "GitHub" | "GIT" | "" => matches!(
            repo_name(name).as_str(),
            "llama.cpp" | "ggml-org/llama.cpp" | "ggerganov/llama.cpp"
        )
        .then_some((Engine::LlamaCpp, Order::Verbatim)),
        other => return Err(format!("ecosystem {other:?} unknown")),
    };
    engine.ok_or_else(|| format!("{ecosystem} package {name:?} is no engine we know"))
}

/// One `affected` entry, with the number of `GIT` ranges left out.
fn package(entry: &Value) -> Result<(Package, usize), String> {
    let pkg = entry.get("package");
    let ranges = entry
        .get("ranges")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let ecosystem = text(pkg.and_then(|p| p.get("ecosystem")));
    // Without a package, a GIT range's repository names it.
    let (ecosystem, name) = match text(pkg.and_then(|p| p.get("name"))) {
        Some(name) => (ecosystem.unwrap_or_default(), name),
        None => (
            ecosystem.unwrap_or_else(|| "GIT".to_owned()),
            ranges
                .iter()
                .find_map(|r| text(r.get("repo")))
                .ok_or("no package name")?,
        ),
    };
    let (engine, order) = package_engine(&ecosystem, &name)?;
    let mut kept = Vec::new();
    let mut git = 0;
    for (i, r) in ranges.iter().enumerate() {
        let range_order = match text(r.get("type")).as_deref() {
            Some("GIT") => {
                git += 1;
                continue;
            }
            Some("SEMVER") => Order::Semver,
            Some("ECOSYSTEM") => order,
            other => return Err(format!("range {i}: type {other:?} unknown")),
        };
        kept.push(range(range_order, r).map_err(|why| format!("range {i}: {why}"))?);
    }
    let versions = texts(entry.get("versions"));
    if kept.is_empty() && versions.is_empty() {
        return Err(if git > 0 {
            "only GIT ranges".to_owned()
        } else {
            "no ranges or versions".to_owned()
        });
    }
    let listed = versions
        .iter()
        .filter_map(|v| Point::parse(order, v))
        .filter(|p| *p != Point::Text)
        .collect();
    Ok((
        Package {
            ecosystem,
            name,
            engine,
            ranges: kept,
            versions,
            order,
            listed,
        },
        git,
    ))
}

fn range(order: Order, r: &Value) -> Result<Range, String> {
    let mut events = Vec::new();
    let raw_events = r.get("events").and_then(Value::as_array);
    for e in raw_events.into_iter().flatten() {
        let (kind, raw) = EventKind::KEYS
            .iter()
            .find_map(|(key, kind)| text(e.get(*key)).map(|raw| (*kind, raw)))
            .ok_or("an event without a version")?;
        let point = match (kind, raw.as_str()) {
            (EventKind::Introduced, "0") => Point::Zero,
            (EventKind::Limit, "*") => Point::Infinity,
            _ => Point::parse(order, &raw).ok_or_else(|| format!("cannot read version {raw:?}"))?,
        };
        events.push(Event { kind, raw, point });
    }
    if !events.iter().any(|e| e.kind == EventKind::Introduced) {
        return Err("no introduced event".to_owned());
    }
    if order != Order::Verbatim {
        events.sort_by(|a, b| a.point.sort_cmp(&b.point));
    }
    Ok(Range { order, events })
}

/// What an advisory means for one service.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Exposure {
    /// The version is affected; `fixed` is the first fixed version above it,
    /// if the record gives one.
    Affected {
        fixed: Option<String>,
    },
    NotAffected,
    /// The version is missing, or cannot be compared in the advisory's
    /// ecosystem.
    Unknown,
    /// The advisory is about another engine, or was withdrawn.
    NotApplicable,
}

impl Exposure {
    pub fn label(&self) -> Msg {
        match self {
            Exposure::Affected { .. } => Msg::ExposureAffected,
            Exposure::NotAffected => Msg::ExposureNotAffected,
            Exposure::Unknown => Msg::ExposureUnknown,
            Exposure::NotApplicable => Msg::ExposureNotApplicable,
        }
    }

    /// "Fixed in 0.5.22", for an affected version with a known fix.
    pub fn fixed_in(&self, lang: Lang) -> Option<String> {
        match self {
            Exposure::Affected {
                fixed: Some(version),
            } => Some(crate::msg!(lang, Msg::ExposureFixedIn, version = version)),
            _ => None,
        }
    }
}

/// A service's engine version, parsed once per kind of order when first
/// needed.
struct ServiceVersion<'a> {
    raw: Option<&'a str>,
    pep: OnceCell<Option<pep440_rs::Version>>,
    sem: OnceCell<Option<semver::Version>>,
}

/// A parsed service version, borrowed.
#[derive(Clone, Copy)]
enum Parsed<'a> {
    Pep(&'a pep440_rs::Version),
    Sem(&'a semver::Version),
}

impl Parsed<'_> {
    /// `None` when the point is of another kind (which a range never mixes).
    fn compare(self, p: &Point) -> Option<Ordering> {
        match (self, p) {
            (_, Point::Zero) => Some(Ordering::Greater),
            (_, Point::Infinity) => Some(Ordering::Less),
            (Parsed::Pep(a), Point::Pep(b)) => Some(a.cmp(b)),
            (Parsed::Sem(a), Point::Sem(b)) => Some(a.cmp(b)),
            _ => None,
        }
    }
}

impl<'a> ServiceVersion<'a> {
    fn new(raw: Option<&'a str>) -> ServiceVersion<'a> {
        ServiceVersion {
            raw: raw.map(str::trim).filter(|s| !s.is_empty()),
            pep: OnceCell::new(),
            sem: OnceCell::new(),
        }
    }

    fn get(&self, order: Order) -> Option<Parsed<'_>> {
        let raw = self.raw?;
        match order {
            Order::Pep440 => self
                .pep
                .get_or_init(|| pep440(raw))
                .as_ref()
                .map(Parsed::Pep),
            Order::Semver => self
                .sem
                .get_or_init(|| semver(raw))
                .as_ref()
                .map(Parsed::Sem),
            Order::Verbatim => None,
        }
    }
}

fn check_version(advisory: &Advisory, engine: Engine, v: &ServiceVersion) -> Exposure {
    if advisory.withdrawn.is_some() {
        return Exposure::NotApplicable;
    }
    let mut result = Exposure::NotApplicable;
    for p in advisory.affected.iter().filter(|p| p.engine == engine) {
        match p.exposure(v) {
            affected @ Exposure::Affected { .. } => return affected,
            Exposure::Unknown => result = Exposure::Unknown,
            _ if result == Exposure::NotApplicable => result = Exposure::NotAffected,
            _ => {}
        }
    }
    result
}

/// What `advisory` means for a service on `engine` at `version`.
///
/// One entry that says "affected" decides; otherwise one that cannot tell
/// makes the answer `Unknown`.
pub fn check(advisory: &Advisory, engine: Engine, version: Option<&str>) -> Exposure {
    check_version(advisory, engine, &ServiceVersion::new(version))
}

/// Checks every service against every advisory and returns the pairs that
/// need attention (`Affected` and `Unknown`), with the advisory's index in
/// `advisories`. Each service's version is parsed once per order.
pub fn match_services<'a, K: Clone>(
    advisories: &[Advisory],
    services: impl IntoIterator<Item = (K, Engine, Option<&'a str>)>,
) -> Vec<(K, usize, Exposure)> {
    let mut by_engine = vec![Vec::new(); Engine::ALL.len()];
    for (i, a) in advisories.iter().enumerate() {
        if a.withdrawn.is_none() {
            for e in a.engines() {
                by_engine[e as usize].push(i);
            }
        }
    }
    let mut out = Vec::new();
    for (key, engine, version) in services {
        let group = &by_engine[engine as usize];
        if group.is_empty() {
            continue;
        }
        let v = ServiceVersion::new(version);
        for &i in group {
            let e = check_version(&advisories[i], engine, &v);
            if matches!(e, Exposure::Affected { .. } | Exposure::Unknown) {
                out.push((key.clone(), i, e));
            }
        }
    }
    out
}

/// The advisories shipped with aivet, as (file name, OSV JSON).
pub const BUILTIN: &[(&str, &str)] = &[(
    "AIVET-2026-0001.json",
    include_str!("../../../advisories/AIVET-2026-0001.json"),
)];

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A PyPI sglang record with the given ranges (JSON).
    fn sglang(ranges: &str) -> Advisory {
        parse_osv(&format!(
            r#"{{"id": "TEST-1", "affected": [{{
                "package": {{"ecosystem": "PyPI", "name": "sglang"}},
                "ranges": {ranges}}}]}}"#
        ))
        .unwrap()
    }

    fn before(fixed: &str) -> Advisory {
        sglang(&format!(
            r#"[{{"type": "ECOSYSTEM", "events": [{{"introduced": "0"}}, {{"fixed": "{fixed}"}}]}}]"#
        ))
    }

    fn affected(fixed: &str) -> Exposure {
        Exposure::Affected {
            fixed: Some(fixed.into()),
        }
    }

    #[test]
    fn free_text_engines_carry_over_only_when_clear() {
        use Engine as E;
        type Row = (&'static str, Option<(Engine, Option<&'static str>)>);
        let table: &[Row] = &[
            ("sglang 0.5.20", Some((E::Sglang, Some("0.5.20")))),
            ("SGLang v0.5.20", Some((E::Sglang, Some("0.5.20")))),
            ("vLLM 0.6.3", Some((E::Vllm, Some("0.6.3")))),
            ("vllm==0.6.3", Some((E::Vllm, Some("0.6.3")))),
            ("vllm == 0.6.3", Some((E::Vllm, Some("0.6.3")))),
            ("TensorRT-LLM 0.12", Some((E::TensorrtLlm, Some("0.12")))),
            ("text-generation-inference 2.4", Some((E::Tgi, Some("2.4")))),
            ("TGI 2.4", Some((E::Tgi, Some("2.4")))),
            ("llama.cpp b4100", Some((E::LlamaCpp, Some("b4100")))),
            ("ollama 0.3.14", Some((E::Ollama, Some("0.3.14")))),
            ("  vllm  ", Some((E::Vllm, None))),
            ("SGLang", Some((E::Sglang, None))),
            ("Text Generation Inference", Some((E::Tgi, None))),
            ("sglang 0.5.22rc1", Some((E::Sglang, Some("0.5.22rc1")))),
            ("proprietary", None),
            ("unknown", None),
            ("our own stack", None),
            ("sglang or vllm", None),
            ("vllm fork", None),
            ("vLLM 0.6.3 on H100", None),
            ("vllmx", None),
            ("llama-cpp-python 0.2.90", None),
            ("vllm b4100", None),
            ("", None),
        ];
        for (text, want) in table {
            let want = want.map(|(e, v)| (e, v.map(str::to_owned)));
            assert_eq!(parse_engine(text), want, "{text:?}");
        }
    }

    #[test]
    fn choices_round_trip() {
        for e in Engine::ALL {
            assert_eq!(e.as_str().parse::<Engine>(), Ok(*e));
        }
        for s in VersionSource::ALL {
            assert_eq!(s.as_str().parse::<VersionSource>(), Ok(*s));
        }
    }

    #[test]
    fn pep440_versions_before_a_fix() {
        let a = before("0.5.22");
        for (v, want) in [
            ("0.5.9", affected("0.5.22")),
            ("0.5.21", affected("0.5.22")),
            ("0.5.22rc1", affected("0.5.22")),
            ("0.5.22.dev3", affected("0.5.22")),
            ("v0.5.20", affected("0.5.22")),
            ("0.0.1", affected("0.5.22")),
            ("0.5.22", Exposure::NotAffected),
            ("0.5.22.post1", Exposure::NotAffected),
            ("0.5.22+cu126", Exposure::NotAffected),
            ("0.5.22.0", Exposure::NotAffected),
            ("0.5.21+cu126", affected("0.5.22")),
            ("0.6", Exposure::NotAffected),
            ("1!0.1", Exposure::NotAffected),
            ("unknown", Exposure::Unknown),
            ("latest", Exposure::Unknown),
            ("", Exposure::Unknown),
            ("   ", Exposure::Unknown),
        ] {
            assert_eq!(check(&a, Engine::Sglang, Some(v)), want, "{v}");
        }
        assert_eq!(check(&a, Engine::Sglang, None), Exposure::Unknown);
        assert_eq!(
            check(&a, Engine::Vllm, Some("0.5.9")),
            Exposure::NotApplicable
        );
        assert_eq!(check(&a, Engine::Other, None), Exposure::NotApplicable);
    }

    #[test]
    fn last_affected_is_inclusive() {
        let a = sglang(
            r#"[{"type": "ECOSYSTEM", "events": [{"introduced": "0.4.0"}, {"last_affected": "0.5.3"}]}]"#,
        );
        let none = Exposure::Affected { fixed: None };
        for (v, want) in [
            ("0.3.9", Exposure::NotAffected),
            ("0.4.0rc1", Exposure::NotAffected),
            ("0.4.0", none.clone()),
            ("0.5.3", none.clone()),
            ("0.5.3+local", none),
            ("0.5.3.post1", Exposure::NotAffected),
            ("0.5.4", Exposure::NotAffected),
        ] {
            assert_eq!(check(&a, Engine::Sglang, Some(v)), want, "{v}");
        }
    }

    #[test]
    fn several_ranges_and_pairs_in_one_range() {
        // Two lines of fixes in one range, written out of order, and a
        // second range.
        let a = sglang(
            r#"[{"type": "ECOSYSTEM", "events": [
                    {"fixed": "0.4.5"}, {"introduced": "0.5.0"},
                    {"introduced": "0.4.0"}, {"fixed": "0.5.2"}]},
                {"type": "ECOSYSTEM", "events": [{"introduced": "1.0"}, {"fixed": "1.0.1"}]}]"#,
        );
        for (v, want) in [
            ("0.3", Exposure::NotAffected),
            ("0.4.0", affected("0.4.5")),
            ("0.4.4", affected("0.4.5")),
            ("0.4.5", Exposure::NotAffected),
            ("0.4.9", Exposure::NotAffected),
            ("0.5.0", affected("0.5.2")),
            ("0.5.2", Exposure::NotAffected),
            ("1.0", affected("1.0.1")),
            ("1.0.1", Exposure::NotAffected),
        ] {
            assert_eq!(check(&a, Engine::Sglang, Some(v)), want, "{v}");
        }
    }

    #[test]
    fn limits_bound_a_range() {
        let a = sglang(
            r#"[{"type": "ECOSYSTEM", "events": [{"introduced": "0"}, {"limit": "0.5.0"}]}]"#,
        );
        assert_eq!(
            check(&a, Engine::Sglang, Some("0.4.9")),
            Exposure::Affected { fixed: None }
        );
        assert_eq!(
            check(&a, Engine::Sglang, Some("0.5.0")),
            Exposure::NotAffected
        );
        let star =
            sglang(r#"[{"type": "ECOSYSTEM", "events": [{"introduced": "0.1"}, {"limit": "*"}]}]"#);
        assert_eq!(
            check(&star, Engine::Sglang, Some("9.9")),
            Exposure::Affected { fixed: None }
        );
    }

    #[test]
    fn semver_ranges_and_go() {
        let a = parse_osv(
            r#"{"id": "GO-TEST", "affected": [{
                "package": {"ecosystem": "Go", "name": "github.com/ollama/ollama"},
                "ranges": [{"type": "SEMVER", "events": [{"introduced": "0"}, {"fixed": "0.3.14"}]}]}]}"#,
        )
        .unwrap();
        for (v, want) in [
            ("0.3.9", affected("0.3.14")),
            ("v0.3.13", affected("0.3.14")),
            ("0.3.14-rc0", affected("0.3.14")),
            ("0.3", affected("0.3.14")),
            ("0.3.14", Exposure::NotAffected),
            ("0.3.14+build5", Exposure::NotAffected),
            ("0.4", Exposure::NotAffected),
            ("latest", Exposure::Unknown),
        ] {
            assert_eq!(check(&a, Engine::Ollama, Some(v)), want, "{v}");
        }
        // A SEMVER range in a PyPI entry compares as SemVer.
        let s =
            sglang(r#"[{"type": "SEMVER", "events": [{"introduced": "0"}, {"fixed": "0.5.22"}]}]"#);
        assert_eq!(check(&s, Engine::Sglang, Some("0.5.9")), affected("0.5.22"));
        assert_eq!(
            check(&s, Engine::Sglang, Some("0.5.22.post1")),
            Exposure::Unknown,
            "not SemVer"
        );
    }

    #[test]
    fn without_a_known_order_only_listed_versions_count() {
        let a = parse_osv(
            r#"{"id": "LLAMA-TEST", "affected": [{
                "package": {"ecosystem": "GitHub", "name": "ggml-org/llama.cpp"},
                "ranges": [{"type": "ECOSYSTEM", "events": [{"introduced": "0"}, {"fixed": "b4101"}]}],
                "versions": ["b4099", "b4100"]}]}"#,
        )
        .unwrap();
        assert_eq!(
            check(&a, Engine::LlamaCpp, Some("b4100")),
            affected("b4101")
        );
        for v in ["b4101", "b3000", "unknown", "latest", ""] {
            assert_eq!(
                check(&a, Engine::LlamaCpp, Some(v)),
                Exposure::Unknown,
                "{v}"
            );
        }
        assert_eq!(check(&a, Engine::LlamaCpp, None), Exposure::Unknown);
        // Every version affected needs no version.
        let all = parse_osv(
            r#"{"id": "LLAMA-ALL", "affected": [{
                "package": {"name": "https://github.com/ggml-org/llama.cpp.git"},
                "ranges": [{"type": "ECOSYSTEM", "events": [{"introduced": "0"}]}]}]}"#,
        )
        .unwrap();
        assert_eq!(
            check(&all, Engine::LlamaCpp, None),
            Exposure::Affected { fixed: None }
        );
    }

    #[test]
    fn listed_versions_match_in_the_ecosystems_order() {
        let a = parse_osv(
            r#"{"id": "LIST", "affected": [{
                "package": {"ecosystem": "PyPI", "name": "vLLM"},
                "versions": ["0.6.3", "0.6.4"]}]}"#,
        )
        .unwrap();
        assert_eq!(
            check(&a, Engine::Vllm, Some("0.6.3.0")),
            Exposure::Affected { fixed: None }
        );
        assert_eq!(
            check(&a, Engine::Vllm, Some("0.6.4+cu121")),
            Exposure::Affected { fixed: None }
        );
        assert_eq!(
            check(&a, Engine::Vllm, Some("0.6.5")),
            Exposure::NotAffected
        );
        assert_eq!(check(&a, Engine::Vllm, Some("main")), Exposure::Unknown);
    }

    #[test]
    fn pypi_names_are_normalised_and_engines_mapped() {
        for (eco, name, want) in [
            ("PyPI", "SGLang", Engine::Sglang),
            ("PyPI", "tensorrt_llm", Engine::TensorrtLlm),
            ("PyPI", "TensorRT-LLM", Engine::TensorrtLlm),
            ("PyPI", "text_generation.inference", Engine::Tgi),
            ("Go", "github.com/ollama/ollama", Engine::Ollama),
            ("GitHub", "llama.cpp", Engine::LlamaCpp),
            (
                "GIT",
                "https://github.com/ggml-org/llama.cpp",
                Engine::LlamaCpp,
            ),
        ] {
            assert_eq!(package_engine(eco, name).map(|e| e.0), Ok(want), "{name}");
        }
        assert!(package_engine("npm", "sglang").is_err());
        assert!(package_engine("PyPI", "llama-cpp-python").is_err());
    }

    fn fixture(name: &str) -> &'static str {
        match name {
            "unknown-ecosystem" => include_str!("../tests/osv/unknown-ecosystem.json"),
            "malformed" => include_str!("../tests/osv/malformed.json"),
            "mixed" => include_str!("../tests/osv/mixed.json"),
            "git-only" => include_str!("../tests/osv/git-only.json"),
            _ => unreachable!(),
        }
    }

    #[test]
    fn entries_we_cannot_use_are_skipped_and_counted() {
        let a = parse_osv(fixture("unknown-ecosystem")).unwrap();
        assert_eq!(a.id, "TEST-2026-0002");
        assert_eq!(a.skipped_entries, 3, "npm, unreadable range, GIT only");
        assert_eq!(a.skipped_ranges, 1, "the GIT range beside the good one");
        assert_eq!(a.engines(), vec![Engine::Vllm]);
        assert_eq!(a.aliases, vec!["CVE-2026-99999".to_owned()]);
        assert_eq!(a.severity.as_deref(), Some("HIGH"));
        assert_eq!(
            a.references,
            vec!["https://example.com/advisory".to_owned()]
        );
        assert_eq!(
            a.published.map(|t| t.to_rfc3339()),
            Some("2026-11-02T10:00:00+00:00".into())
        );
        assert_eq!(check(&a, Engine::Vllm, Some("0.6.2")), affected("0.6.3"));
    }

    #[test]
    fn malformed_and_git_only_records_are_refused() {
        let e = parse_osv(fixture("malformed")).unwrap_err();
        assert!(matches!(e, OsvError::NotJson { .. }), "{e:?}");
        assert_eq!(e.msg(), Msg::ErrOsvNotJson);
        assert_eq!(parse_osv_file(fixture("malformed")), vec![Err(e)]);

        let e = parse_osv(fixture("git-only")).unwrap_err();
        assert_eq!(
            e,
            OsvError::NoPackage {
                index: 0,
                id: "TEST-2026-0004".into(),
                detail: "affected[0]: only GIT ranges".into()
            }
        );
        assert_eq!(
            e.text(Lang::En),
            "TEST-2026-0004: no affected package we can match."
        );
        assert_eq!(
            e.to_string(),
            "TEST-2026-0004: no affected package we can match. (affected[0]: only GIT ranges)"
        );
    }

    #[test]
    fn an_array_file_reports_per_record() {
        let results = parse_osv_file(fixture("mixed"));
        assert_eq!(results.len(), 5);
        assert_eq!(results[0].as_ref().unwrap().id, "TEST-2026-0010");
        assert_eq!(results[1], Err(OsvError::NoId { index: 1 }));
        let e = results[2].as_ref().unwrap_err();
        assert_eq!((e.index(), e.id()), (Some(2), Some("TEST-2026-0012")));
        assert!(e.detail().contains("\"npm\" unknown"), "{}", e.detail());
        assert_eq!(results[3], Err(OsvError::NotARecord { index: 3 }));
        assert_eq!(results[4].as_ref().unwrap().id, "TEST-2026-0014");
        assert_eq!(
            results[1].as_ref().unwrap_err().text(Lang::De),
            "Eintrag 2 hat keine ID."
        );
        // One record given to the single-record parser.
        assert!(parse_osv(fixture("mixed")).is_err());
        assert_eq!(parse_osv_file(&format!("[{}]", BUILTIN[0].1)).len(), 1);
        assert!(parse_osv_file("[]").is_empty());
    }

    #[test]
    fn lenient_about_what_we_do_not_use() {
        let a = parse_osv(
            r#"{"id": " X-1 ", "aliases": "not a list", "summary": 5, "modified": "yesterday",
                "new_field": {"a": 1}, "affected": [
                {"package": {"ecosystem": "PyPI", "name": "vllm"}, "ecosystem_specific": {},
                 "ranges": [{"type": "ECOSYSTEM", "events": [{"introduced": "0"}, {"fixed": "0.6.3"}], "extra": 1}]},
                "not an entry",
                {"package": {"ecosystem": "PyPI", "name": "vllm"},
                 "ranges": [{"type": "ECOSYSTEM", "events": [{"fixed": "0.1"}]}]},
                {"package": {"ecosystem": "PyPI", "name": "vllm"},
                 "ranges": [{"type": "WEIRD", "events": [{"introduced": "0"}]}]}]}"#,
        )
        .unwrap();
        assert_eq!(a.id, "X-1");
        assert!(a.aliases.is_empty() && a.summary.is_none() && a.modified.is_none());
        assert_eq!(a.skipped_entries, 3);
        assert_eq!(
            parse_osv(r#"{"id": "X-2"}"#),
            Err(OsvError::NoPackage {
                index: 0,
                id: "X-2".into(),
                detail: "no affected entries".into()
            })
        );
        assert_eq!(
            parse_osv(r#"{"affected": []}"#),
            Err(OsvError::NoId { index: 0 })
        );
        assert_eq!(parse_osv("42"), Err(OsvError::NotARecord { index: 0 }));
    }

    #[test]
    fn a_withdrawn_advisory_matches_nothing() {
        let mut a = before("0.5.22");
        a.withdrawn = Some(Utc::now());
        assert_eq!(
            check(&a, Engine::Sglang, Some("0.5.9")),
            Exposure::NotApplicable
        );
        assert!(match_services(&[a], [(1, Engine::Sglang, Some("0.5.9"))]).is_empty());
    }

    #[test]
    fn every_builtin_advisory_parses_with_nothing_skipped() {
        assert!(!BUILTIN.is_empty());
        for (name, json) in BUILTIN {
            let a = parse_osv(json).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(format!("{}.json", a.id), *name);
            assert_eq!((a.skipped_entries, a.skipped_ranges), (0, 0), "{name}");
            assert!(a.summary.is_some() && a.details.is_some() && a.modified.is_some());
        }
        let seed = parse_osv(BUILTIN[0].1).unwrap();
        assert_eq!(seed.id, "AIVET-2026-0001");
        assert_eq!(
            check(&seed, Engine::Sglang, Some("0.5.21")),
            affected("0.5.22")
        );
        assert_eq!(
            check(&seed, Engine::Sglang, Some("0.5.22")),
            Exposure::NotAffected
        );
    }

    #[test]
    fn match_services_returns_what_needs_attention() {
        let advisories = vec![
            before("0.5.22"),
            parse_osv(
                r#"{"id": "V-1", "affected": [{"package": {"ecosystem": "PyPI", "name": "vllm"},
                    "ranges": [{"type": "ECOSYSTEM", "events": [{"introduced": "0"}, {"fixed": "0.6.3"}]}]}]}"#,
            )
            .unwrap(),
        ];
        let services = [
            ("a", Engine::Sglang, Some("0.5.9")),
            ("b", Engine::Sglang, Some("0.5.22")),
            ("c", Engine::Sglang, None),
            ("d", Engine::Vllm, Some("0.6.2")),
            ("e", Engine::Other, Some("1.0")),
            ("f", Engine::Ollama, Some("0.1")),
        ];
        assert_eq!(
            match_services(&advisories, services),
            vec![
                ("a", 0, affected("0.5.22")),
                ("c", 0, Exposure::Unknown),
                ("d", 1, affected("0.6.3")),
            ]
        );
    }

    #[test]
    fn match_services_is_fast_enough_for_5000_services() {
        let advisories: Vec<Advisory> = (0..100)
            .map(|i| {
                let engine = ["sglang", "vllm", "tensorrt-llm", "text-generation-inference"][i % 4];
                parse_osv(&format!(
                    r#"{{"id": "T-{i}", "affected": [{{"package": {{"ecosystem": "PyPI", "name": "{engine}"}},
                        "ranges": [{{"type": "ECOSYSTEM", "events": [{{"introduced": "0.{i}"}}, {{"fixed": "0.{i}.5"}}]}}]}}]}}"#
                ))
                .unwrap()
            })
            .collect();
        let versions: Vec<String> = (0..5000)
            .map(|i| format!("0.{}.{}", i % 100, i % 9))
            .collect();
        let engines = [
            Engine::Sglang,
            Engine::Vllm,
            Engine::TensorrtLlm,
            Engine::Tgi,
        ];
        let start = std::time::Instant::now();
        let found = match_services(
            &advisories,
            versions
                .iter()
                .enumerate()
                .map(|(i, v)| (i, engines[i % 4], Some(v.as_str()))),
        );
        let took = start.elapsed();
        assert!(!found.is_empty());
        assert!(took.as_secs_f64() < 2.0, "took {took:?}");
    }

    #[test]
    fn exposure_labels_and_error_messages_are_translated() {
        for e in [
            Exposure::Affected { fixed: None },
            Exposure::NotAffected,
            Exposure::Unknown,
            Exposure::NotApplicable,
        ] {
            assert!(!e.label().text(Lang::Nb).is_empty());
        }
        assert_eq!(
            affected("0.5.22").fixed_in(Lang::De).as_deref(),
            Some("Behoben in 0.5.22")
        );
        assert_eq!(Exposure::Unknown.fixed_in(Lang::En), None);
        let e = OsvError::NoPackage {
            index: 0,
            id: "AIVET-2026-0001".into(),
            detail: String::new(),
        };
        assert!(e.text(Lang::Nb).starts_with("AIVET-2026-0001: "));
        assert_eq!(
            OsvError::NotARecord { index: 4 }.text(Lang::En),
            "Record 5: not an OSV record."
        );
    }

    /// A PEP 440 version as text.
    fn pep440_text() -> impl Strategy<Value = String> {
        (
            prop::collection::vec(0u64..12, 1..4),
            prop::option::of((prop::sample::select(vec!["a", "b", "rc"]), 0u64..3)),
            prop::option::of(0u64..3),
            prop::option::of(0u64..3),
            prop::option::of(prop::sample::select(vec!["cu126", "1", "abc.5"])),
        )
            .prop_map(|(release, pre, post, dev, local)| {
                let mut s = release
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(".");
                if let Some((kind, n)) = pre {
                    s += &format!("{kind}{n}");
                }
                if let Some(n) = post {
                    s += &format!(".post{n}");
                }
                if let Some(n) = dev {
                    s += &format!(".dev{n}");
                }
                if let Some(l) = local {
                    s += &format!("+{l}");
                }
                s
            })
    }

    proptest! {
        /// With "introduced 0, fixed F", a version is affected exactly when
        /// it is below F, its local part left out.
        #[test]
        fn check_agrees_with_comparing_against_the_fix(v in pep440_text(), fixed in pep440_text()) {
            let fixed = fixed.split('+').next().unwrap_or_default().to_owned();
            let a = before(&fixed);
            let below = pep440_rs::Version::from_str(&v).unwrap().without_local()
                < pep440_rs::Version::from_str(&fixed).unwrap();
            let want = if below { affected(&fixed) } else { Exposure::NotAffected };
            prop_assert_eq!(check(&a, Engine::Sglang, Some(&v)), want);
        }

        /// Whatever the version text, a service on the advisory's engine is
        /// never called unaffected unless its version reads as PEP 440.
        #[test]
        fn unreadable_versions_are_never_safe(v in "\\PC{0,12}") {
            let e = check(&before("0.5.22"), Engine::Sglang, Some(&v));
            if e == Exposure::NotAffected {
                prop_assert!(pep440(&v).is_some());
            }
        }
    }
}
