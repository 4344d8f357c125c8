//! "Did you mean …?" suggestions, as OpenTofu's `internal/didyoumean` and HCL's
//! `hclsyntax.nameSuggestion` make them: the first candidate within an edit distance of 3.

/// Go `didyoumean.NameSuggestion` / hclsyntax `nameSuggestion`: the first of `candidates` (in the
/// order given; Go's callers often pass map keys, whose order is random, so ours pass them
/// sorted) whose Levenshtein distance from `given` is below 3, counted in characters as Go's
/// `levenshtein.Distance` counts runes.
pub fn name_suggestion<'a>(given: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates
        .iter()
        .copied()
        .find(|c| strsim::levenshtein(given, c) < 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_close_candidate_wins() {
        let blocks = ["resource", "data", "module"];
        assert_eq!(name_suggestion("resources", &blocks), Some("resource"));
        assert_eq!(name_suggestion("modul", &blocks), Some("module"));
        assert_eq!(name_suggestion("nope", &["root", "cwd", "module"]), None);
        // Distance exactly 3 is too far.
        assert_eq!(name_suggestion("abc", &["xyz"]), None);
        assert_eq!(name_suggestion("ab", &["xb", "ab"]), Some("xb"));
    }
}
