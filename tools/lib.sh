# shellcheck shell=bash
# Common helpers for the tools/ scripts.  Source it; do not run it.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
# shellcheck disable=SC2034 # used by the scripts that source this file
KSRC=$BUILD/linux
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/pmem-memmap-ccache}
# paths relative to the clone, so that every clone shares the cache
export CCACHE_BASEDIR=$TOP

say() { printf '>> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Kernel builds take both cores: one at a time, whoever starts them.
kbuild_lock() {
	mkdir -p "$BUILD"
	exec 9> "$BUILD/.kbuild.lock"
	flock -n 9 || { say "waiting for another kernel build to finish"; flock 9; }
}
