//! Share links (`tfgraph::share`): decoding whatever a stranger's link holds, at three depths (the
//! raw fragment; base64url of the bytes, to reach the inflater; base64url of the deflated bytes,
//! to reach the JSON reader), and `decode(encode(files)) == files` for every file map that
//! `encode` accepts.
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;
use tfgraph::share::{self, ShareError};

fn decode_checked(fragment: &str) {
    if let Ok(files) = share::decode(fragment) {
        assert!(files.len() <= share::MAX_FILES);
        for p in files.keys() {
            assert!(share::check_path(p).is_ok(), "decoded a bad path {p:?}");
        }
        // What a link held can be written back (unless it no longer fits in a link).
        match share::encode(&files) {
            Ok(again) => assert_eq!(share::decode(&again).as_ref(), Ok(&files)),
            Err(ShareError::TooLong(_) | ShareError::TooBig) => {}
            Err(e) => panic!("decoded files do not encode: {e}"),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((mode, rest)) = data.split_first() else {
        return;
    };
    match mode % 4 {
        0 => decode_checked(&String::from_utf8_lossy(rest)),
        1 => decode_checked(&format!(
            "{}{}",
            share::PREFIX,
            URL_SAFE_NO_PAD.encode(rest)
        )),
        2 => {
            let packed = miniz_oxide::deflate::compress_to_vec(rest, 1);
            decode_checked(&format!(
                "#{}{}",
                share::PREFIX,
                URL_SAFE_NO_PAD.encode(packed)
            ));
        }
        _ => {
            let Ok(files) =
                BTreeMap::<String, String>::arbitrary_take_rest(Unstructured::new(rest))
            else {
                return;
            };
            match share::encode(&files) {
                Ok(fragment) => {
                    assert!(fragment.len() <= share::MAX_ENCODED);
                    assert_eq!(share::decode(&fragment), Ok(files));
                }
                Err(ShareError::BadPath(p)) => {
                    assert!(files.keys().any(|k| share::check_path(k).is_err()), "{p:?}");
                }
                Err(ShareError::TooManyFiles(n)) => assert!(n > share::MAX_FILES),
                Err(ShareError::TooLong(_) | ShareError::TooBig) => {}
                Err(e) => panic!("encode failed: {e}"),
            }
        }
    }
});
