#!/usr/bin/env bash
# Every test of the repository: the Rust workspace's (`cargo test`: unit, integration, doc
# tests) and the Python package's (pytest in a virtual environment, built with maturin from
# python/, against pyca's vectors, pyca itself, PyJWT and mypy from PyPI).
# Extra arguments go to pytest. On a fresh machine it installs python3-venv when missing.
set -euo pipefail
cd "$(dirname "$0")"

cargo test --workspace

venv=target/py-venv
if [ ! -x "$venv/bin/python" ]; then
  if ! python3 -m venv "$venv" 2>/dev/null; then
    echo "test.sh: python3 -m venv failed; installing python3-venv" >&2
    if command -v apt-get >/dev/null 2>&1; then
      (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv python3-pip) >/dev/null
    fi
    rm -rf "$venv"
    python3 -m venv "$venv"
  fi
fi
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q maturin pytest "cryptography==50.*" "cryptography-vectors==50.*" PyJWT mypy
# Build the extension into the workspace's target directory, then install it.
CARGO_TARGET_DIR="$PWD/target/python-ext" "$venv/bin/python" -m pip install -q --force-reinstall --no-deps ./python
# From the tests' directory, so that ./python/redc does not shadow the installed package.
"$venv/bin/python" -m pytest -q python/tests "$@"
