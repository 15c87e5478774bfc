#!/usr/bin/env bash
# Installs Debian's chromium package when no `chromium` is on PATH (the dashboard's
# browser test drives it headless). Needs root or password-less sudo; exits non-zero,
# saying why, when it cannot install.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  as_root=(sudo -n)
else
  echo "ensure-chromium: chromium is missing and installing it needs root or password-less sudo" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: chromium is missing and there is no apt-get to install Debian's package" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -q
"${as_root[@]}" apt-get install -y -q --no-install-recommends chromium
command -v chromium >/dev/null
