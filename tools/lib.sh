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

# series_patches [SERIES/]: the patches of patches/series in order, one path per line
# relative to patches/ ('#' comments and blank lines dropped); only SERIES's if given.
# shellcheck disable=SC2120 # SERIES is optional
series_patches() {
	[ -f "$TOP/patches/series" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$TOP/patches/series" | grep "^${1:-}" || true
}

# Kernel builds take both cores: one at a time, whoever starts them.
kbuild_lock() {
	mkdir -p "$BUILD"
	exec 9> "$BUILD/.kbuild.lock"
	flock -n 9 || { say "waiting for another kernel build to finish"; flock 9; }
}
