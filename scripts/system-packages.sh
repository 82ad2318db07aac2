# Sourced: installs the Debian packages the product and its tests need, when they are missing.
# As root it installs them; otherwise it prints the exact apt line and stops.
ensure_debian_packages() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "Missing Debian packages. Run:  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    return 1
  fi
  echo "› installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Installs npm dependencies when package-lock.json changed since the last install: exactly what the
# lock says (`npm ci`, which never rewrites it). If this registry cannot give every locked package,
# `npm install` stands in, and the clean-clone check below says whether it changed the lock.
ensure_npm_dependencies() {
  local stamp="node_modules/.vw-install-stamp"
  if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
    echo "› installing npm dependencies (npm ci)"
    if ! npm ci --loglevel=error --no-audit --no-fund; then
      echo "npm ci failed (see above: a package of package-lock.json this registry does not offer?);" >&2
      echo "falling back to npm install, which may add entries to package-lock.json" >&2
      npm install --loglevel=error --no-audit --no-fund
    fi
    touch "$stamp"
  fi
}

# Fails when the install changed a tracked file (e.g. npm rewrote package-lock.json), so a fresh
# clone stays clean. Takes what `git status` said about tracked files before the install.
ensure_clone_unchanged() {
  local before="$1" after
  git rev-parse --is-inside-work-tree >/dev/null 2>&1 || return 0
  after="$(git status --porcelain --untracked-files=no)"
  if [ "$before" != "$after" ]; then
    echo "The install changed tracked files of the clone:" >&2
    diff <(echo "$before") <(echo "$after") >&2 || true
    echo "Commit a package-lock.json that npm ci accepts as it is (run npm install, commit the lock)." >&2
    return 1
  fi
}
