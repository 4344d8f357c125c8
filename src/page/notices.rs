//! The notices above the files: what happened to them (opened, kept aside, not saved, changed in
//! another tab), as a list the page draws keyed by id. One place decides how a notice joins the
//! list, so every path behaves alike: the same text is shown once (the newer replaces the older,
//! under a new id, so it is drawn anew), and the list stays short, plain news going first.

/// A message about the files, always drawn as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// Unique in the list, increasing: the page draws notices keyed by it.
    pub id: u64,
    pub text: String,
    /// A file the user may want, offered as a download: (file name, text).
    pub download: Option<(String, String)>,
    /// Something went wrong (drawn in the error colour).
    pub error: bool,
    /// Offers to put back the files kept aside before a replacement.
    pub restore: bool,
}

impl Notice {
    /// Plain news: no error, nothing to download or restore (it may go away by itself).
    pub fn is_plain(&self) -> bool {
        !self.error && !self.restore && self.download.is_none()
    }
}

/// At most this many notices are shown.
pub const MAX_NOTICES: usize = 5;

/// Adds a notice and returns its id. A notice with the same text, and any notice `replaces`
/// says yes to, is removed first. Past [`MAX_NOTICES`], the oldest plain news goes first, then
/// the oldest of the rest.
pub fn push(
    list: &mut Vec<Notice>,
    text: String,
    download: Option<(String, String)>,
    error: bool,
    restore: bool,
    replaces: impl Fn(&Notice) -> bool,
) -> u64 {
    let id = list.iter().map(|n| n.id + 1).max().unwrap_or(1);
    list.retain(|n| n.text != text && !replaces(n));
    list.push(Notice {
        id,
        text,
        download,
        error,
        restore,
    });
    while list.len() > MAX_NOTICES {
        let at = list.iter().position(Notice::is_plain).unwrap_or(0);
        list.remove(at);
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(list: &mut Vec<Notice>, text: &str) -> u64 {
        push(list, text.to_string(), None, false, false, |_| false)
    }

    #[test]
    fn ids_increase_and_the_same_text_is_shown_once_as_the_newest() {
        let mut l = Vec::new();
        let a = plain(&mut l, "a");
        let b = plain(&mut l, "b");
        assert!(b > a);
        let a2 = plain(&mut l, "a");
        assert!(a2 > b, "drawn anew under a new id");
        let texts: Vec<&str> = l.iter().map(|n| n.text.as_str()).collect();
        assert_eq!(texts, ["b", "a"]);
    }

    #[test]
    fn a_notice_can_replace_another_of_its_kind() {
        let mut l = Vec::new();
        plain(&mut l, "opened");
        push(
            &mut l,
            "Not saved: full.".into(),
            Some(("f".into(), "1".into())),
            true,
            false,
            |_| false,
        );
        push(
            &mut l,
            "Not saved: refused.".into(),
            Some(("f".into(), "2".into())),
            true,
            false,
            |n| n.text.starts_with("Not saved"),
        );
        let texts: Vec<&str> = l.iter().map(|n| n.text.as_str()).collect();
        assert_eq!(texts, ["opened", "Not saved: refused."]);
        assert_eq!(l[1].download.as_ref().map(|d| d.1.as_str()), Some("2"));
    }

    #[test]
    fn past_the_limit_plain_news_goes_before_warnings() {
        let mut l = Vec::new();
        push(&mut l, "kept aside".into(), None, false, true, |_| false);
        push(
            &mut l,
            "not saved".into(),
            Some(("f".into(), "x".into())),
            true,
            false,
            |_| false,
        );
        for i in 0..6 {
            plain(&mut l, &format!("news {i}"));
        }
        assert_eq!(l.len(), MAX_NOTICES);
        let texts: Vec<&str> = l.iter().map(|n| n.text.as_str()).collect();
        assert_eq!(
            texts,
            ["kept aside", "not saved", "news 3", "news 4", "news 5"]
        );
        // Only warnings left: the oldest of them goes.
        let mut w = Vec::new();
        for i in 0..6 {
            push(&mut w, format!("error {i}"), None, true, false, |_| false);
        }
        assert_eq!(w.first().map(|n| n.text.as_str()), Some("error 1"));
        assert_eq!(w.len(), MAX_NOTICES);
    }
}
