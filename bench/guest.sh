# shellcheck shell=sh
# Guest side of bench/run (busybox sh): the helpers every stage's guest side
# uses, then the stage's own, bench/stages/STAGE/guest.sh, which defines
# stage_guest:
#   sh guest.sh STAGE ARGS...     (ARGS: what bench/stages/STAGE/host.sh passes)
# Output, one line each:
#   P TEXT                                     progress
#   R APPROACH MEASURE SIZE VALUE UNIT         one measured value (one repetition)
#   U APPROACH MEASURE SIZE STATUS MESSAGE...  not measured: unsupported (MESSAGE is
#                                              the error the approach got), skipped
#   I KEY VALUE...                             information (kernel, counters)
# APPROACH number i uses the NVDIMM of QEMU slot i.
# APPROACH: a name in bench/approaches, which says its namespace and policy.
# shellcheck source=../guest/lib/pmem.sh
. /usr/share/pmem-tests/lib/pmem.sh
BENCH_DIR=/usr/share/pmem-tests/bench
# shellcheck source=approaches.sh
. "$BENCH_DIR/approaches.sh"

stage=${1:-}
[ -f "$BENCH_DIR/stages/$stage/guest.sh" ] || {
	echo "usage: guest.sh STAGE ARGS... (STAGE: a directory of $BENCH_DIR/stages with a guest.sh)" >&2
	exit 2
}
shift

up() { cut -d' ' -f1 /proc/uptime; }
# elapsed T0 T1: seconds between two /proc/uptime readings
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
rec() { echo "R $*"; }
unsup() { echo "U $1 $2 $3 unsupported $(echo "$4" | tr '\n' ' ' | cut -c1-200)"; }
progress() { echo "P $*"; }
# the value after KEY= in the output of our helpers
field() { sed -n "s/.*$1=\\([0-9.]*\\).*/\\1/p" | tail -n 1; }
# sum A B: A + B, 6 decimals
sum() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", a + b }'; }

# In-kernel fault time.  Under TCG a touch pass is mostly emulation of the
# user-space loads, so the touches also record the kernel's own time of their
# faults: handle_mm_fault() with everything it calls (graph-time), summed over
# the CPUs, from the function profiler, which dax-touch -P switches on for its
# touch passes only.  prof holds the dax-touch option, empty without profiler.
TRACING=/sys/kernel/tracing
prof=''
# prof_setup FUNCTION...: profile these functions
prof_setup() {
	[ -e $TRACING/function_profile_enabled ] || mount -t tracefs nodev $TRACING 2>/dev/null || true
	[ -e $TRACING/function_profile_enabled ] || return 0
	echo "$*" > $TRACING/set_ftrace_filter || return 0
	echo 1 > $TRACING/options/graph-time || return 0
	prof="-P $TRACING/function_profile_enabled"
}
# prof_read: "CALLS SECONDS" of handle_mm_fault() in the last profile; fails
# if it has no calls (a touch pass always faults)
prof_read() {
	cat $TRACING/trace_stat/function* |
		awk '$1 == "handle_mm_fault" { n += $2; t += $3 }
			END { if (!n) exit 1; printf "%d %.6f\n", n, t / 1e6 }'
}

# touch_rec A MEASURE ENABLE_S DAX-TOUCH-ARGS...: run dax-touch for approach A
# at size and record the wall time of its touch passes as MEASURE (NAME_s),
# the kernel's time of their faults as NAME_kernel_s and their number as
# NAME_faults; unless ENABLE_S is -, also the enable + touch sums of both
# times (the measures named with _enable_touch_ for _touch_).  Fails, the
# error recorded, if dax-touch does.
touch_rec() {
	ta=$1 tm=$2 ten=$3
	shift 3
	# shellcheck disable=SC2086 # zero or two words
	if ! out=$(dax-touch $prof "$@" 2>&1); then
		unsup "$ta" "$tm" "$size" "dax-touch: $out"
		return 1
	fi
	t=$(echo "$out" | field seconds)
	rec "$ta" "$tm" "$size" "$t" s
	etm=$(echo "$tm" | sed 's/_touch_/_enable_touch_/')
	[ "$ten" = - ] || rec "$ta" "$etm" "$size" "$(sum "$ten" "$t")" s
	[ -n "$prof" ] || return 0
	if ! pr=$(prof_read); then
		unsup "$ta" "${tm%_s}_kernel_s" "$size" "no handle_mm_fault() calls in $TRACING/trace_stat"
		return 0
	fi
	# shellcheck disable=SC2086 # two words
	set -- $pr
	rec "$ta" "${tm%_s}_kernel_s" "$size" "$2" s
	rec "$ta" "${tm%_s}_faults" "$size" "$1" n
	[ "$ten" = - ] || rec "$ta" "${etm%_s}_kernel_s" "$size" "$(sum "$ten" "$2")" s
}

# region_reset R: remove the namespaces of region R only (labels stay valid)
region_reset() { ndctl destroy-namespace -f -r "region$1" all >/dev/null 2>&1; }

# set_policy APPROACH: its memmap policy for the next enables
set_policy() { memmap_policy "$(approach_field "$1" memmap_init)"; }
# bound_dev BLOCKDEV: the nd device nd_pmem is bound to (pfnR.N or namespaceR.N)
bound_dev() { basename "$(readlink -f "/sys/block/$1/device")"; }

# rebind DRIVER DEV: unbind DEV, bind it again timing the bind write (the
# kernel-side enable time); prints the seconds, or fails with the error
rebind() {
	echo "$2" > "/sys/bus/nd/drivers/$1/unbind" || { echo "unbind failed"; return 1; }
	timed-write "/sys/bus/nd/drivers/$1/bind" "$2" > /tmp/tw.out 2>&1 ||
		{ cat /tmp/tw.out; return 1; }
	field seconds < /tmp/tw.out
}

# wait_complete DEV: wait (up to 600 s) until the memmap of DEV is complete
wait_complete() {
	for _ in $(seq 6000); do
		[ "$(memmap_attr "$1" complete)" = 1 ] && return 0
		sleep 0.1
	done
	return 1
}

# approach_slots APPROACH...: APPROACH=REGION words, REGION that of the NVDIMM in
# QEMU slot i for approach number i
approach_slots() {
	i=0
	for a; do
		echo "$a=$(region_of_slot $i)"
		i=$((i + 1))
	done
}

# each_approach FN REPS APPROACH...: from empty regions, run FN once per APPROACH
# with a (the approach), r (the region of its NVDIMM slot), size (the region's) and
# reps set, and the approach's memmap policy in force; then back to lazy
each_approach() {
	fn=$1 reps=$2
	shift 2
	pmem_reset
	for slot in $(approach_slots "$@"); do
		a=${slot%%=*} r=${slot#*=}
		size=$(( $(cat "/sys/bus/nd/devices/region$r/size") ))
		set_policy "$a"
		"$fn"
	done
	memmap_policy lazy
}

# rotate K WORD...: the words, starting at word K mod their number
rotate() {
	k=$(($1 % ($# - 1)))
	shift
	i=0 head='' tail=''
	for w; do
		if [ $i -lt $k ]; then tail="$tail $w"; else head="$head $w"; fi
		i=$((i + 1))
	done
	# shellcheck disable=SC2086 # word lists
	echo $head $tail
}

# First touches compare a fresh enable and its touches on pmem the guest has
# written before, as real pmem has no first write: the namespace is created
# with the eager policy, which writes its whole memmap, and then enabled again
# with the approach's policy, timed.  Under QEMU the first write of a page of
# guest memory goes through a slow path (host page allocation, TCG's dirty
# tracking) that would otherwise land in lazy's timed faults only.

# touch_devdax APPROACH R SIZE ALIGN TAG: fresh devdax namespace, rebind (kernel
# enable time), then read-touch every page of /dev/daxR.0 with ALIGN mappings
touch_devdax() {
	a=$1 r=$2 size=$3 align=$4 tag=$5
	region_reset "$r"
	memmap_policy eager
	# shellcheck disable=SC2046 # word list of ndctl options
	if ! js=$(ndctl create-namespace $(approach_ns_args "$a" devdax) -a "$align" -r "region$r" 2>&1); then
		set_policy "$a"
		unsup "$a" "devdax_touch_${tag}_s" "$size" "ndctl create-namespace -m devdax: $js"
		return 1
	fi
	set_policy "$a"
	dax=$(echo "$js" | jq -r '.daxregion.devices[0].chardev')
	# the nd device dax_pmem binds: daxR.N, the only one of region R
	nd=
	for d in /sys/bus/nd/drivers/dax_pmem/dax"$r".*; do nd=${d##*/}; done
	if ! s=$(rebind dax_pmem "$nd" 2>&1); then
		unsup "$a" "devdax_touch_${tag}_s" "$size" "rebind $nd: $s"
		return 1
	fi
	for _ in $(seq 50); do [ -c "/dev/$dax" ] && break; sleep 0.1; done
	touch_rec "$a" "devdax_touch_${tag}_s" "$s" -a "$align" "/dev/$dax"
}

# fsdax_file A R MNT: a fresh fsdax namespace of approach A on region R, with
# an ext4 file MNT/f of 3/4 of it, written (not unwritten: the touches then
# fault in pmem pages, not zero them), and MNT/buf of 4 MiB, left mounted at
# MNT; sets blk (its block device) and fsize.  Fails with fs_err set, and blk
# empty if there is no namespace.
fsdax_file() {
	fs_err='' blk=''
	# shellcheck disable=SC2046 # word list of ndctl options
	js=$(ndctl create-namespace $(approach_ns_args "$1" fsdax) -r "region$2" 2>&1) ||
		{ fs_err="ndctl create-namespace: $js"; return 1; }
	blk=$(echo "$js" | jq -r .blockdev)
	mkdir -p "$3"
	mkfs.ext4 -q -F -b 4096 "/dev/$blk" >/dev/null 2>&1
	err=$(mount -o dax "/dev/$blk" "$3" 2>&1) || {
		fs_err="mount -o dax: ${err:-failed}; kernel: $(dmesg | tail -n 1 | sed 's/^\[[^]]*\] //')"
		return 1
	}
	fsize=$(( size * 3 / 4 >> 21 << 21 ))
	dd if=/dev/zero of="$3/f" bs=2M count=$((fsize >> 21)) 2>/dev/null
	dd if=/dev/zero of="$3/buf" bs=1M count=4 2>/dev/null
	sync
}

# first_touches REPS APPROACH...: the first touches of every approach, each on
# the region of its slot: device-dax with 4 KiB and 2 MiB mappings, then the
# DAX file.  Repetitions are interleaved between the approaches, in an order
# rotated by one per repetition (as refault does), so that drift under TCG
# spreads evenly over them.  Leaves each approach's fsdax namespace in place,
# its file unmounted, and sets namespaces to APPROACH=BLOCKDEV words (those
# with a DAX file) and nodax to those of fsdax namespaces without DAX.
first_touches() {
	reps=$1
	shift
	pmem_reset
	slots=$(approach_slots "$@")
	size=$(( $(cat "/sys/bus/nd/devices/region${slots##*=}/size") ))
	progress "devdax first touch of $((size >> 20)) MiB, 4 KiB and 2 MiB mappings, $reps rounds of $*"
	failed=''
	for rep in $(seq "$reps"); do
		# shellcheck disable=SC2086 # word list
		for slot in $(rotate "$rep" $slots); do
			a=${slot%%=*} r=${slot#*=}
			approach_has_dax "$a" || continue
			case " $failed " in *" $a "*) continue ;; esac
			touch_devdax "$a" "$r" "$size" 4K 4k && touch_devdax "$a" "$r" "$size" 2M 2m ||
				failed="$failed $a"
		done
	done
	progress "DAX file first touch, $reps rounds of $*"
	namespaces='' nodax=''
	for slot in $slots; do
		a=${slot%%=*} r=${slot#*=}
		region_reset "$r"
		memmap_policy eager
		if fsdax_file "$a" "$r" /mnt/dax; then
			echo "I work $a fsdax_file_bytes $fsize"
			umount /mnt/dax
			namespaces="$namespaces $a=$blk"
			continue
		fi
		if [ -z "$blk" ]; then
			unsup "$a" fsdax_touch_2m_s "$size" "$fs_err"
			continue
		fi
		nodax="$nodax $a=$blk"
		for m in fsdax_touch_4k_s fsdax_touch_2m_s dio_write_MBps dio_read_MBps; do
			unsup "$a" $m "$size" "$fs_err"
		done
		# no DAX from the block device; device-dax is a mode with a memmap
		approach_has_dax "$a" ||
			for m in devdax_touch_4k_s devdax_touch_2m_s; do
				unsup "$a" $m "$size" "no /dev/daxX.Y without struct pages (devdax needs --map=mem|dev); $fs_err"
			done
	done
	for rep in $(seq "$reps"); do
		# shellcheck disable=SC2086 # word list
		for slot in $(rotate "$rep" $namespaces); do
			a=${slot%%=*} blk=${slot#*=}
			set_policy "$a"
			dev=$(bound_dev "$blk")
			for tag in 4k 2m; do
				# a fresh enable: the lazy memmap starts uninitialised
				if ! s=$(rebind nd_pmem "$dev"); then
					unsup "$a" "fsdax_touch_${tag}_s" "$size" "rebind $dev: $s"
					continue
				fi
				mount -o dax "/dev/$blk" /mnt/dax
				if [ $tag = 4k ]; then opt=-u; else opt="-a 2M"; fi
				# shellcheck disable=SC2086 # one or two words
				touch_rec "$a" "fsdax_touch_${tag}_s" "$s" $opt /mnt/dax/f || true
				umount /mnt/dax
			done
		done
	done
	memmap_policy lazy
}

# shellcheck disable=SC1090 # the stage's guest side
. "$BENCH_DIR/stages/$stage/guest.sh"
prof_setup handle_mm_fault
stage_guest "$@"
