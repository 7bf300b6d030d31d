#!/bin/sh
# The local stand-in for the nginx image's entrypoint (deploy/local-base/build), for what
# compose.yaml uses of it, in the same order: the executable /docker-entrypoint.d/*.envsh files
# are sourced (their exports fill templates) and *.sh files run; then each
# /etc/nginx/templates/NAME.template becomes /etc/nginx/conf.d/NAME with the environment's
# ${VARIABLES} filled in (only those that are set, so nginx's own $variables are left alone).
set -eu
if [ "${1:-}" = nginx ]; then
    for script in /docker-entrypoint.d/*; do
        [ -f "$script" ] && [ -x "$script" ] || continue
        case $script in
            *.envsh) . "$script" ;;
            *.sh) "$script" ;;
        esac
    done
    defined=$(env | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)=.*/${\1}/p' | tr '\n' ' ')
    for template in /etc/nginx/templates/*.template; do
        [ -f "$template" ] || continue
        envsubst "$defined" < "$template" > "/etc/nginx/conf.d/$(basename "$template" .template)"
    done
fi
exec "$@"
