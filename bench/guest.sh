# shellcheck shell=sh
# Guest side of bench/run (busybox sh).  Output, one line each:
#   P TEXT                                     progress
#   R APPROACH MEASURE SIZE VALUE UNIT         one measured value (one repetition)
#   U APPROACH MEASURE SIZE STATUS MESSAGE...  not measured: unsupported (MESSAGE is
#                                              the error the approach got), skipped
#   I KEY VALUE...                             information (kernel, counters)
#
#   sh guest.sh main REPS APPROACH...   enable time and memory at the NVDIMM size:
#                                       and the memset reference
#   sh guest.sh boot APPROACH           after a boot onto a configured namespace
#   sh guest.sh work REPS APPROACH...   first touch, O_DIRECT from DAX, dm-writecache
#   sh guest.sh touch REPS APPROACH...  first touch only
#   sh guest.sh refault ROUNDS APPROACH...
#                                       the touches again once the struct pages are
#                                       initialised, approaches interleaved
#   sh guest.sh fault-profile ROUNDS    bench/fault-profile: lazy against eager,
#                                       function by function
#   sh guest.sh memmap-bytes CELL...    bench/memmap-bytes: where the memmap of
#                                       devdax namespaces is, for the host to count
# APPROACH number i uses the NVDIMM of QEMU slot i.
# APPROACH: a name in bench/approaches, which says its namespace and policy.
# shellcheck source=../guest/lib/pmem.sh
. /usr/share/pmem-tests/lib/pmem.sh
BENCH_DIR=/usr/share/pmem-tests/bench
# shellcheck source=approaches.sh
. "$BENCH_DIR/approaches.sh"

mode=$1
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
# prof_setup [FUNCTION...]: profile these functions, by default handle_mm_fault()
prof_setup() {
	[ -e $TRACING/function_profile_enabled ] || mount -t tracefs nodev $TRACING 2>/dev/null || true
	[ -e $TRACING/function_profile_enabled ] || return 0
	echo "${*:-handle_mm_fault}" > $TRACING/set_ftrace_filter || return 0
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

# main_one: enable time and memory of approach a on region r (each_approach)
main_one() {
	progress "$a: enable a namespace filling region$r ($((size >> 30)) GiB), $reps repetitions"
	for rep in $(seq "$reps"); do
		region_reset "$r"
		free0=$(mem_free_kb) pages0=$(vmstat nr_memmap_pages)
		t0=$(up)
		# shellcheck disable=SC2046 # word list of ndctl options
		if ! js=$(ndctl create-namespace $(approach_ns_args "$a" fsdax) -r "region$r" 2>/tmp/ndctl.err); then
			unsup "$a" enable_wall_s "$size" "ndctl create-namespace: $(cat /tmp/ndctl.err)"
			break
		fi
		t1=$(up)
		rec "$a" enable_wall_s "$size" "$(elapsed "$t0" "$t1")" s
		blk=$(echo "$js" | jq -r .blockdev)
		ns=$(echo "$js" | jq -r .dev)
		dev=$(bound_dev "$blk")
		if [ "$rep" = "$reps" ]; then
			# memory, from the last repetition, before the rebind
			rec "$a" dram_used_bytes "$size" $(( (free0 - $(mem_free_kb)) * 1024 )) B
			rec "$a" nr_memmap_bytes "$size" $(( ($(vmstat nr_memmap_pages) - pages0) * 4096 )) B
			raw=$(cat "/sys/bus/nd/devices/$ns/size")
			usable=$(echo "$js" | jq -r .size)
			rec "$a" pmem_reserved_bytes "$size" $((raw - usable)) B
		fi
		if ! s=$(rebind nd_pmem "$dev"); then
			unsup "$a" enable_kernel_s "$size" "rebind $dev: $s"
			continue
		fi
		rec "$a" enable_kernel_s "$size" "$s" s
		if [ -e "/sys/block/$blk/memmap/total_bytes" ]; then
			rec "$a" memmap_init_at_enable_bytes "$size" "$(memmap_attr "$blk" initialized_bytes)" B
			[ "$rep" = "$reps" ] && rec "$a" memmap_total_bytes "$size" "$(memmap_attr "$blk" total_bytes)" B
		else
			[ "$rep" = "$reps" ] && rec "$a" memmap_total_bytes "$size" 0 B
		fi
		if [ "$(approach_field "$a" memmap_init)" = background ]; then
			# from the bind: time until the worker completed the memmap
			t0=$(up)
			if wait_complete "$blk"; then
				rec "$a" bg_complete_s "$size" "$(elapsed "$t0" "$(up)")" s
			else
				unsup "$a" bg_complete_s "$size" "memmap not complete after 600 s"
			fi
		fi
	done
	[ "$a" = pmem-eager ] && [ -n "${blk:-}" ] && [ -e "/sys/block/$blk/memmap/total_bytes" ] &&
		memmap_bytes=$(memmap_attr "$blk" total_bytes)
}

main() {
	each_approach main_one "$@"
	shift	# REPS
	# the host counts the bytes written into each approach's region
	i=0
	for a; do
		host_written "$i" 0 "$(slot_size "$i")" "$a"
		i=$((i + 1))
	done
	# The physical limit: memset as many bytes as eager's memmap has, in DRAM,
	# in a buffer of at most 256 MiB (the guest's RAM is small), with libc's
	# memset() and with 8-byte stores
	if [ -n "${memmap_bytes:-}" ]; then
		buf=$((256 << 20))
		[ "$memmap_bytes" -lt "$buf" ] && buf=$memmap_bytes
		bytes=$((memmap_bytes / buf * buf))
		progress "memset: $bytes bytes ($((bytes >> 20)) MiB, the memmap of $((size >> 30)) GiB), $reps repetitions"
		memset-bench -s "$bytes" -b "$buf" -n "$reps" | sed -n 's/.*rep [0-9]* seconds=//p' |
			while read -r s; do rec memset memset_memmap_s "$size" "$s" s; done
		# and in 8-byte stores, as the kernel writes struct pages
		memset-bench -w -s "$bytes" -b "$buf" -n "$reps" | sed -n 's/.*rep [0-9]* seconds=//p' |
			while read -r s; do rec memset stores_memmap_s "$size" "$s" s; done
	fi
	grep -E 'nr_memmap' /proc/vmstat | sed 's/^/I vmstat /'
}

# boot APPROACH SIZE, after booting onto a configured namespace: the uptime at
# which its block device is there (the kernel enables it asynchronously), and
# what the kernel did at boot
boot() {
	for _ in $(seq 1200); do
		ls -d /sys/block/pmem* >/dev/null 2>&1 && break
		sleep 0.1
	done
	if ls -d /sys/block/pmem* >/dev/null 2>&1; then
		rec "$1" boot_pmem_ready_s "$2" "$(up)" s
	else
		unsup "$1" boot_pmem_ready_s "$2" "no /sys/block/pmem* 120 s after boot"
	fi
	for blk in /sys/block/pmem*; do
		[ -e "$blk" ] || continue
		b=${blk##*/}
		if [ -e "$blk/memmap/total_bytes" ]; then
			echo "I boot $b policy=$(memmap_attr "$b" policy) initialized=$(memmap_attr "$b" initialized_bytes) total=$(memmap_attr "$b" total_bytes) complete=$(memmap_attr "$b" complete)"
		else
			echo "I boot $b no-memmap"
		fi
	done
	echo "I boot uptime $(up)"
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

# fio_dio APPROACH SIZE RW: O_DIRECT between /dev/disk-target and a buffer that
# is an mmap of the DAX file /mnt/dax/buf
fio_dio() {
	if ! fio --name=dio --filename=/dev/disk-target --rw="$3" --bs=1M --size=256M \
		--direct=1 --ioengine=psync --iomem=mmapshared:/mnt/dax/buf \
		--output-format=json > /tmp/fio.json 2>/tmp/fio.err; then
		unsup "$1" "dio_${3}_MBps" "$2" "fio: $(cat /tmp/fio.err)"
		return 1
	fi
	jq -r --arg a "$1" --arg s "$2" --arg rw "$3" '.jobs[0][$rw] |
		"R \($a) dio_\($rw)_MBps \($s) \(.bw_bytes / 1e6) MB/s",
		"R \($a) dio_\($rw)_p50_us \($s) \(.clat_ns.percentile["50.000000"] / 1000) us",
		"R \($a) dio_\($rw)_p99_us \($s) \(.clat_ns.percentile["99.000000"] / 1000) us"' /tmp/fio.json
}

# wc_clean_time: cleaner mode, seconds until everything is written back
wc_clean_time() {
	t0=$(up)
	dmsetup message wc 0 cleaner && wc_wait_clean >/dev/null || return 1
	elapsed "$t0" "$(up)"
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

# work_one APPROACH BLOCKDEV DAX: O_DIRECT from DAX (if DAX is yes) and
# dm-writecache on the fsdax namespace BLOCKDEV that first_touches left
work_one() {
	a=$1 blk=$2
	progress "$a: O_DIRECT from DAX (fio), dm-writecache"
	if [ "$3" = yes ]; then
		mount -o dax "/dev/$blk" /mnt/dax
		for _ in $(seq "$reps"); do
			fio_dio "$a" "$size" write || break
			fio_dio "$a" "$size" read || break
		done
		umount /mnt/dax
	fi
	# dm-writecache, pmem cache over the virtio-blk disk.  With
	# patches/pfn-io a raw namespace takes the pfn path, which is the
	# pfn row: raw stands for the stock kernel, which refuses it.
	if [ "$a" = raw ] && [ -e "/sys/block/$blk/queue/pfn_io" ]; then
		for m in wc_create_s wc_write_MBps wc_writeback_s; do
			echo "U $a $m $size skipped this kernel has patches/pfn-io, so a raw cache is the pfn row; stock 6.12 refuses it: Cache device is not a DAX device (-EOPNOTSUPP), see guest/tests/pfn-io.sh"
		done
		return 0
	fi
	for _ in $(seq "$reps"); do
		# a fresh superblock for every table
		dd if=/dev/zero of="/dev/$blk" bs=1M count=1 oflag=direct 2>/dev/null
		t0=$(up)
		if ! err=$(dmsetup create wc --table "$(wc_table "/dev/$blk")" 2>&1); then
			err="$err; kernel: $(dmesg | tail -n 1 | sed 's/^\[[^]]*\] //')"
			for m in wc_create_s wc_write_MBps wc_writeback_s; do
				unsup "$a" $m "$size" "dmsetup create writecache: $err"
			done
			dmsetup remove wc 2>/dev/null
			break
		fi
		rec "$a" wc_create_s "$size" "$(elapsed "$t0" "$(up)")" s
		if fio --name=wc --filename=/dev/mapper/wc --rw=write --bs=1M --size=256M \
			--direct=1 --ioengine=psync --output-format=json > /tmp/fio.json 2>/tmp/fio.err; then
			jq -r --arg a "$a" --arg s "$size" \
				'"R \($a) wc_write_MBps \($s) \(.jobs[0].write.bw_bytes / 1e6) MB/s"' /tmp/fio.json
		else
			unsup "$a" wc_write_MBps "$size" "fio: $(cat /tmp/fio.err)"
		fi
		dmsetup message wc 0 flush
		if s=$(wc_clean_time); then
			rec "$a" wc_writeback_s "$size" "$s" s
		else
			unsup "$a" wc_writeback_s "$size" "writeback did not finish: $(dmsetup status wc)"
		fi
		dmsetup remove wc
	done
}

# work REPS APPROACH...: the first touches, then per approach with an fsdax
# namespace O_DIRECT from DAX and dm-writecache
work() {
	first_touches "$@"
	for slot in $namespaces; do work_one "${slot%%=*}" "${slot#*=}" yes; done
	for slot in $nodax; do work_one "${slot%%=*}" "${slot#*=}" no; done
	pmem_reset
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

# refault_rounds MEASURE PASSES ARGS...: the variable targets holds
# APPROACH=PATH words; ROUNDS rounds of one dax-touch -n PASSES ARGS PATH per
# approach, each round in an order rotated by one, so that drift under TCG
# spreads evenly over the approaches.  A record is the time of PASSES passes.
refault_rounds() {
	m=$1 passes=$2
	shift 2
	[ -n "$targets" ] || return 0
	for round in $(seq "$rounds"); do
		# shellcheck disable=SC2086 # word lists
		for t in $(rotate "$round" $targets); do
			touch_rec "${t%%=*}" "$m" - -n "$passes" "$@" "${t#*=}" || true
		done
	done
}

# refault_devdax: approach a's devdax namespace on region r, aligned to
# $align, touched once with its mappings (each_approach); adds it to targets
refault_devdax() {
	# shellcheck disable=SC2046 # word list of ndctl options
	if ! js=$(ndctl create-namespace $(approach_ns_args "$a" devdax) -a "$align" -r "region$r" 2>&1); then
		unsup "$a" "devdax_refault_${tag}_s" "$size" "ndctl create-namespace -m devdax: $js"
		return 0
	fi
	dax=/dev/$(echo "$js" | jq -r '.daxregion.devices[0].chardev')
	# shellcheck disable=SC2086 # zero or two words
	dax-touch $opt "$dax" >/dev/null && targets="$targets $a=$dax"
}

# refault_fsdax: approach a's DAX file on region r (each_approach), touched
# once with 2 MiB mappings: the DAX entries are then PMD entries, which 4 KiB
# faults use too (the other way round, PMD faults would fall back to 4 KiB
# ones); adds it to targets
refault_fsdax() {
	if fsdax_file "$a" "$r" "/mnt/refault$r"; then
		dax-touch -a 2M "/mnt/refault$r/f" >/dev/null && targets="$targets $a=/mnt/refault$r/f"
	else
		unsup "$a" fsdax_refault_4k_s "$size" "$fs_err"
	fi
}

# refault ROUNDS APPROACH...: the first-touch workloads again once every page
# was touched, i.e. on initialised struct pages: the cost of the fault path
# itself.  Every approach's namespace is set up and touched once first.
REFAULT_PASSES_2M=3
refault() {
	rounds=$1
	shift
	for align in 4K 2M; do
		tag=4k passes=1 opt=''
		[ $align = 4K ] || tag=2m passes=$REFAULT_PASSES_2M opt="-a 2M"
		progress "refault: devdax with $align mappings, $rounds rounds of $*"
		targets=''
		each_approach refault_devdax 1 "$@"
		# shellcheck disable=SC2086 # zero or two words
		refault_rounds "devdax_refault_${tag}_s" "$passes" $opt
	done
	progress "refault: DAX file, 4 KiB and 2 MiB mappings, $rounds rounds of $*"
	targets=''
	each_approach refault_fsdax 1 "$@"
	refault_rounds fsdax_refault_2m_s "$REFAULT_PASSES_2M" -a 2M
	refault_rounds fsdax_refault_4k_s 1 -u
	for t in $targets; do umount "$(dirname "${t#*=}")"; done
	pmem_reset
}

# prof_print ROUND POLICY PHASE: the last profile, one line per function
prof_print() {
	cat $TRACING/trace_stat/function* |
		awk -v r="$1" -v p="$2" -v ph="$3" 'NF >= 3 && $2 ~ /^[0-9]+$/ { n[$1] += $2; t[$1] += $3 }
			END { for (f in n) printf "round %d %-5s %-6s %-29s %7d calls %8.1f ms %9.1f ns/call\n",
				r, p, ph, f, n[f], t[f] / 1000, t[f] * 1000 / n[f] }' | sort -k5
}

# fault_profile ROUNDS: bench/fault-profile.  A 512 MiB devdax namespace with
# 4 KiB mappings, rebound and touched once per policy in each round, the order
# of eager and lazy alternating.  Per bind (phase "enable") and per touch pass
# (phase "touch"), the profiler's calls and time of handle_mm_fault(),
# lock_vma_under_rcu() (which no lazy code runs: the pass's drift),
# dax_set_mapping() (the in-line ready test), __pgmap_memmap_ensure() and
# memmap_init_zone_device_range(): eager's one call at enable against lazy's
# one per chunk in the faults, the same struct pages written.
fault_profile() {
	prof_setup handle_mm_fault lock_vma_under_rcu dax_set_mapping __pgmap_memmap_ensure \
		memmap_init_zone_device_range
	[ -n "$prof" ] || { echo "no function profiler in this kernel" >&2; exit 1; }
	pmem_reset
	memmap_policy eager
	js=$(ndctl create-namespace -m devdax --map=dev -a 4K -s 512M -r region0) || exit 1
	dax=$(echo "$js" | jq -r '.daxregion.devices[0].chardev')
	nd=$(basename /sys/bus/nd/drivers/dax_pmem/dax0.*)
	for round in $(seq "$1"); do
		for policy in $(rotate "$round" eager lazy); do
			memmap_policy "$policy"
			echo 1 > $TRACING/function_profile_enabled
			rebind dax_pmem "$nd" > /dev/null || exit 1
			echo 0 > $TRACING/function_profile_enabled
			prof_print "$round" "$policy" enable
			for _ in $(seq 50); do [ -c "/dev/$dax" ] && break; sleep 0.1; done
			# shellcheck disable=SC2086 # two words
			dax-touch $prof -a 4K "/dev/$dax" > /dev/null || exit 1
			prof_print "$round" "$policy" touch
		done
	done
	memmap_policy lazy
}

# memmap_bytes CELL...: bench/memmap-bytes.  CELL number i, POLICY:ALIGN:PHASE,
# on the fresh NVDIMM of slot i: a devdax --map=dev namespace of POLICY filling
# the region, aligned to ALIGN, and for PHASE touch every page read once with
# ALIGN mappings.  Per cell, asks the host to count the bytes written into the
# memmap area (host_written, memmap_area), tagged reserved=BYTES, the pmem the
# namespace reserves.
memmap_bytes() {
	pmem_reset
	i=0
	for cell; do
		policy=${cell%%:*} align=${cell#*:} phase=${align#*:} align=${align%%:*}
		r=$(region_of_slot $i)
		# a kernel without the series has no policy: eager
		memmap_policy "$policy" 2>/dev/null || true
		progress "slot $i: devdax $policy, align $align, $phase"
		if ! js=$(ndctl create-namespace -m devdax --map=dev -a "$align" -r "region$r" 2>&1); then
			echo "U $cell memmap_area 0 unsupported ndctl create-namespace: $js"
			i=$((i + 1))
			continue
		fi
		ns=$(echo "$js" | jq -r .dev)
		dax=/dev/$(echo "$js" | jq -r '.daxregion.devices[0].chardev')
		[ "$phase" = enable ] || dax-touch -a "$align" "$dax" > /dev/null ||
			echo "U $cell memmap_area 0 failed dax-touch $dax"
		raw=$(cat "/sys/bus/nd/devices/$ns/size")
		# shellcheck disable=SC2046 # OFFSET LENGTH
		host_written "$i" $(memmap_area "$ns") "reserved=$((raw - $(echo "$js" | jq -r .size)))"
		i=$((i + 1))
	done
	sync
}

prof_setup
case $mode in
main) main "$@" ;;
boot) boot "$@" ;;
work) work "$@" ;;
touch) first_touches "$@"; pmem_reset ;;
refault) refault "$@" ;;
fault-profile) fault_profile "$@" ;;
memmap-bytes) memmap_bytes "$@" ;;
*) echo "usage: guest.sh main|boot|work|touch|refault|fault-profile|memmap-bytes ..." >&2; exit 2 ;;
esac
