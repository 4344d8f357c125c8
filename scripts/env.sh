# Sourced by the scripts: puts the tools scripts/setup installs first on PATH.
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$(npm prefix -g 2>/dev/null)/bin:$PATH"

# Cargo's target folder for this checkout (honours CARGO_TARGET_DIR), read from `cargo metadata`.
cargo_target_dir() {
  cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])'
}
