# need_debian_package COMMAND PACKAGE WHO: installs Debian's PACKAGE when COMMAND is missing (as
# root), or stops, telling how, for WHO ("the benchmark") that needs it.
need_debian_package() {
  command -v "$1" >/dev/null && return 0
  if [[ $(id -u) -eq 0 ]]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2"
  else
    echo "error: $3 needs $1. Run as root: apt-get install -y $2" >&2
    exit 1
  fi
}
