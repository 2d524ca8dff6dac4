# shellcheck shell=bash
# Common helpers for the tools/ scripts.  Source it; do not run it.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}

# The kernel axis: KERNEL=6.12 (Debian stable's, linux-source-6.12 from the
# machine's own suites) or KERNEL=7.2 (Debian's newest, linux-source-7.2 from
# unstable, fetched by tools/deps into build/debs without installing it).  Each
# has its own tree, objects and logs (KBUILD: build/ for 6.12, where they have
# always been, build/7.2/ for 7.2) and its own patches (PATCHES: patches/ for
# 6.12, patches/7.2/ for 7.2, each with its series file); the guest image is
# shared.
KERNELS="6.12 7.2"
# set_kernel K: KERNEL=K (exported, for tools/vm) and its paths
set_kernel() {
	case " $KERNELS " in *" $1 "*) ;; *) printf 'error: KERNEL=%s: one of %s\n' "$1" "$KERNELS" >&2; exit 1 ;; esac
	export KERNEL=$1
	if [ "$KERNEL" = 6.12 ]; then KBUILD=$BUILD PATCHES=$TOP/patches
	else KBUILD=$BUILD/$KERNEL PATCHES=$TOP/patches/$KERNEL; fi
	# shellcheck disable=SC2034 # used by the scripts that source this file
	KSRC=$KBUILD/linux KOBJ=$KBUILD/obj LOGS=$KBUILD/logs SERIES_FILE=$PATCHES/series
}
set_kernel "${KERNEL:-6.12}"
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/pmem-memmap-ccache}
# paths relative to the clone, so that every clone shares the cache
export CCACHE_BASEDIR=$TOP

say() { printf '>> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# to_bytes SIZE: SIZE (a number with an optional K/M/G/T suffix, binary) in bytes
to_bytes() {
	local n=${1%[KkMmGgTt]} unit=${1##*[0-9]}
	[[ $n =~ ^[0-9]+$ ]] || die "bad size '$1'"
	case $unit in
	"") echo "$n" ;; [Kk]) echo $((n << 10)) ;; [Mm]) echo $((n << 20)) ;;
	[Gg]) echo $((n << 30)) ;; [Tt]) echo $((n << 40)) ;;
	esac
}

# series_patches [SERIES/]: the patches of patches/series in order, one path per line
# relative to patches/ ('#' comments and blank lines dropped); only SERIES's if given.
# shellcheck disable=SC2120 # SERIES is optional
series_patches() {
	[ -f "$SERIES_FILE" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$SERIES_FILE" | grep "^${1:-}" || true
}

# kernel_deb: the linux-source .deb tools/deps fetches for a KERNEL that the
# machine's suites do not have (none for 6.12)
kernel_deb() {
	local deb
	[ "$KERNEL" != 6.12 ] || return 0
	for deb in "$BUILD"/debs/linux-source-"$KERNEL"_*_all.deb; do :; done
	[ -f "$deb" ] && echo "$deb"
}
# kernel_tarball: the Debian kernel source of KERNEL
kernel_tarball() {
	if [ "$KERNEL" = 6.12 ]; then echo /usr/src/linux-source-6.12.tar.xz
	else echo "$BUILD/debs/linux-source-$KERNEL/usr/src/linux-source-$KERNEL.tar.xz"; fi
}
# kernel_source_version: the Debian version of that source
kernel_source_version() {
	if [ "$KERNEL" = 6.12 ]; then dpkg-query -W -f='${Version}\n' linux-source-6.12
	else dpkg-deb -f "$(kernel_deb)" Version; fi
}

# series_stamp: what build/linux is extracted from (the Debian source, every patch
# of patches/series); tools/build-kernel re-extracts build/linux when it changes.
# The numbers tools/render-docs renders into a changelog are not part of it: a new
# bench record changes no commit that matters to the build.
series_stamp() {
	kernel_source_version
	echo "pristine commit: dated by the tarball"
	series_patches | while read -r p; do
		[ -f "$PATCHES/$p" ] || die "${SERIES_FILE#"$TOP"/} names missing ${PATCHES#"$TOP"/}/$p"
		printf '%s %s\n' "$p" "$(sed '/^<!-- bench: /,/^<!-- \/bench -->$/{/^<!-- /!d}' \
			"$PATCHES/$p" | sha256sum)"
	done
}

# mark_exported: build/linux at HEAD is what patches/ says (just extracted from it,
# or just exported into it by tools/series-export)
mark_exported() {
	series_stamp > "$KBUILD/linux.stamp"
	git -C "$KSRC" rev-parse HEAD > "$KBUILD/linux.exported"
}

# unexported_work: what build/linux has that patches/ may not (HEAD moved since it was
# last extracted or exported, changed or new files), empty if nothing
unexported_work() {
	local head
	[ -d "$KSRC/.git" ] && head=$(cat "$KBUILD/linux.exported" 2>/dev/null) || return 0
	[ "$(git -C "$KSRC" rev-parse HEAD)" = "$head" ] ||
		echo "HEAD is $(git -C "$KSRC" log -1 --format='%h %s'), exported was ${head:0:12}"
	git -C "$KSRC" status --porcelain | head -n 5
}

# Kernel builds take both cores: one at a time, whoever starts them.
kbuild_lock() {
	mkdir -p "$BUILD"
	exec 9> "$BUILD/.kbuild.lock"
	flock -n 9 || { say "waiting for another kernel build to finish"; flock 9; }
}

# configure_tree SRC OBJ FRAGMENT...: OBJ/.config = tinyconfig of the tree SRC plus
# the fragments (scripts/kconfig/merge_config.sh); fails, naming the option, when a
# value a fragment asks for did not survive Kconfig (a dependency is missing).
configure_tree() {
	local src=$1 obj=$2 frag line sym
	shift 2
	mkdir -p "$obj"
	make -s -C "$src" O="$obj" ARCH=x86_64 tinyconfig >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$@" >/dev/null
	make -s -C "$src" O="$obj" ARCH=x86_64 olddefconfig >/dev/null
	for frag; do
		while read -r line; do
			case $line in
			CONFIG_*=*)
				grep -qxF -- "$line" "$obj/.config" ||
					die "$line (from ${frag#"$TOP"/}) is not set in the final .config: a dependency is missing" ;;
			"# CONFIG_"*" is not set")
				sym=${line#\# }; sym=${sym%% *}
				! grep -q "^$sym=" "$obj/.config" ||
					die "$sym (from ${frag#"$TOP"/}) should be unset but is $(grep "^$sym=" "$obj/.config")" ;;
			esac
		done < "$frag"
	done
}

# build_commit NAME COMMIT FRAGMENT...: build/linux at COMMIT, checked out in the
# worktree build/NAME-tree, built into build/obj/NAME (tinyconfig plus the
# fragments, as configure_tree does), unless build/obj/NAME holds a bzImage of
# that commit's tree and fragments (build/obj/NAME/commit: re-extracting
# build/linux makes new commits of the same trees)
build_commit() {
	local name=$1 commit obj=$KOBJ/$1 tree=$KBUILD/$1-tree stamp
	commit=$(git -C "$KSRC" rev-parse --verify -q "$2^{commit}") || die "no commit $2 in build/linux"
	shift 2
	stamp=$( (git -C "$KSRC" rev-parse "$commit^{tree}"; cat "$@") | sha256sum)
	[ "$(cat "$obj/commit" 2>/dev/null)" = "$stamp" ] && [ -f "$obj/arch/x86/boot/bzImage" ] &&
		return 0
	kbuild_lock
	rm -rf "$tree"
	git -C "$KSRC" worktree prune
	git -C "$KSRC" worktree add -q --detach "$tree" "$commit"
	say "building $name ($(git -C "$KSRC" log -1 --format=%s "$commit")) into ${obj#"$TOP"/}"
	configure_tree "$tree" "$obj" "$@"
	make -s -C "$tree" O="$obj" ARCH=x86_64 -j"$(nproc)" CC="ccache gcc" bzImage
	echo "$stamp" > "$obj/commit"
}
