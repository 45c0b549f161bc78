//! Reading a form that may carry a document: the vendor's answer page and a
//! request's attachments.
//!
//! The limits are ours, not the web framework's (whose default of 2 MB is
//! switched off for the whole router): a document may have
//! [`MAX_BYTES`](aivet_domain::attachments::MAX_BYTES), the request as a
//! whole `AIVET_MAX_UPLOAD_BYTES`. Neither limit loses the form's text: a
//! document over its limit is read past without being kept, so the fields
//! after it still arrive; a request over the whole limit is kept up to it
//! (the answer page puts the file after the answers, so they arrive first)
//! and the rest read and thrown away, so that the browser gets to see the
//! answer page instead of a dropped connection.

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Multipart};
use axum::http::{header, Request};
use http_body::{Frame, SizeHint};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{ready, Context, Poll};

/// The form field that carries the document.
pub const FILE_FIELD: &str = "attachment";

/// Past this much, the rest of an oversized request is not read any more
/// (the connection is closed instead).
const DRAIN_MAX: usize = 64 * 1024 * 1024;

/// What an upload may hold.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The whole request, in bytes (`AIVET_MAX_UPLOAD_BYTES`).
    pub request: usize,
    /// One document, in bytes.
    pub file: usize,
}

/// A document as it came.
#[derive(Debug)]
pub struct File {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// Why (part of) an upload was not kept.
#[derive(Debug, PartialEq, Eq)]
pub enum Problem {
    /// The document with this name is over the per-file limit; the other
    /// fields were read.
    FileTooLarge(String),
    /// The request is over the whole limit: what came before it was read
    /// (and the name of the document it was cut in, if it was).
    RequestTooLarge(Option<String>),
    /// Not a form (a broken multipart body).
    Unreadable,
    /// These text fields were not UTF-8: named, their values kept with
    /// U+FFFD in place of the bad bytes (to show them again, never to save).
    NotText(Vec<String>),
}

/// A form as read: its text fields, at most one document, and what was
/// refused.
#[derive(Debug, Default)]
pub struct Upload {
    pub fields: Vec<(String, String)>,
    pub file: Option<File>,
    pub problem: Option<Problem>,
}

impl Upload {
    /// The value of a text field, empty when absent.
    pub fn get(&self, name: &str) -> String {
        self.fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    }
}

/// Reads a form posted URL-encoded or as multipart (the document in
/// [`FILE_FIELD`]; an empty file input carries none).
pub async fn read_form(req: Request<Body>, limits: Limits) -> Upload {
    let multipart = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    let (req, cut) = capped(req, limits.request, Cut::Ends);
    if multipart {
        read_multipart(req, limits, &cut).await
    } else {
        read_urlencoded(req, &cut).await
    }
}

async fn read_urlencoded(req: Request<Body>, cut: &AtomicBool) -> Upload {
    let read = axum::body::to_bytes(req.into_body(), usize::MAX).await;
    if cut.load(Ordering::SeqCst) {
        return Upload {
            problem: Some(Problem::RequestTooLarge(None)),
            ..Upload::default()
        };
    }
    let Ok(bytes) = read else {
        return unreadable(Vec::new());
    };
    let form = aivet_web::forms::decode_urlencoded(&bytes);
    Upload {
        fields: form.fields,
        file: None,
        problem: (!form.not_text.is_empty()).then_some(Problem::NotText(form.not_text)),
    }
}

fn unreadable(fields: Vec<(String, String)>) -> Upload {
    Upload {
        fields,
        file: None,
        problem: Some(Problem::Unreadable),
    }
}

async fn read_multipart(req: Request<Body>, limits: Limits, cut: &AtomicBool) -> Upload {
    let Ok(mut form) = Multipart::from_request(req, &()).await else {
        return unreadable(Vec::new());
    };
    let mut up = Upload::default();
    let mut not_text = Vec::new();
    // The document being read, for the message if the request is cut in it.
    let mut reading: Option<String> = None;
    let failed = |up: Upload, reading: Option<String>| Upload {
        problem: Some(if cut.load(Ordering::SeqCst) {
            Problem::RequestTooLarge(reading)
        } else {
            Problem::Unreadable
        }),
        ..up
    };
    loop {
        let mut field = match form.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) if cut.load(Ordering::SeqCst) => return failed(up, None),
            Ok(None) if !not_text.is_empty() && up.problem.is_none() => {
                up.problem = Some(Problem::NotText(not_text));
                return up;
            }
            Ok(None) => return up,
            Err(_) => return failed(up, None),
        };
        let name = field.name().unwrap_or_default().to_owned();
        let is_file = name == FILE_FIELD;
        let filename = field.file_name().unwrap_or_default().to_owned();
        if is_file {
            reading = Some(filename.clone());
        }
        let mut bytes = Vec::new();
        let mut over = false;
        loop {
            match field.chunk().await {
                Ok(Some(chunk)) => {
                    if is_file && !over && bytes.len() + chunk.len() > limits.file {
                        // Read on without keeping it: the fields after it count.
                        over = true;
                        bytes = Vec::new();
                    }
                    if !over {
                        bytes.extend_from_slice(&chunk);
                    }
                }
                Ok(None) => break,
                Err(_) => return failed(up, reading.filter(|_| is_file)),
            }
        }
        if is_file {
            reading = None;
            if over {
                up.problem.get_or_insert(Problem::FileTooLarge(filename));
            } else if up.file.is_none() && (!filename.is_empty() || !bytes.is_empty()) {
                up.file = Some(File {
                    name: filename,
                    bytes,
                });
            }
        } else {
            match String::from_utf8(bytes) {
                Ok(text) => up.fields.push((name, text)),
                Err(e) => {
                    let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                    not_text.push(name.clone());
                    up.fields.push((name, text));
                }
            }
        }
    }
}

/// How a capped body ends once it is over its limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// In an error: nothing may be made of the part that came.
    Fails,
    /// As if it were complete: a form reader then still gets every field
    /// that came before (a multipart reader reads ahead, so an error would
    /// reach it before it hands out those fields). Whoever reads it must
    /// look at the flag.
    Ends,
}

/// The request with a body that is cut off once more than `keep` bytes
/// came, and the flag that says it was.
pub fn capped(req: Request<Body>, keep: usize, how: Cut) -> (Request<Body>, Arc<AtomicBool>) {
    let cut = Arc::new(AtomicBool::new(false));
    let flag = cut.clone();
    let req = req.map(|inner| {
        Body::new(Capped {
            inner,
            read: 0,
            keep,
            how,
            cut: flag,
        })
    });
    (req, cut)
}

/// A request body cut off once more than `keep` bytes came: before it ends,
/// it reads (and drops) the rest of the body, up to [`DRAIN_MAX`], so that
/// the client is not cut off while it is still sending.
struct Capped {
    inner: Body,
    read: usize,
    keep: usize,
    how: Cut,
    cut: Arc<AtomicBool>,
}

#[derive(Debug, thiserror::Error)]
#[error("the request is larger than {0} bytes")]
struct TooLarge(usize);

impl http_body::Body for Capped {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = self.get_mut();
        let how = this.how;
        let too_large = |keep| match how {
            Cut::Fails => Poll::Ready(Some(Err(axum::Error::new(TooLarge(keep))))),
            Cut::Ends => Poll::Ready(None),
        };
        loop {
            match ready!(Pin::new(&mut this.inner).poll_frame(cx)) {
                Some(Ok(frame)) => {
                    let len = frame.data_ref().map_or(0, Bytes::len);
                    this.read = this.read.saturating_add(len);
                    if this.read > this.keep {
                        this.cut.store(true, Ordering::SeqCst);
                    }
                    if !this.cut.load(Ordering::SeqCst) {
                        return Poll::Ready(Some(Ok(frame)));
                    }
                    if this.read > DRAIN_MAX {
                        return too_large(this.keep);
                    }
                    // Over the limit: dropped, and on to the next frame.
                }
                _ if this.cut.load(Ordering::SeqCst) => return too_large(this.keep),
                other => return Poll::Ready(other),
            }
        }
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn multipart(parts: &[(&str, Option<&str>, &[u8])]) -> Request<Body> {
        let mut body = Vec::new();
        for (name, file, data) in parts {
            body.extend_from_slice(b"--XyZ\r\n");
            match file {
                Some(f) => body.extend_from_slice(
                    format!("Content-Disposition: form-data; name=\"{name}\"; filename=\"{f}\"\r\nContent-Type: application/pdf\r\n\r\n").as_bytes(),
                ),
                None => body.extend_from_slice(
                    format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes(),
                ),
            }
            body.extend_from_slice(data);
            body.extend_from_slice(b"\r\n");
        }
        body.extend_from_slice(b"--XyZ--\r\n");
        // In pieces, as it comes over the network.
        let pieces: Vec<Result<Bytes, std::io::Error>> = body
            .chunks(500)
            .map(|c| Ok(Bytes::copy_from_slice(c)))
            .collect();
        Request::builder()
            .method("POST")
            .header("content-type", "multipart/form-data; boundary=XyZ")
            .body(Body::from_stream(futures_util::stream::iter(pieces)))
            .unwrap()
    }

    const LIMITS: Limits = Limits {
        request: 4096,
        file: 1024,
    };

    #[tokio::test]
    async fn a_document_over_its_limit_is_read_past_and_the_fields_after_it_kept() {
        let big = vec![b'%'; 2000];
        let up = read_form(
            multipart(&[
                ("answer0", None, "før".as_bytes()),
                ("attachment", Some("big.pdf"), &big),
                ("name", None, b"Ola"),
            ]),
            Limits {
                request: 8192,
                file: 1024,
            },
        )
        .await;
        assert_eq!(up.problem, Some(Problem::FileTooLarge("big.pdf".into())));
        assert!(up.file.is_none());
        assert_eq!(up.get("answer0"), "før");
        assert_eq!(up.get("name"), "Ola");
    }

    #[tokio::test]
    async fn a_request_over_the_whole_limit_keeps_what_came_before() {
        let big = vec![b'%'; 6000];
        let up = read_form(
            multipart(&[
                ("answer0", None, b"kept"),
                ("attachment", Some("huge.pdf"), &big),
                ("name", None, b"lost"),
            ]),
            LIMITS,
        )
        .await;
        assert_eq!(
            up.problem,
            Some(Problem::RequestTooLarge(Some("huge.pdf".into())))
        );
        assert_eq!(up.get("answer0"), "kept");
        let up = read_form(multipart(&[("answer0", None, &vec![b'a'; 6000])]), LIMITS).await;
        assert_eq!(up.problem, Some(Problem::RequestTooLarge(None)));
    }

    #[tokio::test]
    async fn documents_within_the_limit_and_text_are_kept_as_sent() {
        let up = read_form(
            multipart(&[
                ("answer0", None, b"a"),
                ("attachment", Some("ok.pdf"), b"%PDF-1.7"),
                ("attachment", Some(""), b""),
            ]),
            LIMITS,
        )
        .await;
        assert_eq!(up.problem, None);
        let f = up.file.unwrap();
        assert_eq!(
            (f.name.as_str(), f.bytes.as_slice()),
            ("ok.pdf", &b"%PDF-1.7"[..])
        );
        let up = read_form(
            multipart(&[("answer0", None, b"ok"), ("answer1", None, b"\xff\xfe")]),
            LIMITS,
        )
        .await;
        assert_eq!(
            up.problem,
            Some(Problem::NotText(vec!["answer1".to_owned()]))
        );
        assert_eq!(up.get("answer0"), "ok");
    }

    #[tokio::test]
    async fn url_encoded_forms_are_read_strictly() {
        let req = |body: &'static str| {
            Request::builder()
                .method("POST")
                .header("content-type", "application/x-www-form-urlencoded")
                .body(Body::from(body))
                .unwrap()
        };
        let up = read_form(req("a=1&b=x+y%C3%B8&c="), LIMITS).await;
        assert_eq!(up.problem, None);
        assert_eq!(
            up.fields,
            [
                ("a".to_owned(), "1".to_owned()),
                ("b".to_owned(), "x yø".to_owned()),
                ("c".to_owned(), String::new())
            ]
        );
        let up = read_form(req("a=%FF&b=2"), LIMITS).await;
        assert_eq!(up.problem, Some(Problem::NotText(vec!["a".to_owned()])));
        assert_eq!(up.get("b"), "2");
        let long: &'static str = Box::leak(format!("a={}", "x".repeat(5000)).into_boxed_str());
        let up = read_form(req(long), LIMITS).await;
        assert_eq!(up.problem, Some(Problem::RequestTooLarge(None)));
    }
}
