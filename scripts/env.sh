# Sourced by the scripts: puts the tools scripts/setup installs first on PATH.
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$(npm prefix -g 2>/dev/null)/bin:$PATH"
