# Sourced by the scripts: puts the tools scripts/setup installs first on PATH.
export PATH="$HOME/.cargo/bin:$(npm prefix -g 2>/dev/null)/bin:$PATH"
