//! Versions and version constraints as OpenTofu reads them for modules: HashiCorp's `go-version`
//! (`version.NewVersion`, `version.NewConstraint`, `Constraints.Check`), which the module loader
//! uses to compare an installed module's version (`modules.json`) with the call's `version`.
//!
//! Hand-written: no crate has go-version's rules (a leading `v`, any number of segments padded to
//! three, `~>` keyed on how many segments the constraint wrote, and its pre-release rules, which
//! differ from Cargo's and npm's semver).

use std::cmp::Ordering;

/// A parsed version: numeric segments (at least three, padded with zeros), the number of segments
/// written, the pre-release and the build metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    segments: Vec<u64>,
    written: usize,
    pre: String,
    metadata: String,
}

impl Version {
    /// go-version's `NewVersion`: `1`, `1.2.3`, `v1.2.3-beta.1+build`; the error is its
    /// "Malformed version: TEXT".
    pub fn parse(text: &str) -> Result<Version, String> {
        let bad = || format!("Malformed version: {text}");
        let s = text.strip_prefix('v').unwrap_or(text);
        let (s, metadata) = match s.split_once('+') {
            Some((a, m)) if is_ident_list(m) => (a, m.to_string()),
            Some(_) => return Err(bad()),
            None => (s, String::new()),
        };
        // The numeric part runs up to the first character that is not a digit or a dot.
        let end = s
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(s.len());
        let (nums, rest) = s.split_at(end);
        let pre = match rest {
            "" => String::new(),
            r => {
                let p = r.strip_prefix('-').unwrap_or(r);
                if p.is_empty() || !is_ident_list(p) {
                    return Err(bad());
                }
                // Without a dash the pre-release must start with a letter (`1.0beta`).
                if !r.starts_with('-') && !p.starts_with(|c: char| c.is_ascii_alphabetic()) {
                    return Err(bad());
                }
                p.to_string()
            }
        };
        let mut segments = Vec::new();
        for part in nums.split('.') {
            if part.is_empty() {
                return Err(bad());
            }
            segments.push(part.parse::<u64>().map_err(|_| bad())?);
        }
        let written = segments.len();
        while segments.len() < 3 {
            segments.push(0);
        }
        Ok(Version {
            segments,
            written,
            pre,
            metadata,
        })
    }

    pub fn prerelease(&self) -> &str {
        &self.pre
    }

    /// go-version's `Compare`: segments, then a version without a pre-release is greater than
    /// one with; metadata does not count.
    pub fn compare(&self, other: &Version) -> Ordering {
        let n = self.segments.len().max(other.segments.len());
        for i in 0..n {
            let a = self.segments.get(i).copied().unwrap_or(0);
            let b = other.segments.get(i).copied().unwrap_or(0);
            match a.cmp(&b) {
                Ordering::Equal => {}
                o => return o,
            }
        }
        match (self.pre.is_empty(), other.pre.is_empty()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            (false, false) => compare_prerelease(&self.pre, &other.pre),
        }
    }
}

impl std::fmt::Display for Version {
    /// go-version's `String`: every segment (padded to three), `-pre`, `+metadata`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.segments.iter().map(u64::to_string).collect();
        f.write_str(&parts.join("."))?;
        if !self.pre.is_empty() {
            write!(f, "-{}", self.pre)?;
        }
        if !self.metadata.is_empty() {
            write!(f, "+{}", self.metadata)?;
        }
        Ok(())
    }
}

fn is_ident_list(s: &str) -> bool {
    !s.is_empty()
        && s.split('.').all(|p| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '~')
        })
}

fn compare_prerelease(a: &str, b: &str) -> Ordering {
    let (pa, pb): (Vec<&str>, Vec<&str>) = (a.split('.').collect(), b.split('.').collect());
    for i in 0..pa.len().max(pb.len()) {
        let o = match (pa.get(i), pb.get(i)) {
            (Some(x), Some(y)) => match (x.parse::<u64>(), y.parse::<u64>()) {
                (Ok(m), Ok(n)) => m.cmp(&n),
                (Ok(_), Err(_)) => Ordering::Less,
                (Err(_), Ok(_)) => Ordering::Greater,
                (Err(_), Err(_)) => x.cmp(y),
            },
            (Some(_), None) => Ordering::Greater,
            (None, Some(_)) => Ordering::Less,
            (None, None) => Ordering::Equal,
        };
        if o != Ordering::Equal {
            return o;
        }
    }
    Ordering::Equal
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Gt,
    Lt,
    Ge,
    Le,
    Pessimistic,
}

/// A list of constraints that must all hold (`">= 1.0, < 2.0"`, `"~> 5.0"`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constraints(Vec<(Op, Version)>);

impl Constraints {
    /// go-version's `NewConstraint`; the error is its "Malformed constraint: TEXT" or the
    /// version's.
    pub fn parse(text: &str) -> Result<Constraints, String> {
        let mut out = Vec::new();
        for single in text.split(',') {
            let s = single.trim();
            let (op, rest) = [
                (">=", Op::Ge),
                ("<=", Op::Le),
                ("!=", Op::Ne),
                ("~>", Op::Pessimistic),
                (">", Op::Gt),
                ("<", Op::Lt),
                ("=", Op::Eq),
            ]
            .iter()
            .find_map(|(p, op)| s.strip_prefix(p).map(|r| (*op, r)))
            .unwrap_or((Op::Eq, s));
            let v = rest.trim();
            if v.is_empty() || v.contains(char::is_whitespace) {
                return Err(format!("Malformed constraint: {single}"));
            }
            out.push((op, Version::parse(v)?));
        }
        Ok(Constraints(out))
    }

    /// True when `v` meets every constraint (go-version's `Constraints.Check`).
    pub fn check(&self, v: &Version) -> bool {
        self.0.iter().all(|(op, c)| check_one(*op, v, c))
    }
}

/// go-version's `prereleaseCheck`: a pre-release version only meets a constraint that names a
/// pre-release of the same segments.
fn prerelease_ok(v: &Version, c: &Version) -> bool {
    match (!v.pre.is_empty(), !c.pre.is_empty()) {
        (true, true) => v.segments == c.segments,
        (true, false) => false,
        _ => true,
    }
}

fn check_one(op: Op, v: &Version, c: &Version) -> bool {
    let ord = v.compare(c);
    match op {
        Op::Eq => ord == Ordering::Equal,
        Op::Ne => ord != Ordering::Equal,
        Op::Gt => prerelease_ok(v, c) && ord == Ordering::Greater,
        Op::Lt => prerelease_ok(v, c) && ord == Ordering::Less,
        Op::Ge => prerelease_ok(v, c) && ord != Ordering::Less,
        Op::Le => prerelease_ok(v, c) && ord != Ordering::Greater,
        Op::Pessimistic => {
            if !prerelease_ok(v, c) || (!c.pre.is_empty() && v.pre.is_empty()) {
                return false;
            }
            if ord == Ordering::Less {
                return false;
            }
            let n = c.segments.len();
            if n > v.segments.len() {
                return false;
            }
            if (0..c.written.saturating_sub(1)).any(|i| v.segments[i] != c.segments[i]) {
                return false;
            }
            c.segments[n - 1] <= v.segments[n - 1]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(c: &str, v: &str) -> bool {
        Constraints::parse(c)
            .unwrap()
            .check(&Version::parse(v).unwrap())
    }

    // Cases from go-version's constraint_test.go behaviour (TestConstraintCheck).
    #[test]
    fn constraints_as_go_version_checks_them() {
        assert!(ok(">= 1.0, < 1.4", "1.2"));
        assert!(!ok(">= 1.0, < 1.4", "1.4"));
        assert!(ok("~> 1.0", "1.2"));
        assert!(!ok("~> 1.0", "2.0"));
        assert!(ok("~> 1.0.0", "1.0.7"));
        assert!(!ok("~> 1.0.0", "1.1.0"));
        assert!(ok("~> 5.0", "5.21.0"));
        assert!(!ok("~> 5.0", "6.0.0"));
        assert!(ok("5.1.2", "v5.1.2"));
        assert!(ok("= 1.0", "1.0.0"));
        assert!(ok("!= 1.0", "1.1"));
        assert!(!ok(">= 1.0", "1.1.0-beta"));
        assert!(ok(">= 1.1.0-a", "1.1.0-beta"));
        assert!(!ok("~> 1.0.0-beta", "1.0.0"));
        assert!(ok("1.0.0+build", "1.0.0"));
    }

    #[test]
    fn versions_print_and_fail_as_go_version() {
        assert_eq!(Version::parse("v5.1").unwrap().to_string(), "5.1.0");
        assert_eq!(
            Version::parse("1.2.3-rc.1+x").unwrap().to_string(),
            "1.2.3-rc.1+x"
        );
        assert_eq!(
            Version::parse("banana").unwrap_err(),
            "Malformed version: banana"
        );
        assert_eq!(
            Constraints::parse(">= 1, ~>").unwrap_err(),
            "Malformed constraint:  ~>"
        );
        assert!(Version::parse("1..2").is_err());
        assert!(Version::parse("").is_err());
    }
}
