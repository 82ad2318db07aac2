#!/usr/bin/env bash
# Quick start: installs what is missing and runs Voice Workbench on its embedded default
# (SQLite file and local files under ./data, offline engines) with a demo account. The server answers
# at once; with internet it downloads the recommended engine models in the background (progress in
# this console; ENGINES=none skips it; npm run admin -- engines list shows them).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-env.sh
source scripts/system-packages.sh

ensure_debian_packages ffmpeg espeak-ng libespeak-ng1 fonts-noto-cjk rubberband-cli bzip2 unzip
ensure_npm_dependencies
echo "› building the web app"
npm run build -w @vw/web --silent
exec npm run start -w @vw/server --silent
