#!/bin/sh
# Keeps the recipes of docs/deploy.md true, without root and without starting any service:
#   - every file in docs/deploy/ is quoted in docs/deploy.md exactly as it is;
#   - the systemd units (with the vdirsyncer drop-in) pass `systemd-analyze verify`;
#   - the nginx server block passes `nginx -t`.
# A tool that is not installed is reported as skipped (Debian packages: systemd, nginx).
# Usage: Tests/Deploy/check_deploy.sh   (from the repository root, or from anywhere)
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
deploy="$root/docs/deploy"
doc="$root/docs/deploy.md"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# The doc quotes each file in a fenced block right after a line `<!-- docs/deploy/NAME -->`.
for file in rolodeck.cron rolodeck.service rolodeck.timer rolodeck.service.d/vdirsyncer.conf \
    vdirsyncer.conf nginx-contacts.conf; do
    awk -v marker="<!-- docs/deploy/$file -->" '
        $0 == marker { found = 1; next }
        found == 1 && /^```/ { found = 2; next }
        found == 2 && /^```/ { exit }
        found == 2 { print }
    ' "$doc" > "$work/quoted"
    if [ ! -s "$work/quoted" ]; then
        fail "docs/deploy.md does not quote docs/deploy/$file"
    elif ! diff -u "$deploy/$file" "$work/quoted" > "$work/diff"; then
        fail "docs/deploy.md quotes docs/deploy/$file differently:"
        cat "$work/diff"
    else
        echo "ok: docs/deploy.md quotes docs/deploy/$file as it is"
    fi
done

# Runs systemd-analyze verify on the units in $1 (with drop-ins from there); prints what it
# said and returns non-zero if it said anything: systemd only warns about a misspelt setting.
verify_units() {
    SYSTEMD_UNIT_PATH="$1:" systemd-analyze verify --man=no \
        "$1/rolodeck.service" "$1/rolodeck.timer" > "$work/verify" 2>&1 || true
    cat "$work/verify"
    [ ! -s "$work/verify" ]
}

if command -v systemd-analyze > /dev/null; then
    # verify also checks that each command exists. Where rolodeck or vdirsyncer is not
    # installed at the path the units name, an executable stand-in takes its place.
    units="$work/units"
    mkdir -p "$units/rolodeck.service.d"
    cp "$deploy/rolodeck.service" "$deploy/rolodeck.timer" "$units/"
    cp "$deploy/rolodeck.service.d/vdirsyncer.conf" "$units/rolodeck.service.d/"
    for command in /usr/bin/rolodeck /usr/bin/vdirsyncer; do
        if [ ! -x "$command" ]; then
            stand_in="$work/bin/$(basename "$command")"
            mkdir -p "$work/bin"
            printf '#!/bin/sh\n' > "$stand_in"
            chmod +x "$stand_in"
            sed -i "s|$command |$stand_in |" "$units/rolodeck.service" "$units/rolodeck.service.d/vdirsyncer.conf"
            echo "note: $command is not installed; verifying with a stand-in"
        fi
    done
    if verify_units "$units"; then
        echo "ok: systemd-analyze verify rolodeck.service rolodeck.timer (with the vdirsyncer drop-in)"
    else
        fail "systemd-analyze verify found problems in docs/deploy/rolodeck.*"
    fi
    # The check itself must be able to fail: a misspelt value has to be reported.
    sed -i 's/^ProtectSystem=strict$/ProtectSystem=strictly/' "$units/rolodeck.service"
    if verify_units "$units" > /dev/null; then
        fail "systemd-analyze verify did not report a misspelt ProtectSystem; this check checks nothing"
    fi
else
    echo "skipped: systemd-analyze is not installed (Debian package systemd)"
fi

nginx=$(command -v nginx || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true)
if [ -n "$nginx" ]; then
    # The server block inside the smallest main configuration that nginx accepts, with every
    # path it writes in the scratch folder. nginx -t binds the listen addresses, so they become
    # one unprivileged port on the loopback; everything else is checked as written.
    port=$((20000 + $$ % 20000))
    sed -E -e '/^ *listen \[::\]/d' -e "s/^( *)listen .*;\$/\1listen 127.0.0.1:$port;/" \
        "$deploy/nginx-contacts.conf" > "$work/nginx-contacts.conf"
    cat > "$work/nginx.conf" <<CONF
pid $work/nginx.pid;
error_log stderr;
events {}
http {
    access_log $work/access.log;
    client_body_temp_path $work/body;
    proxy_temp_path $work/proxy;
    fastcgi_temp_path $work/fastcgi;
    uwsgi_temp_path $work/uwsgi;
    scgi_temp_path $work/scgi;
    include $work/nginx-contacts.conf;
}
CONF
    if "$nginx" -t -q -e stderr -p "$work" -c "$work/nginx.conf" > "$work/nginx" 2>&1; then
        echo "ok: nginx -t accepts docs/deploy/nginx-contacts.conf"
    else
        cat "$work/nginx"
        fail "nginx -t rejects docs/deploy/nginx-contacts.conf"
    fi
else
    echo "skipped: nginx is not installed (Debian package nginx)"
fi

if [ "$failures" -gt 0 ]; then
    echo "$failures problem(s) in the deploy recipes"
    exit 1
fi
