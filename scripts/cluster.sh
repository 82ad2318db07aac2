#!/usr/bin/env bash
# The scale-out setup on this machine (README "Scale-out"): nginx in front of two API processes, two
# workers, PostgreSQL, Redis and an S3-compatible store, on loopback ports 18900-18912
# (CLUSTER_PORT moves them). Ctrl-C stops everything it started.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-env.sh
source scripts/system-packages.sh
ensure_debian_packages nginx postgresql redis-server ffmpeg espeak-ng libespeak-ng1 rubberband-cli
ensure_npm_dependencies
[ -f apps/web/dist/index.html ] || npm run build -w @vw/web --silent
exec node --import tsx apps/server/bench/load/cluster-main.ts
