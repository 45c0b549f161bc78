//! Addresses inside the application: the sign-in address that carries where
//! to come back to, and the check every such "come back to" passes before
//! anything redirects to it. Only paths on this site pass: a redirect to
//! another site (an open redirect) or a header broken by a line break must
//! not be reachable by editing a link.

/// Percent-encodes a query value (everything but the unreserved characters).
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The sign-in page, asked to come back to `back_to` (a path with its query)
/// afterwards. The dashboard is where signing in leads anyway.
pub fn sign_in_address(back_to: &str) -> String {
    match local_path(back_to) {
        Some(p) if p != "/" => format!("/login?next={}", encode(&p)),
        _ => "/login".to_owned(),
    }
}

/// `next` as a path on this site, ready for a `Location` header; `None`
/// when it is anything else: another site (`//host`, `https://…`,
/// backslashes, which browsers read as slashes), no path at all, or text
/// with control characters (a line break would start a new header).
/// Characters that do not belong in an address are percent-encoded.
pub fn local_path(next: &str) -> Option<String> {
    let bad = |s: &str| {
        !s.starts_with('/')
            || s.starts_with("//")
            || s.contains('\\')
            || s.chars().any(|c| c.is_control() || c.is_whitespace())
    };
    if bad(next) || bad(&percent_decoded(next)) {
        return None;
    }
    let mut out = String::with_capacity(next.len());
    for c in next.chars() {
        match c {
            'A'..='Z'
            | 'a'..='z'
            | '0'..='9'
            | '-'
            | '.'
            | '_'
            | '~'
            | '/'
            | '?'
            | '#'
            | '['
            | ']'
            | '@'
            | '!'
            | '$'
            | '&'
            | '\''
            | '('
            | ')'
            | '*'
            | '+'
            | ','
            | ';'
            | '='
            | ':'
            | '%' => out.push(c),
            other => {
                let mut buf = [0u8; 4];
                for b in other.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("%{b:02X}"));
                }
            }
        }
    }
    Some(out)
}

/// `s` with its `%XX` escapes decoded (bytes that are not UTF-8 become
/// U+FFFD, which fails no check by itself).
fn percent_decoded(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push(h * 16 + l);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_on_this_site_pass_and_are_encoded() {
        assert_eq!(
            local_path("/services?q=x").as_deref(),
            Some("/services?q=x")
        );
        assert_eq!(
            local_path("/services?q=Bærum AS").as_deref(),
            None,
            "a raw space is refused"
        );
        assert_eq!(
            local_path("/services?q=Bærum").as_deref(),
            Some("/services?q=B%C3%A6rum")
        );
        assert_eq!(
            local_path("/vendors/1#contacts").as_deref(),
            Some("/vendors/1#contacts")
        );
        assert_eq!(local_path("/a\"<b>").as_deref(), Some("/a%22%3Cb%3E"));
    }

    #[test]
    fn other_sites_and_broken_headers_do_not() {
        // (The integration tests sign in with a longer list.)
        for next in [
            "",
            "services",
            "//evil.example",
            "/\\evil.example",
            "https://evil.example/",
            "/services\r\nSet-Cookie: a=b",
            "/%2F%2Fevil.example",
            "/%0d%0aSet-Cookie:%20a=b",
        ] {
            assert_eq!(local_path(next), None, "{next:?}");
        }
    }

    #[test]
    fn the_sign_in_address_carries_the_page() {
        assert_eq!(
            sign_in_address("/services?q=x"),
            "/login?next=%2Fservices%3Fq%3Dx"
        );
        assert_eq!(sign_in_address("/"), "/login");
        assert_eq!(sign_in_address("//evil.example"), "/login");
    }
}
