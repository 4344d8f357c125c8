//! Go's `strconv.Quote`, which OpenTofu uses for every quoted name in its output (`%q` in
//! `fmt`): DOT node names, instance keys in addresses, names in diagnostics. Its own module
//! because addresses, configuration diagnostics and the DOT renderer all quote the same way and
//! none of them should depend on another for it. Also [`exact`], how the names and keys those
//! quoted pieces go into are made at their length.

/// Go's `strconv.Quote`: the string in double quotes, with `"` and `\` escaped, the usual C escapes
/// (`\a \b \f \n \r \t \v`), other non-printable characters as `\xNN`, `\uNNNN` or `\UNNNNNNNN`
/// (lower-case hex). Hand-written: OpenTofu's output must be matched byte for byte, and Rust's
/// `escape_debug` writes `\u{..}` where Go writes `\xNN` or `\uNNNN`.
/// Go decides "printable" with Unicode tables Rust's std lacks; this treats control characters,
/// whitespace other than the ASCII space, the common format characters, private-use characters and
/// noncharacters as non-printable, which agrees with Go on everything but rare unassigned code
/// points (a general-category table such as the `unicode-general-category` crate would close that
/// gap; no name OpenTofu prints has needed it).
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    go_escape_into(&mut out, s);
    out.push('"');
    out
}

/// [`go_quote`] without the quotes, appended to `out` (for a writer that puts many quoted names
/// in one buffer).
pub fn go_escape_into(out: &mut String, s: &str) {
    let mut rest = s;
    loop {
        // A run of printable ASCII other than `"` and `\` stays as it is: copied in one piece
        // (most names are one such run), not character by character.
        let run = rest
            .bytes()
            .position(|b| !(b' '..=b'~').contains(&b) || b == b'"' || b == b'\\')
            .unwrap_or(rest.len());
        out.push_str(&rest[..run]);
        rest = &rest[run..];
        let mut chars = rest.chars();
        let Some(c) = chars.next() else {
            break;
        };
        rest = chars.as_str();
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if is_go_printable(c) => out.push(c),
            c if (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
}

fn is_go_printable(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    let u = c as u32;
    !(c.is_control()
        || c.is_whitespace()
        || matches!(u, 0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x180E | 0x200B..=0x200F
            | 0x202A..=0x202E | 0x2060..=0x206F | 0xFEFF | 0xFFF9..=0xFFFB | 0xE000..=0xF8FF
            | 0xF0000..=0x10FFFF)
        || (u & 0xFFFE) == 0xFFFE
        || (0xFDD0..=0xFDEF).contains(&u))
}

/// `args` as a string allocated once at its length: measured first, then written. (A name
/// written piece by piece into a growing string was reallocated three or four times; resource
/// vertices are named in every step, DOT line and why, and keys made for every reference.)
pub fn exact(args: std::fmt::Arguments<'_>) -> String {
    struct Count(usize);
    impl std::fmt::Write for Count {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            self.0 += s.len();
            Ok(())
        }
    }
    let mut n = Count(0);
    let mut out = String::new();
    if std::fmt::Write::write_fmt(&mut n, args).is_ok() {
        out.reserve_exact(n.0);
    }
    std::fmt::Write::write_fmt(&mut out, args).expect("writing to a string does not fail");
    out
}

#[cfg(test)]
mod tests {
    use super::go_quote;

    #[test]
    fn quotes_like_go() {
        assert_eq!(go_quote("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(go_quote("x\ny\t\u{1}"), r#""x\ny\t\x01""#);
        assert_eq!(go_quote("é\u{a0}"), "\"é\\u00a0\"");
        assert_eq!(go_quote("module.a[\"k\"]"), r#""module.a[\"k\"]""#);
    }
}
