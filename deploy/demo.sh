#!/usr/bin/env bash
# The deployment of docs/deploy.md started for real on one machine: a PostgreSQL
# server, two app hosts (`pyramide serve --workers 2` on two ports) and nginx
# balancing them; then players play through nginx and the script shows which app
# host answered. Everything runs under a temporary directory and stops at the end.
#   bash deploy/demo.sh            (needs scripts/setup.sh --test and Debian's nginx)
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d /tmp/pyramide-demo.XXXXXX)
chmod 755 "$work"
base=$((20000 + RANDOM % 9000))
lb=$base; app1=$((base + 1)); app2=$((base + 2))
pids=()
cleanup() {
    [ -f "$work/nginx.pid" ] && nginx -p "$work" -c "$work/nginx.conf" -s stop 2>/dev/null || true
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
export PYRAMIDE_SECRET
PYRAMIDE_SECRET=$(python3 -c 'import secrets; print(secrets.token_hex(32))')

echo "== PostgreSQL (initdb + pg_ctl in a temporary directory)"
.venv/bin/python -u -m tests.postgres > "$work/pg.url" & pids+=($!)
until [ -s "$work/pg.url" ]; do sleep 0.5; done
db=$(head -1 "$work/pg.url")
echo "   $db"

echo "== two app hosts, two workers each"
for port in $app1 $app2; do
    .venv/bin/pyramide serve --db "$db" --host 127.0.0.1 --port "$port" --workers 2 \
        --no-browser > "$work/app-$port.log" 2>&1 & pids+=($!)
done
for port in $app1 $app2; do
    until grep -q "running at" "$work/app-$port.log"; do sleep 0.5; done
    until curl -sf "http://127.0.0.1:$port/api/rules" >/dev/null; do sleep 0.5; done
    grep "running at" "$work/app-$port.log" | sed 's/^/   /'
done

echo "== nginx on 127.0.0.1:$lb (deploy/nginx.conf's upstream, without TLS)"
cat > "$work/nginx.conf" <<CONF
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events {}
http {
    access_log $work/access.log combined;
    log_format upstream '\$upstream_addr \$status \$request';
    client_body_temp_path $work; proxy_temp_path $work;
    fastcgi_temp_path $work; uwsgi_temp_path $work; scgi_temp_path $work;
    upstream pyramide {
        least_conn;
        server 127.0.0.1:$app1 max_fails=3 fail_timeout=5s;
        server 127.0.0.1:$app2 max_fails=3 fail_timeout=5s;
        keepalive 32;
    }
    server {
        listen 127.0.0.1:$lb;
        client_max_body_size 64k;
        access_log $work/upstream.log upstream;
        location / {
            proxy_pass http://pyramide;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$host;
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto \$scheme;
            proxy_next_upstream error timeout;
        }
    }
}
CONF
nginx -p "$work" -c "$work/nginx.conf"

echo "== three players, 40 actions each, through nginx"
.venv/bin/python - "$lb" <<'PY'
import random, sys
from tests.web.remote import Remote, random_action
url = f"http://127.0.0.1:{sys.argv[1]}"
for seed in range(3):
    player, rng = Remote(url), random.Random(seed)
    status, state = player.call("/api/games", {"random": True})
    assert status == 201, (status, state)
    codes = {}
    for _ in range(40):
        kind, card = random_action(state, rng)
        status, answer = player.act(state, kind, card)
        codes[status] = codes.get(status, 0) + 1
        state = answer if status == 200 else player.call(f"/api/games/{state['id']}")[1]
    others = Remote(url).call(f"/api/games/{state['id']}")[0]
    print(f"   player {seed + 1}: game {state['id']} at version {state['version']}, "
          f"answers {codes}, another player gets {others}")
PY
echo "== requests per app host (nginx's log)"
cut -d' ' -f1 "$work/upstream.log" | sort | uniq -c | sed 's/^/  /'
