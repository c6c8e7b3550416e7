#!/usr/bin/env bash
# Lighthouse (npm) against Debian's Chromium on the real server with a fresh
# database: performance, accessibility and best-practices scores of the page,
# desktop and mobile.  Run by hand:  bash benchmarks/lighthouse.sh
# Lighthouse is installed into .venv/npm on first use (nothing to commit).
set -euo pipefail
cd "$(dirname "$0")/.."
LH=.venv/npm/node_modules/.bin/lighthouse
if [ ! -x "$LH" ]; then
    echo "Installing lighthouse (npm) into .venv/npm..."
    npm install --no-save --no-package-lock --no-audit --no-fund --silent --prefix .venv/npm lighthouse
fi
tmp=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$tmp"' EXIT
.venv/bin/pyramide serve --port 0 --db "$tmp/lh.sqlite3" --no-browser >"$tmp/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$tmp/server.log" || true)
    [ -n "$url" ] && break
    sleep 0.2
done
[ -n "$url" ] || { cat "$tmp/server.log"; exit 1; }
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
for form in desktop mobile; do
    preset=""
    [ "$form" = desktop ] && preset="--preset=desktop"
    "$LH" "${url}?deal=PY1-N-AAAAAAS" $preset --quiet --output=json --output-path="$tmp/$form.json" \
        --only-categories=performance,accessibility,best-practices \
        --chrome-flags="--headless --no-sandbox --disable-gpu --no-first-run" >/dev/null 2>&1 || true
    .venv/bin/python - "$tmp/$form.json" "$form" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
scores = {k: round(v["score"] * 100) if v["score"] is not None else None
          for k, v in report["categories"].items()}
audits = report["audits"]
print(f"{sys.argv[2]:8} performance {scores['performance']}  accessibility {scores['accessibility']}"
      f"  best-practices {scores['best-practices']}"
      f"  (FCP {audits['first-contentful-paint']['displayValue']},"
      f" LCP {audits['largest-contentful-paint']['displayValue']},"
      f" TBT {audits['total-blocking-time']['displayValue']},"
      f" CLS {audits['cumulative-layout-shift']['displayValue']})")
for key, cat in report["categories"].items():
    for ref in cat["auditRefs"]:
        a = audits[ref["id"]]
        if ref.get("weight") and a.get("score") is not None and a["score"] < 0.9:
            print(f"    {key}: {a['id']} {a['score']} {a.get('displayValue', '')}")
PY
done
