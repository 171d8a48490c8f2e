# Shared by the scripts in this folder; each sources it first:
#   source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# It sets root (the repository) and me (the name messages start with: scripts/NAME unless set before),
# and defines fail, install_packages, require_command, jar_is_stale and build_if_stale.

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
me="${me:-scripts/$(basename "$0")}"

# fail MESSAGE...: says what went wrong on stderr and stops.
fail() {
  echo "$me: $*" >&2
  exit 1
}

# install_packages WHAT PACKAGE...: installs Debian packages with apt-get (as root, or through sudo), or
# fails saying what is missing and how to install it by hand. Never skips. apt-get's output goes to
# stderr, so stdout carries only what the script itself prints.
install_packages() {
  local what="$1"
  shift
  echo "$me: $what not found, installing $* with apt-get" >&2
  command -v apt-get >/dev/null 2>&1 \
    || fail "$what is missing and apt-get is not available (install $*, then run again)"
  local sudo=()
  if [[ "$(id -u)" -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 \
      || fail "$what is missing and cannot be installed: not root and no sudo (install $*, then run again)"
    sudo=(sudo)
  fi
  "${sudo[@]}" apt-get update >&2 || fail "apt-get update failed; $* not installed"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "$@" >&2 || fail "apt-get install $* failed"
}

# require_command COMMAND PACKAGE: installs PACKAGE when COMMAND is not on the PATH, then checks it is.
require_command() {
  command -v "$1" >/dev/null 2>&1 || install_packages "$1" "$2"
  command -v "$1" >/dev/null 2>&1 || fail "$1 is still not on the PATH after installing $2"
}

# jar_is_stale JAR: true when JAR is missing or older than any main source or pom of the repository.
jar_is_stale() {
  [[ ! -f "$1" ]] && return 0
  [[ -n "$(find "$root" \( -name .git -o -name target -o -name node_modules \) -prune -o \
      -type f \( -path '*/src/main/*' -o -name pom.xml \) -newer "$1" -print -quit)" ]]
}

# build_if_stale JAR MODULE WHAT: packages MODULE (and the modules it needs; tests compiled, not run)
# with the repository's ./mvnw when JAR is stale, saying it builds WHAT. Maven's output goes to stderr.
build_if_stale() {
  if jar_is_stale "$1"; then
    echo "$me: building $3 (${1#"$root"/})..." >&2
    "$root/mvnw" -q -B -f "$root/pom.xml" -pl "$2" -am -DskipTests package >&2
  fi
}
