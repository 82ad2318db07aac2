#!/usr/bin/env bash
# Runs every test: the benchmark gate, unit and server integration tests (on SQLite and on PostgreSQL,
# with Redis), then the browser journeys in Debian Chromium. Ends with one line "N passed, N failed"
# (each benchmark gate figure counts as one).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
source scripts/node-env.sh
source scripts/system-packages.sh

ensure_debian_packages curl ffmpeg espeak-ng libespeak-ng1 fonts-noto-cjk chromium postgresql redis-server rubberband-cli nginx bzip2 unzip
tracked_before="$(git status --porcelain --untracked-files=no 2>/dev/null || true)"
ensure_npm_dependencies
ensure_clone_unchanged "$tracked_before"

OUT="$ROOT/.test-output"
rm -rf "$OUT" && mkdir -p "$OUT"
cleanup_steps=()
cleanup() { for step in "${cleanup_steps[@]}"; do eval "$step" || true; done; }
trap cleanup EXIT

# PostgreSQL: the machine's own when it answers, otherwise a private one in a folder we own.
if pg_isready -q -h 127.0.0.1 -p 5432 && psql -h 127.0.0.1 -U postgres -d postgres -tAc 'select 1' >/dev/null 2>&1; then
  export TEST_PG_URL="postgres://postgres@127.0.0.1:5432/postgres"
else
  PG_BIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
  PG_DIR="$(mktemp -d /tmp/vw-pg.XXXXXX)"
  chown postgres "$PG_DIR" 2>/dev/null || true
  as_pg() { if [ "$(id -u)" -eq 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi; }
  as_pg "$PG_BIN/initdb -D $PG_DIR/data -U postgres -A trust >/dev/null"
  as_pg "$PG_BIN/pg_ctl -D $PG_DIR/data -o '-p 55432 -k $PG_DIR -c listen_addresses=127.0.0.1' -l $PG_DIR/log -w start >/dev/null"
  cleanup_steps+=("as_pg '$PG_BIN/pg_ctl -D $PG_DIR/data -m immediate stop >/dev/null'")
  export TEST_PG_URL="postgres://postgres@127.0.0.1:55432/postgres"
fi

# Redis likewise; each test uses its own key prefix.
if redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG; then
  export TEST_REDIS_URL="redis://127.0.0.1:6379"
else
  redis-server --port 56379 --bind 127.0.0.1 --save '' --appendonly no --daemonize yes >/dev/null
  cleanup_steps+=("redis-cli -p 56379 shutdown nosave >/dev/null")
  export TEST_REDIS_URL="redis://127.0.0.1:56379"
fi

status=0
echo "› typecheck and lint"
{ npm run --silent typecheck && npm run --silent lint; } || status=1

echo "› dependency licences (compatible with AGPL-3.0-or-later)"
node scripts/check-licences.mjs || status=1

echo "› benchmark gate (ratios to references measured in the same run, against apps/server/bench/gate/baselines.json)"
npm run --silent bench:gate -- --json "$OUT/bench-gate.json" || status=1

echo "› unit and integration tests (vitest)"
npx vitest run --reporter=default --reporter=json --outputFile.json="$OUT/vitest.json" || status=1

echo "› browser journeys (Playwright + Debian Chromium)"
npm run build -w @vw/web --silent
E2E_PORT="${E2E_PORT:-18787}"
E2E_DATA="$(mktemp -d /tmp/vw-e2e.XXXXXX)"
# A fake OpenAI-compatible transcription server (real HTTP and multipart) for the speech-to-text journey.
FAKE_ASR_PORT="${FAKE_ASR_PORT:-18789}"
node e2e/fake-asr-server.mjs "$FAKE_ASR_PORT" >"$OUT/fake-asr.log" 2>&1 &
FAKE_ASR_PID=$!
cleanup_steps+=("kill $FAKE_ASR_PID 2>/dev/null")
for _ in $(seq 1 40); do
  curl -fsS "http://127.0.0.1:$FAKE_ASR_PORT/v1/models" >/dev/null 2>&1 && break
  sleep 0.25
done
# A fake OpenAI-compatible chat server (language model) for the dubbing journey's 缩写 fix.
FAKE_CHAT_PORT="${FAKE_CHAT_PORT:-18791}"
node --import tsx packages/engines/src/llm/fake-chat-server.ts "$FAKE_CHAT_PORT" >"$OUT/fake-chat.log" 2>&1 &
FAKE_CHAT_PID=$!
cleanup_steps+=("kill $FAKE_CHAT_PID 2>/dev/null")
# Fake self-hosted voice servers (voice conversion under /vc, cloning routes added by issue 16's clone side).
FAKE_VOICE_PORT="${FAKE_VOICE_PORT:-18790}"
node e2e/fake-voice-servers.mjs "$FAKE_VOICE_PORT" >"$OUT/fake-voice.log" 2>&1 &
FAKE_VOICE_PID=$!
cleanup_steps+=("kill $FAKE_VOICE_PID 2>/dev/null")
for _ in $(seq 1 40); do
  curl -fsS "http://127.0.0.1:$FAKE_VOICE_PORT/vc/health" >/dev/null 2>&1 && break
  sleep 0.25
done
FAKE_SEPARATOR_PORT="${FAKE_SEPARATOR_PORT:-18792}"
node --import tsx packages/engines/src/separate/fake-separator-server.ts "$FAKE_SEPARATOR_PORT" >"$OUT/fake-separator.log" 2>&1 &
cleanup_steps+=("kill $! 2>/dev/null")
for _ in $(seq 1 50); do
  curl -fsS "http://127.0.0.1:$FAKE_SEPARATOR_PORT/health" >/dev/null 2>&1 && break
  sleep 0.2
done
NODE_ENV=development ENGINES=none PORT="$E2E_PORT" HOST=127.0.0.1 PUBLIC_URL="http://127.0.0.1:$E2E_PORT" PAYMENT_ORDER_TTL=20 \
  OPENAI_ASR_BASE_URL="http://127.0.0.1:$FAKE_ASR_PORT/v1" OPENAI_ASR_MODEL=whisper-1 OPENAI_ASR_API_KEY=fake \
  VC_SERVER_URL="http://127.0.0.1:$FAKE_VOICE_PORT/vc" VC_SERVER_LABEL="RVC 服务（测试）" \
  LLM_BASE_URL="http://127.0.0.1:$FAKE_CHAT_PORT/v1" LLM_MODEL=fake-chat LLM_API_KEY=fake \
  SEPARATOR_URL="http://127.0.0.1:$FAKE_SEPARATOR_PORT" \
  DATA_DIR="$E2E_DATA" LOG_LEVEL=warn node --import tsx apps/server/src/main.ts >"$OUT/e2e-server.log" 2>&1 &
SERVER_PID=$!
cleanup_steps+=("kill $SERVER_PID 2>/dev/null; rm -rf '$E2E_DATA'")
for _ in $(seq 1 60); do
  curl -fsS "http://127.0.0.1:$E2E_PORT/openapi.json" >/dev/null 2>&1 && break
  sleep 0.5
done
E2E_BASE_URL="http://127.0.0.1:$E2E_PORT" E2E_DATA_DIR="$E2E_DATA" npx playwright test || status=1

node scripts/test-summary.mjs "$OUT/vitest.json" "$OUT/playwright.json" "$OUT/bench-gate.json" || status=1
exit $status
