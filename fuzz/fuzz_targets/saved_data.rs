//! The app's autosave (`tfgraph::saved`): whatever localStorage holds under the current key and
//! format 1's keys is classified without a panic, unusable data keeps its raw text, and saved
//! files read back as they were.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;
use tfgraph::saved::{self, Restored};

#[derive(Debug, Arbitrary)]
struct Case {
    current: Option<String>,
    v1_files: Option<String>,
    v1_main: Option<String>,
    files: BTreeMap<String, String>,
}

fuzz_target!(|case: Case| {
    let r = saved::classify(
        case.current.as_deref(),
        case.v1_files.as_deref(),
        case.v1_main.as_deref(),
    );
    match &r {
        Restored::Nothing => {
            assert!(case.current.is_none() && case.v1_files.is_none() && case.v1_main.is_none())
        }
        Restored::Unusable { raw, why } => {
            assert!(!why.is_empty());
            assert!(Some(raw) == case.current.as_ref() || Some(raw) == case.v1_files.as_ref());
        }
        Restored::Files(files) | Restored::Converted { files, .. } => {
            for p in files.keys() {
                assert!(
                    tfgraph::share::check_path(p).is_ok(),
                    "restored a bad path {p:?}"
                );
            }
        }
    }
    let usable = case.files.len() <= tfgraph::share::MAX_FILES
        && case
            .files
            .keys()
            .all(|p| tfgraph::share::check_path(p).is_ok());
    match saved::classify(Some(&saved::envelope(&case.files)), None, None) {
        Restored::Files(f) => assert_eq!(f, case.files),
        Restored::Unusable { .. } => assert!(!usable, "saved files do not read back"),
        other => panic!("{other:?}"),
    }
});
