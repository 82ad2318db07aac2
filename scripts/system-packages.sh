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

# Installs npm dependencies when package-lock.json changed since the last install.
ensure_npm_dependencies() {
  local stamp="node_modules/.vw-install-stamp"
  if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
    echo "› installing npm dependencies"
    # Not `npm ci`: the registry reachable here lacks some other-platform optional packages
    # (e.g. Biome's Windows/macOS binaries), which `npm ci` refuses while `npm install` skips them.
    npm install --loglevel=error --no-audit --no-fund
    touch "$stamp"
  fi
}
