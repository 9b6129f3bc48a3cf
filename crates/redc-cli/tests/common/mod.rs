//! Names the CLI tests expect on the command line and in the outputs, written once: the
//! Montgomery algorithms (`--algo`, `speed --mont`, the `algorithms` table) and the dedicated
//! squarings (`--variant`, the `squaring` table).
#![allow(dead_code)]

/// Every Montgomery multiplication algorithm, by its CLI name.
pub const ALGOS: [&str; 7] = [
    "sos",
    "cios",
    "fios",
    "fips",
    "cihs",
    "itoh",
    "itoh-enhanced",
];

/// Every dedicated Montgomery squaring, by its CLI name.
pub const VARIANTS: [&str; 6] = ["generic", "koc", "improved", "merged", "coupled", "modern"];
