//! How many of its performance measures the page lets the browser keep. A measure stays in the
//! performance timeline until it is cleared, and the walk records two every frame (about 7,000
//! a minute, for as long as the tab is open); the app's `marks` module records through a
//! [`Tally`] and clears a name's measures when the tally says so.

use std::collections::HashMap;

/// Measures of one name kept at most: at 60 walk frames a second, up to the last 5 seconds' (the
/// e2e timing test reads 3 seconds' worth).
pub const KEEP: u32 = 300;

/// Counts the measures recorded under each name since that name's were last cleared.
#[derive(Debug, Default)]
pub struct Tally {
    counts: HashMap<String, u32>,
}

impl Tally {
    /// Counts one more measure of `name`; true when the timeline holds `keep` of them, which the
    /// caller then clears (the count starts again from none).
    pub fn record(&mut self, name: &str, keep: u32) -> bool {
        let n = match self.counts.get_mut(name) {
            Some(n) => n,
            None => self.counts.entry(name.to_string()).or_default(),
        };
        *n += 1;
        if *n >= keep {
            *n = 0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_name_is_cleared_once_it_has_reached_keep_measures_and_then_counted_again() {
        let mut t = Tally::default();
        let clears = |t: &mut Tally, name: &str, times: u32| {
            (0..times).filter(|_| t.record(name, 3)).count()
        };
        assert_eq!(clears(&mut t, "walk-simulation", 2), 0);
        // Another name's measures do not count towards it.
        assert_eq!(clears(&mut t, "save", 2), 0);
        assert!(t.record("walk-simulation", 3), "the third of a name clears");
        assert_eq!(
            clears(&mut t, "walk-simulation", 2),
            0,
            "counted from none again"
        );
        assert!(t.record("save", 3));
        // Two counted already: the 1st, 4th and 7th of the next seven clear.
        assert_eq!(clears(&mut t, "walk-simulation", 7), 3);
    }
}
