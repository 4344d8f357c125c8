//! Share links: the configuration's files carried in a URL fragment.
//!
//! A link's fragment is `v1.` followed by the files as a JSON object (path → text), deflated
//! (miniz_oxide) and base64url-encoded without padding. Everything in a fragment comes from whoever
//! wrote the link, so decoding is defensive: the encoded length, the inflated size, the number of
//! files and every path are bounded and checked before anything reaches the app, and every failure
//! is a [`ShareError`] with a sentence the app can show as text. Nothing here panics.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use std::collections::BTreeMap;
use std::fmt;

/// The version prefix of the fragment format.
pub const PREFIX: &str = "v1.";
/// The longest fragment we write or read, in characters (browsers keep far longer URLs, but
/// chat tools and address bars cut them, and decoding a longer one would only cost time).
pub const MAX_ENCODED: usize = 200_000;
/// The most bytes a fragment may inflate to (a deflate bomb stops here).
pub const MAX_DECODED: usize = 4 * 1024 * 1024;
/// The most files one link may carry.
pub const MAX_FILES: usize = 256;
/// The longest file path accepted.
pub const MAX_PATH: usize = 256;

/// Why a share link could not be written or read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShareError {
    #[error(
        "The share link is {0} characters long; the most tfgraph writes or reads is {MAX_ENCODED}."
    )]
    TooLong(usize),
    #[error(
        "The share link does not start with \"{PREFIX}\"; it was not made by this version of tfgraph."
    )]
    UnknownVersion,
    #[error("The share link is not valid base64url: {0}.")]
    Base64(String),
    #[error("The share link's data is damaged (it does not inflate): {0}.")]
    Inflate(String),
    #[error(
        "The share link inflates to more than {MAX_DECODED} bytes, which is more than tfgraph accepts."
    )]
    TooBig,
    #[error("The share link's data is not a JSON object of file names to texts: {0}.")]
    Json(String),
    #[error("The share link holds {0} files; the most it may hold is {MAX_FILES}.")]
    TooManyFiles(usize),
    #[error("The share link names a file {0:?}, which is not an acceptable relative path.")]
    BadPath(String),
}

/// Checks one file path: relative, forward slashes, no `.`/`..`/empty segments, no control
/// characters, bounded length. The same rule applies when writing, so every link we make reads back.
pub fn check_path(path: &str) -> Result<(), ShareError> {
    let bad = path.is_empty()
        || path.len() > MAX_PATH
        || path.starts_with('/')
        || path.contains('\\')
        || path.chars().any(char::is_control)
        || path
            .split('/')
            .any(|seg| seg.is_empty() || seg == "." || seg == "..");
    if bad {
        Err(ShareError::BadPath(path.chars().take(MAX_PATH).collect()))
    } else {
        Ok(())
    }
}

fn check_files(files: &BTreeMap<String, String>) -> Result<(), ShareError> {
    if files.len() > MAX_FILES {
        return Err(ShareError::TooManyFiles(files.len()));
    }
    files.keys().try_for_each(|p| check_path(p))
}

/// The fragment (without `#`) for these files.
pub fn encode(files: &BTreeMap<String, String>) -> Result<String, ShareError> {
    check_files(files)?;
    let json = serde_json::to_vec(files).map_err(|e| ShareError::Json(e.to_string()))?;
    if json.len() > MAX_DECODED {
        return Err(ShareError::TooBig);
    }
    let packed = miniz_oxide::deflate::compress_to_vec(&json, 9);
    let text = format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(packed));
    if text.len() > MAX_ENCODED {
        return Err(ShareError::TooLong(text.len()));
    }
    Ok(text)
}

/// The files in a fragment (a leading `#` is allowed).
pub fn decode(fragment: &str) -> Result<BTreeMap<String, String>, ShareError> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    if fragment.len() > MAX_ENCODED {
        return Err(ShareError::TooLong(fragment.len()));
    }
    let body = fragment
        .strip_prefix(PREFIX)
        .ok_or(ShareError::UnknownVersion)?;
    let packed = URL_SAFE_NO_PAD
        .decode(body.trim_end_matches('='))
        .map_err(|e| ShareError::Base64(e.to_string()))?;
    let json =
        miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_DECODED).map_err(|e| {
            match e.status {
                miniz_oxide::inflate::TINFLStatus::HasMoreOutput => ShareError::TooBig,
                status => ShareError::Inflate(format!("{status:?}")),
            }
        })?;
    let files: BTreeMap<String, String> =
        serde_json::from_slice(&json).map_err(|e| ShareError::Json(e.to_string()))?;
    check_files(&files)?;
    Ok(files)
}

impl fmt::Display for PathList<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for p in self.0.keys() {
            if !first {
                f.write_str(", ")?;
            }
            first = false;
            f.write_str(p)?;
        }
        Ok(())
    }
}

/// The file names of a map, comma-separated (for notices such as "opened main.tf, vars.tf").
pub struct PathList<'a>(pub &'a BTreeMap<String, String>);

#[cfg(test)]
mod tests {
    use super::*;

    fn files(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn round_trip_keeps_every_file() {
        let f = files(&[
            ("main.tf", "resource \"a\" \"b\" {}\n"),
            (
                "modules/net/main.tf",
                "output \"x\" { value = 1 }\n<script>é</script>",
            ),
        ]);
        let link = encode(&f).unwrap();
        assert!(link.starts_with(PREFIX));
        assert!(
            link.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
        );
        assert_eq!(decode(&link).unwrap(), f);
        assert_eq!(decode(&format!("#{link}")).unwrap(), f);
    }

    #[test]
    fn repetitive_text_compresses() {
        let f = files(&[(
            "main.tf",
            &"resource \"null_resource\" \"x\" {}\n".repeat(2000),
        )]);
        let link = encode(&f).unwrap();
        assert!(link.len() < 2_000, "{} characters", link.len());
    }

    #[test]
    fn refuses_bad_links_with_reasons() {
        assert_eq!(decode("v2.abc"), Err(ShareError::UnknownVersion));
        assert_eq!(decode(""), Err(ShareError::UnknownVersion));
        assert!(matches!(decode("v1.!!!"), Err(ShareError::Base64(_))));
        assert!(matches!(decode("v1.AAAA"), Err(ShareError::Inflate(_))));
        let long = format!("v1.{}", "A".repeat(MAX_ENCODED));
        assert_eq!(decode(&long), Err(ShareError::TooLong(long.len())));
        // Valid deflate of something that is not a map of strings.
        let not_map = format!(
            "v1.{}",
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(b"[1,2]", 6))
        );
        assert!(matches!(decode(&not_map), Err(ShareError::Json(_))));
    }

    #[test]
    fn a_deflate_bomb_stops_at_the_limit() {
        let zeros = vec![b' '; MAX_DECODED + 10];
        let link = format!(
            "v1.{}",
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&zeros, 9))
        );
        assert!(link.len() < MAX_ENCODED);
        assert_eq!(decode(&link), Err(ShareError::TooBig));
    }

    #[test]
    fn paths_must_be_plain_relative_names() {
        for bad in [
            "",
            "/etc/passwd",
            "../x.tf",
            "a//b.tf",
            "a/./b.tf",
            "a\\b.tf",
            "a\nb.tf",
        ] {
            let f = files(&[(bad, "")]);
            assert!(matches!(encode(&f), Err(ShareError::BadPath(_))), "{bad:?}");
            let json = serde_json::to_vec(&f).unwrap();
            let link = format!(
                "v1.{}",
                URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&json, 6))
            );
            assert!(
                matches!(decode(&link), Err(ShareError::BadPath(_))),
                "{bad:?}"
            );
        }
        assert!(check_path("modules/net/main.tf").is_ok());
    }

    #[test]
    fn too_many_files_is_refused() {
        let f: BTreeMap<String, String> = (0..=MAX_FILES)
            .map(|i| (format!("f{i}.tf"), String::new()))
            .collect();
        assert_eq!(encode(&f), Err(ShareError::TooManyFiles(MAX_FILES + 1)));
    }

    #[test]
    fn path_list_joins_names() {
        let f = files(&[("b.tf", ""), ("a.tf", "")]);
        assert_eq!(PathList(&f).to_string(), "a.tf, b.tf");
    }
}
