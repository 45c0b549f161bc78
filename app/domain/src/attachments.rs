//! Files attached to answers: what we accept and under which name.
//!
//! Documents only (PDF, office formats, plain text and saved mails), checked
//! by their first bytes as well as their name, so a renamed executable or
//! web page is refused. They are always served as downloads.

use crate::{Lang, Msg};

/// The largest file accepted (one document per upload; the request as a
/// whole may be somewhat larger, see the server's `AIVET_MAX_UPLOAD_BYTES`).
pub const MAX_BYTES: usize = 10 * 1024 * 1024;

/// A size as people read it in `lang`: "10 MB", "10.5 MB" / "10,5 MB",
/// "256 KB" (units of 1,024).
pub fn size_text(bytes: usize, lang: Lang) -> String {
    const MB: usize = 1024 * 1024;
    if bytes < MB {
        return format!("{} KB", bytes.div_ceil(1024));
    }
    let tenths = (bytes * 10).div_ceil(MB);
    let text = if tenths.is_multiple_of(10) {
        (tenths / 10).to_string()
    } else {
        let point = if lang == Lang::En { '.' } else { ',' };
        format!("{}{point}{}", tenths / 10, tenths % 10)
    };
    format!("{text} MB")
}
/// The most files one request can hold.
pub const MAX_PER_REQUEST: i64 = 10;

/// What a file is, by its content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Pdf,
    /// docx, xlsx, pptx, odt, ods, odp (ZIP containers).
    OfficeZip,
    /// doc, xls, ppt, msg (OLE compound files).
    OfficeOle,
    /// txt, eml, csv: text without NUL bytes.
    Text,
}

impl Kind {
    /// The media type the file is stored and offered with.
    pub fn media_type(self, extension: &str) -> &'static str {
        match (self, extension) {
            (Kind::Pdf, _) => "application/pdf",
            (_, "docx") => {
                "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
            }
            (_, "xlsx") => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            (_, "pptx") => {
                "application/vnd.openxmlformats-officedocument.presentationml.presentation"
            }
            (_, "odt") => "application/vnd.oasis.opendocument.text",
            (_, "ods") => "application/vnd.oasis.opendocument.spreadsheet",
            (_, "odp") => "application/vnd.oasis.opendocument.presentation",
            (_, "doc") => "application/msword",
            (_, "xls") => "application/vnd.ms-excel",
            (_, "ppt") => "application/vnd.ms-powerpoint",
            (_, "msg") => "application/vnd.ms-outlook",
            (_, "eml") => "message/rfc822",
            (_, "csv") => "text/csv",
            (Kind::Text, _) => "text/plain",
            _ => "application/octet-stream",
        }
    }
}

/// A file that passed the checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedFile {
    pub filename: String,
    pub media_type: &'static str,
}

/// The file's own name without any folder, control characters or quotes,
/// at most 150 characters (keeping the extension).
pub fn clean_filename(raw: &str) -> String {
    let base = raw.rsplit(['/', '\\']).next().unwrap_or("");
    let cleaned: String = base
        .chars()
        .filter(|c| !c.is_control() && !matches!(c, '"' | '\u{2028}' | '\u{2029}'))
        .collect();
    let cleaned = cleaned.trim().trim_start_matches('.').to_owned();
    if cleaned.chars().count() <= 150 {
        return cleaned;
    }
    let ext = cleaned.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    let stem: String = cleaned.chars().take(140).collect();
    format!("{stem}.{ext}")
}

/// Checks a file by name and content.
pub fn check(raw_name: &str, bytes: &[u8]) -> Result<CheckedFile, Msg> {
    if bytes.is_empty() {
        return Err(Msg::ErrFileEmpty);
    }
    if bytes.len() > MAX_BYTES {
        return Err(Msg::ErrFileTooLarge);
    }
    let filename = clean_filename(raw_name);
    let ext = filename
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    let expected = match ext.as_str() {
        "pdf" => Kind::Pdf,
        "docx" | "xlsx" | "pptx" | "odt" | "ods" | "odp" => Kind::OfficeZip,
        "doc" | "xls" | "ppt" | "msg" => Kind::OfficeOle,
        "txt" | "eml" | "csv" => Kind::Text,
        _ => return Err(Msg::ErrFileType),
    };
    let actual_ok = match expected {
        Kind::Pdf => bytes.starts_with(b"%PDF-"),
        Kind::OfficeZip => bytes.starts_with(b"PK\x03\x04"),
        Kind::OfficeOle => bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]),
        Kind::Text => !bytes.contains(&0),
    };
    if !actual_ok || filename.is_empty() {
        return Err(Msg::ErrFileType);
    }
    Ok(CheckedFile {
        media_type: expected.media_type(&ext),
        filename,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_pass_by_name_and_content() {
        let pdf = check("C:\\Users\\dana\\Answers \"final\".PDF", b"%PDF-1.7 ...").unwrap();
        assert_eq!(pdf.filename, "Answers final.PDF");
        assert_eq!(pdf.media_type, "application/pdf");
        assert_eq!(
            check("reply.eml", b"From: a@b.example\r\n\r\nHello")
                .unwrap()
                .media_type,
            "message/rfc822"
        );
        assert!(check("policy.docx", b"PK\x03\x04rest").is_ok());
    }

    #[test]
    fn other_files_are_refused() {
        assert_eq!(check("evil.html", b"<script>"), Err(Msg::ErrFileType));
        assert_eq!(check("fake.pdf", b"MZ\x90\x00"), Err(Msg::ErrFileType));
        assert_eq!(check("bin.txt", b"a\0b"), Err(Msg::ErrFileType));
        assert_eq!(check("../../.pdf", b"%PDF-"), Err(Msg::ErrFileType));
        assert_eq!(check("empty.pdf", b""), Err(Msg::ErrFileEmpty));
        let big = vec![b'a'; MAX_BYTES + 1];
        assert_eq!(check("big.txt", &big), Err(Msg::ErrFileTooLarge));
        let long = format!("{}.pdf", "x".repeat(400));
        assert_eq!(clean_filename(&long).chars().count(), 144);
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(size_text(MAX_BYTES, Lang::En), "10 MB");
        assert_eq!(size_text(256 * 1024, Lang::De), "256 KB");
        assert_eq!(size_text(1000, Lang::Nb), "1 KB");
        assert_eq!(
            size_text(11 * 1024 * 1024 + 512 * 1024, Lang::En),
            "11.5 MB"
        );
        assert_eq!(
            size_text(11 * 1024 * 1024 + 512 * 1024, Lang::De),
            "11,5 MB"
        );
    }
}
