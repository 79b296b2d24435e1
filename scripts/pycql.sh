#!/usr/bin/env bash
# scripts/pycql.sh [SCRIPT.py ARGS...]
#
# An independent CQL client for checking what the cql3 adapter wrote: the DataStax Python
# driver (PyPI package cassandra-driver) in a virtualenv of its own. The first call creates the
# venv and installs the driver (pure Python, no C extensions: quick, and nothing to compile);
# later calls reuse it. With a script, runs it with the venv's python; without, only installs.
#
# Environment knobs (defaults in brackets):
#   TWISSANDRA_PYENV            venv directory          [$HOME/.cache/twissandra/pyenv]
#   TWISSANDRA_PY_DRIVER        pip requirement         [cassandra-driver==3.29.2]
#   PYTHON                      python 3 interpreter    [python3]
set -euo pipefail

PYENV=${TWISSANDRA_PYENV:-$HOME/.cache/twissandra/pyenv}
REQ=${TWISSANDRA_PY_DRIVER:-cassandra-driver==3.29.2}
PYTHON=${PYTHON:-python3}

log() { printf 'pycql: %s\n' "$*" >&2; }

installed() { [[ -x "$PYENV/bin/python" && -f "$PYENV/.complete" ]] && [[ "$(<"$PYENV/.complete")" == "$REQ" ]]; }

install() {
	installed && return 0
	mkdir -p "$(dirname "$PYENV")"
	exec 8>"$PYENV.lock"
	flock -w 600 8 || { log "timed out waiting for another install into $PYENV"; exit 1; }
	if installed; then exec 8>&-; return 0; fi
	command -v "$PYTHON" >/dev/null || { log "$PYTHON not found"; exit 1; }
	local t0=$SECONDS
	log "creating $PYENV and installing $REQ"
	rm -rf "$PYENV"
	"$PYTHON" -m venv "$PYENV"
	# No Cython, no libev: the pure-Python driver with its asyncio/asyncore reactor suffices
	# for a few reads, and installs in seconds instead of compiling for minutes.
	CASS_DRIVER_NO_CYTHON=1 CASS_DRIVER_NO_EXTENSIONS=1 \
		"$PYENV/bin/python" -m pip install --quiet --disable-pip-version-check "$REQ" >&2
	"$PYENV/bin/python" -c 'import cassandra; print("cassandra-driver", cassandra.__version__)' >&2
	echo "$REQ" >"$PYENV/.complete"
	log "installed in $((SECONDS - t0)) s"
	exec 8>&-
}

install
if (($#)); then
	exec "$PYENV/bin/python" "$@"
fi
