# shellcheck shell=sh
# Namespace helpers for the guest tests.

# shellcheck disable=SC2034 # used by the tests that source this file
MiB=$((1 << 20))
# shellcheck disable=SC2034
GiB=$((1 << 30))

# What tools/vm gave this guest, /run/manifest: "pmem SLOT BYTES BACKING NODE" per
# NVDIMM, "KIND SLOT BYTES BACKING NODE [START]" per pmem device of another KIND
# (virtio-pmem, cxl-pmem, e820-pmem), "disk SERIAL BYTES".  slot_size SLOT: the
# BYTES of NVDIMM SLOT; nr_slots: how many NVDIMMs
MANIFEST=${MANIFEST:-/run/manifest}
slot_size() { awk -v s="$1" '$1 == "pmem" && $2 == s { print $3 }' "$MANIFEST"; }
nr_slots() { grep -c '^pmem ' "$MANIFEST"; }

# provider_kind: the kind of pmem other than NVDIMMs this guest has (a provider
# group gives one kind and no NVDIMM), or nothing
provider_kind() {
	awk '$1 ~ /^(virtio|cxl|e820)-pmem$/ { print $1; exit }' "$MANIFEST" 2>/dev/null
}

# label_less: this guest's pmem is label-less regions (virtio-pmem, e820): each
# has one namespace, the whole region, converted in place (create-namespace -f -e)
# instead of created and destroyed
label_less() {
	case $(provider_kind) in virtio-pmem|e820-pmem) return 0 ;; esac
	return 1
}

# provider_regions KIND: the libnvdimm regions (regionN, a line each) on the buses
# of pmem KIND (ndbusN/provider), in the order of their sysfs paths: virtio-pmem
# devices by PCI address, which is tools/vm's order
provider_regions() {
	case $1 in
	virtio-pmem) pr_name=virtio-pmem ;; e820-pmem) pr_name=e820 ;; cxl-pmem) pr_name=CXL ;;
	*) return 1 ;;
	esac
	for pr_bus in /sys/bus/nd/devices/ndbus*; do
		[ "$(cat "$pr_bus/provider")" = "$pr_name" ] || continue
		for pr_r in "$(readlink -f "$pr_bus")"/region*; do
			[ -d "$pr_r" ] && echo "$pr_r"
		done
	done | sort | sed 's|.*/||'
}

# kind_sizes KIND: the BYTES of each device of KIND in the manifest, sorted
kind_sizes() { awk -v k="$1" '$1 == k { print $3 }' "$MANIFEST" | sort -n | tr '\n' ' '; }

# found_sizes KIND: the sizes of what the kernel made of each device of KIND,
# sorted: the regions of virtio-pmem and e820 (the e820 one only at the START
# tools/vm reserved), the persistent capacity of CXL memdevs
found_sizes() {
	case $1 in
	cxl-pmem)
		for fs_m in /sys/bus/cxl/devices/mem*; do
			[ -r "$fs_m/pmem/size" ] && echo $(($(cat "$fs_m/pmem/size")))
		done ;;
	*)
		fs_start=$(awk '$1 == "e820-pmem" { print $6 }' "$MANIFEST")
		for fs_r in $(provider_regions "$1"); do
			[ "$1" != e820-pmem ] ||
				[ $(($(cat "/sys/bus/nd/devices/$fs_r/resource"))) = "$fs_start" ] || continue
			cat "/sys/bus/nd/devices/$fs_r/size"
		done ;;
	esac | sort -n | tr '\n' ' '
}

# region_of_slot S: the region number of the NVDIMM in slot S (tools/vm's order of
# -p, QEMU's slot): its NFIT handle is S + 1; region numbers follow another order
region_of_slot() {
	for ros_n in /sys/bus/nd/devices/nmem*; do
		[ -e "$ros_n/nfit/handle" ] || continue
		[ $(($(cat "$ros_n/nfit/handle"))) = $(($1 + 1)) ] || continue
		for ros_rg in /sys/bus/nd/devices/region*; do
			case $(cat "$ros_rg/mapping0") in
			"${ros_n##*/},"*) echo "${ros_rg##*/region}"; return 0 ;;
			esac
		done
	done
	return 1
}

# manifest_check: every NVDIMM of the manifest is there as a region of its size,
# every device of another kind as found_sizes says (libnvdimm and CXL probe
# asynchronously: up to MANIFEST_WAIT, 60 s, for them); on failure, says why and
# fails.  guest/run-group runs it before the tests: a test on pmem that is not
# what the group asked for proves nothing.
manifest_check() {
	[ -r "$MANIFEST" ] || { echo "no $MANIFEST"; return 1; }
	mc_slot=0
	while [ "$mc_slot" -lt "$(nr_slots)" ]; do
		mc_want=$(slot_size "$mc_slot") mc_got=''
		for _ in $(seq $((${MANIFEST_WAIT:-60} * 10))); do
			mc_r=$(region_of_slot "$mc_slot") &&
				mc_got=$(( $(cat "/sys/bus/nd/devices/region$mc_r/size") )) && break
			sleep 0.1
		done
		if [ "$mc_got" != "$mc_want" ]; then
			echo "NVDIMM slot $mc_slot: want a region of $mc_want bytes, found ${mc_got:-none} after ${MANIFEST_WAIT:-60} s"
			return 1
		fi
		mc_slot=$((mc_slot + 1))
	done
	for mc_kind in virtio-pmem e820-pmem cxl-pmem; do
		mc_want=$(kind_sizes "$mc_kind")
		[ -n "$mc_want" ] || continue
		for _ in $(seq $((${MANIFEST_WAIT:-60} * 10))); do
			mc_got=$(found_sizes "$mc_kind")
			[ "$mc_got" = "$mc_want" ] && break
			sleep 0.1
		done
		if [ "$mc_got" != "$mc_want" ]; then
			echo "$mc_kind: want sizes ${mc_want}found ${mc_got:-none }after ${MANIFEST_WAIT:-60} s"
			return 1
		fi
	done
}

# ns_destroy_all: disable and destroy every namespace; label-less regions get
# their one namespace back in raw mode (the info block of a pfn-mode one wiped)
ns_destroy_all() {
	if label_less; then
		nda_rc=0
		for nda_r in $(provider_regions "$(provider_kind)"); do
			ndctl create-namespace -f -e "namespace${nda_r#region}.0" -m raw >/dev/null || nda_rc=1
		done
		return $nda_rc
	fi
	ndctl disable-namespace all >/dev/null && ndctl destroy-namespace -f all >/dev/null
}

# Remove every namespace: each test starts from empty regions.  Re-initialising
# the labels also covers fresh backing files, whose zeroed label area would leave
# a label-less region that cannot be divided into namespaces.
pmem_reset() {
	if label_less; then
		ns_destroy_all 2>/dev/null
		return 0
	fi
	ndctl disable-region all >/dev/null 2>&1
	ndctl init-labels -f all >/dev/null 2>&1
	ndctl enable-region all >/dev/null 2>&1
}

# ns_json NAME: one namespace as a JSON object on one line, with "raw_size"
# (the namespace size before any memmap reservation) from sysfs
ns_json() {
	ndctl list -v -N -n "$1" |
		jq -c --argjson raw "$(cat "/sys/bus/nd/devices/$1/size")" \
			'(if type == "array" then .[0] else . end) + {raw_size: $raw}'
}

# ns_create ARGS...: create a namespace and print ns_json of it; on failure the
# error is in /tmp/ndctl.err.  On label-less regions (label_less) the namespace
# is the first raw one (no pfn, dax or btt device holds it), converted in place:
# its size is the region's, whatever -s says, and -r is dropped.  There fsdax
# --map=mem is the raw namespace itself (libnvdimm gives a raw namespace of a
# label-less region struct pages in RAM and DAX).
ns_create() {
	if label_less; then
		nc_skip='' nc_ns=''
		for nc_arg; do
			shift
			if [ -n "$nc_skip" ]; then nc_skip=''; continue; fi
			case $nc_arg in
			-s|-r) nc_skip=1 ;;
			--size=*|--region=*) ;;
			*) set -- "$@" "$nc_arg" ;;
			esac
		done
		for nc_r in $(provider_regions "$(provider_kind)"); do
			[ -z "$(cat "/sys/bus/nd/devices/namespace${nc_r#region}.0/holder")" ] &&
				nc_ns=namespace${nc_r#region}.0 && break
		done
		[ -n "$nc_ns" ] || { echo "no raw namespace left on the label-less regions" > /tmp/ndctl.err; return 1; }
		set -- -f -e "$nc_ns" "$@"
	fi
	name=$(ndctl create-namespace "$@" 2>/tmp/ndctl.err | jq -r .dev) &&
		[ -n "$name" ] && ns_json "$name"
}

# mem_free_kb, mem_total_kb: MemFree, MemTotal from /proc/meminfo
mem_free_kb() { awk '/^MemFree:/ { print $2 }' /proc/meminfo; }
mem_total_kb() { awk '/^MemTotal:/ { print $2 }' /proc/meminfo; }

# kernel_kb: kB of the kernel's own unreclaimable memory, where what a pagemap
# leaves behind would stay: unreclaimable slab (struct pgmap_memmap, the chunk
# bitmaps, a worker's task_struct), kernel stacks, page tables, per-CPU areas,
# vmalloc
kernel_kb() {
	awk '/^(SUnreclaim|KernelStack|PageTables|Percpu|VmallocUsed):/ { s += $2 } END { print s }' /proc/meminfo
}

# pcp_free_kb: kB of free pages on the per-CPU free lists (/proc/zoneinfo
# "count:"), which MemFree does not count.  7.2 lets those lists grow by MiB over
# a few namespace cycles (pcp high auto-tuning) and compaction does not drain
# them: MemFree alone then drops by what they gained (3-4 MiB per 5 cycles of a
# 4 GiB namespace, raw mode too; measured 2026-12-07), which is no leak.
pcp_free_kb() { awk '$1 == "count:" { s += $2 } END { print s * 4 }' /proc/zoneinfo; }

# mem_settled: "MEMFREE KERNEL" in kB, MemFree (plus the free pages on the
# per-CPU lists, pcp_free_kb) and kernel_kb with the noise taken out: the page
# cache and the slab caches dropped, the per-CPU counter deltas folded in; then
# the best of three samples a second apart (a transient allocation only lowers
# MemFree and raises kernel_kb)
mem_settled() {
	ms_free=0 ms_kernel=
	for _ in 1 2 3; do
		sync
		echo 3 > /proc/sys/vm/drop_caches
		echo 1 > /proc/sys/vm/compact_memory
		echo 1 > /proc/sys/vm/stat_refresh 2>/dev/null
		ms_f=$(( $(mem_free_kb) + $(pcp_free_kb) )) ms_k=$(kernel_kb)
		[ "$ms_f" -gt "$ms_free" ] && ms_free=$ms_f
		if [ -z "$ms_kernel" ] || [ "$ms_k" -lt "$ms_kernel" ]; then ms_kernel=$ms_k; fi
		sleep 1
	done
	echo "$ms_free $ms_kernel"
}

# no_leak WHAT BEFORE: nothing leaked since BEFORE (an earlier mem_settled):
# free memory (MemFree + pcp_free_kb) down by at most LEAK_FREE_KB, kernel_kb up
# by at most LEAK_KERNEL_KB.
# Settled, the two moved by 0.75 MiB and 0.1 MiB at most over the 3 to 10
# namespace cycles of reconfig, lazy-background and lazy-race-gup (lazy-io and
# namespaces groups, 2 GiB guest); the bounds are about three and five times
# that.  They catch a leak of MiB: a --map=mem memmap (16 MiB per GiB), its
# vmemmap page tables, some 20 leaked worker threads (kernel stack and
# task_struct: about 25 KiB each).  A single leaked worker or bitmap (KiB) is
# below them: the tests check for those directly (no worker left,
# nr_memmap_lazy_pending back to 0).  The 1 % of MemFree the tests allowed
# before was 18 MiB.
LEAK_FREE_KB=2048
LEAK_KERNEL_KB=512
no_leak() {
	# shellcheck disable=SC2046,SC2086 # four numbers
	set -- "$1" $2 $(mem_settled)
	if [ $(($2 - $4)) -le "$LEAK_FREE_KB" ] && [ $(($5 - $3)) -le "$LEAK_KERNEL_KB" ]; then
		ok "$1: nothing leaked (free $2 -> $4 kB, kernel memory $3 -> $5 kB)"
	else
		not_ok "$1: leak? free $2 -> $4 kB (may drop $LEAK_FREE_KB), kernel memory $3 -> $5 kB (may grow $LEAK_KERNEL_KB)"
	fi
}

# vmstat NAME: the counter NAME of /proc/vmstat
vmstat() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }

# Format and mount an fsdax namespace's block device with -o dax at /mnt/dax.
mount_dax() {
	mkdir -p /mnt/dax
	mkfs.ext4 -q -F -b 4096 "/dev/$1" && mount -o dax "/dev/$1" /mnt/dax
}

# memmap_attr DEV ATTR: the lazy-memmap statistic ATTR of a pmem block device
# (pmemX) or device-dax instance (daxX.Y)
memmap_attr() {
	case $1 in
	dax*) cat "/sys/bus/dax/devices/$1/memmap/$2" ;;
	*) cat "/sys/block/$1/memmap/$2" ;;
	esac
}

# memmap_policy POLICY: the zone_device.memmap_init policy for the next enables
memmap_policy() { echo "$1" > /sys/module/zone_device/parameters/memmap_init; }

# ns_data_start NAMESPACE: the physical address of the first data pfn of a pfn-mode
# (fsdax, devdax) namespace, after its info block and memmap area (the resource of
# its pfn or dax device)
ns_data_start() {
	echo $(( $(cat "/sys/bus/nd/devices/$(cat "/sys/bus/nd/devices/$1/holder")/resource") ))
}

# memmap_area NAMESPACE: "OFFSET LENGTH", the memmap area of a pfn-mode (fsdax,
# devdax) namespace in the backing file of its NVDIMM: after the info block (4 KiB
# into the namespace, 4 KiB long), up to the first data pfn.  A region is a whole
# NVDIMM, which starts at offset 0 of its backing file (the labels are at the end).
memmap_area() {
	ma_dev=/sys/bus/nd/devices/$1
	ma_start=$(( $(cat "$ma_dev/resource") ))
	ma_region=$(( $(cat "$(readlink -f "$ma_dev/..")/resource") ))
	ma_data=$(ns_data_start "$1")
	echo "$((ma_start - ma_region + 8192)) $((ma_data - ma_start - 8192))"
}

# host_written SLOT OFFSET LENGTH TAG...: ask the host to count, after the run, the
# bytes written into [OFFSET, OFFSET + LENGTH) of the backing file of the NVDIMM in
# QEMU slot SLOT, or of device N of another kind for SLOT KINDN (virtio-pmem0)
# (tools/vm --written; memmap_area gives file offsets).  TAG says
# what the count is for (tools/run-tests: max=BYTES, the most it may be).
host_written() { echo "# host-written: $*"; }

# sizeof(struct page) on x86-64 (lazy-enable checks it against memmap/total_bytes)
STRUCT_PAGE=64

# memmap_pages BYTES: vmemmap pages of the memmap of BYTES of memory (a struct page
# per 4 KiB page); memmap_pages_dedup BYTES: deduplicated for 2 MiB compound pages,
# 2 per 2 MiB (patches/compound-altmap, and --map=mem)
memmap_pages() { echo $(( $1 * STRUCT_PAGE / 4096 / 4096 )); }
memmap_pages_dedup() { echo $(( $1 * 2 / (2 << 20) )); }

# wc_table CACHEDEV: the table of a writecache in "p" mode over the DMA target
wc_table() {
	origin=$(readlink -f /dev/disk-target)
	echo "0 $(blockdev --getsz "$origin") writecache p $origin $1 4096 0"
}

# wc_wait_clean [NAME]: after "dmsetup message NAME 0 cleaner", wait until the
# writecache NAME (default wc) has written every block back: status field 3
# (free blocks) equals field 2 (total) and field 4 (under writeback) is 0
wc_wait_clean() {
	wc_name=${1:-wc}
	# every 50 ms (the bench times the writeback with it), for up to 5 minutes
	for _ in $(seq 6000); do
		# shellcheck disable=SC2046 # split the status fields
		set -- $(dmsetup status "$wc_name")
		[ "$5" = "$6" ] && [ "$7" = 0 ] && return 0
		sleep 0.05
	done
	dmsetup status "$wc_name"
	return 1
}

# /proc/vmstat after folding the per-CPU deltas in (they lag by up to a threshold per CPU)
vmstat_val() {
	echo 1 > /proc/sys/vm/stat_refresh 2>/dev/null
	vmstat "$1"
}

# Racing GUP on never-touched pages: the kernel's own gup_test (CONFIG_GUP_TEST)
# with GUP_THREADS threads pinning or getting the same GUP_MB MiB at once.
GUP_THREADS=8
GUP_MB=64

# gup_race DESCRIPTION GUP_TEST_ARGS...: every thread's ioctl must succeed
# and cover the whole mapping (gup_test itself exits 0 whatever its threads got, and
# prints TAP of its own).  The threads print their "ok N" lines concurrently, so two
# can share a line: count them from the kselftest totals, which the main thread
# prints at the end.
gup_race() {
	desc=$1
	shift
	out=$(gup_test -z -S -j "$GUP_THREADS" -m "$GUP_MB" -n 64 "$@" 2>&1)
	rc=$?
	n=$(printf '%s\n' "$out" | sed -n 's/^# Totals: pass:\([0-9]*\) fail:0 .*/\1/p')
	if [ "$rc" = 0 ] && [ "$n" = "$GUP_THREADS" ] && ! printf '%s\n' "$out" | grep -qiE 'not ok|truncated'; then
		ok "$desc"
		printf '%s\n' "$out" | grep -m 2 'Time:' | sed 's/^# */#   /'
	else
		not_ok "$desc (exit $rc, ${n:-no} kselftest totals of $GUP_THREADS passes)"
		printf '%s\n' "$out" | sed 's/^/#   /'
	fi
}

# pins_released WHAT: every thread of the gup_race since pins_mark pinned each
# of the GUP_MB MiB (one pin per 4 KiB page), and every pin was released.  The
# ":?" stops the test if the lower bound's variables are ever renamed again: an
# unset one would make the bound 0, met with no pin taken at all.
pins_mark() { acq0=$(vmstat_val nr_foll_pin_acquired) rel0=$(vmstat_val nr_foll_pin_released); }
pins_released() {
	acq=$(($(vmstat_val nr_foll_pin_acquired) - acq0))
	rel=$(($(vmstat_val nr_foll_pin_released) - rel0))
	want=$((${GUP_THREADS:?} * ${GUP_MB:?} * 256))
	if [ "$acq" -ge "$want" ] && [ "$acq" = "$rel" ]; then
		ok "$1: $acq pins taken (>= $want), all released"
	else
		not_ok "$1: pins acquired $acq, released $rel (want >= $want, equal)"
	fi
}

# lazy_again DEV WHEN: the pfn-mode namespace of DEV, back from its info block or
# labels (a reboot, a region assembled again), has a lazy memmap again, of which
# WHEN ("at boot") nothing but the first chunk was initialised
lazy_again() {
	is "$(memmap_attr "$1" policy)" lazy "memmap lazy again $2"
	la_done=$(memmap_attr "$1" initialized_bytes)
	if [ "$la_done" -le "$(memmap_attr "$1" chunk_bytes)" ]; then
		ok "nothing but the first chunk initialised $2"
	else
		not_ok "initialised $2: $la_done bytes"
	fi
}

# teardown WHAT: disable and destroy every namespace within 60 s: a leaked page
# reference would keep the pgmap alive and the teardown waiting forever
teardown() {
	ns_destroy_all >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 600); do
		if ! kill -0 "$pid" 2>/dev/null; then
			if wait "$pid"; then ok "$1: namespace torn down"; else not_ok "$1: teardown failed"; fi
			return
		fi
		sleep 0.1
	done
	not_ok "$1: teardown still waiting after 60 s (leaked reference?)"
}

# hwpoison_inject PFN: what memory_failure() reports for PFN (hwpoison-inject)
hwpoison_inject() {
	dmesg -c >/dev/null
	echo "$1" > /sys/kernel/debug/hwpoison/corrupt-pfn 2>/dev/null
	dmesg | grep -o "recovery action for [a-z ]*: [A-Za-z]*" | head -n 1 | sed 's/.*: //'
}

# cpu_hogs_start, cpu_hogs_stop: a busy loop pinned to each CPU at nice 0
# meanwhile, and the test itself (this shell and what it starts) at nice -10.
# The background worker runs at nice 19: against a hog it gets 15/1039 of a CPU,
# and against the test 15/9548 of what the test gets, so that a memmap it
# completes in some 10 ms of CPU stays incomplete for seconds, long enough for a
# test to act meanwhile.  Pinned, because the load balancer would otherwise put
# the hogs together away from the heavier test, and let the worker run alone on
# the test's CPU whenever the test sleeps.
cpu_hogs_start() {
	hogs=
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		taskset -c "$cpu" sh -c 'while :; do :; done' &
		hogs="$hogs $!"
	done
	renice -n -10 -p $$ >/dev/null
}
cpu_hogs_stop() {
	# (a bare "wait" would wait for every child)
	[ -n "${hogs:-}" ] || return 0
	# shellcheck disable=SC2086 # one pid per word
	kill $hogs 2>/dev/null
	# shellcheck disable=SC2086
	wait $hogs 2>/dev/null
	hogs=
	renice -n 10 -p $$ >/dev/null
}

# memmap_worker NAMESPACE: the name of the running background worker of a pfn-mode
# namespace's pagemap, memmap_init/<first data pfn, hex> (/proc/PID/comm shows a
# kthread's full name), or nothing if there is none
memmap_worker() {
	mw_name=memmap_init/$(printf %x $(( $(ns_data_start "$1") >> 12 )))
	grep -lx "$mw_name" /proc/[0-9]*/comm >/dev/null 2>&1 && echo "$mw_name"
}

# garbage_fill SIZE: random bytes over the first GARBAGE_MB MiB of the empty
# region, through a raw namespace of SIZE bytes, for the memmap area of the next
# pfn-mode namespace to hold; fails unless they read back from the media
# (O_DIRECT both ways: no page cache in between).  The region offset they start
# at is left in garbage_off.  pmem_reset before and after.
GARBAGE_MB=32
garbage_fill() {
	pmem_reset
	gf_js=$(ns_create -m raw -s "$1") || { pmem_reset; return 1; }
	gf_dev=/dev/$(echo "$gf_js" | jq -r .blockdev)
	gf_ns=/sys/bus/nd/devices/$(echo "$gf_js" | jq -r .dev)
	garbage_off=$(( $(cat "$gf_ns/resource") - $(cat "$(readlink -f "$gf_ns/..")/resource") ))
	dd if=/dev/urandom of=/tmp/garbage bs=1M count=$GARBAGE_MB 2>/dev/null
	dd if=/tmp/garbage of="$gf_dev" bs=1M oflag=direct 2>/dev/null &&
		dd if="$gf_dev" bs=1M count=$GARBAGE_MB iflag=direct 2>/dev/null | cmp -s - /tmp/garbage
	gf_rc=$?
	rm -f /tmp/garbage
	pmem_reset
	return $gf_rc
}

# garbage_covers NAMESPACE: the garbage of the last garbage_fill lies where the
# memmap area of the pfn-mode NAMESPACE (created since) begins, and covers the
# area or its first 16 MiB (the struct pages of the first 1 GiB of pfns).
# Prints what it found.
garbage_covers() {
	# shellcheck disable=SC2046 # "OFFSET LENGTH"
	set -- $(memmap_area "$1")
	gc_want=$2
	[ "$gc_want" -gt $((16 * MiB)) ] && gc_want=$((16 * MiB))
	echo "memmap area at region offset $1, $2 bytes; garbage at $garbage_off, $((GARBAGE_MB * MiB)) bytes"
	[ "$1" -ge "$garbage_off" ] && [ $(($1 + gc_want)) -le $((garbage_off + GARBAGE_MB * MiB)) ]
}

# dio_args, dio_what: dax-dio's transfers for this guest's pmem, and in words:
# 16 MiB at once; on CXL 64 transfers of 4 KiB.  QEMU 7.2 emulates CXL memory
# as MMIO, not RAM, and maps a virtio buffer there through its one bounce
# buffer, a page at a time: a virtio-blk request over more than one page of it
# ends the device ("virtio: bogus descriptor or out of resources" on QEMU's
# stderr) and the I/O never completes.  The kernel side (GUP of the DAX pages,
# the bio, the DMA mapping) is the same for one page.
dio_args() { if [ "$(provider_kind)" = cxl-pmem ]; then echo "-s 4K -n 64"; else echo "-s 16M"; fi; }
dio_what() { if [ "$(provider_kind)" = cxl-pmem ]; then echo "64 x 4 KiB"; else echo "16 MiB"; fi; }

# cxl_region_create MEMDEV: a pmem region over all of MEMDEV's persistent
# capacity in the first root decoder (tools/vm's one window); prints the CXL
# region's name once cxl_pmem made a libnvdimm region of every CXL region (up to
# 30 s).  On failure the error is in /tmp/cxl.err.
cxl_region_create() {
	crc_r=$(cxl create-region -t pmem -d decoder0.0 -m "$1" 2>/tmp/cxl.err | jq -r .region)
	case $crc_r in region*) ;; *) return 1 ;; esac
	for _ in $(seq 300); do
		[ "$(provider_regions cxl-pmem | wc -l)" = "$(cxl list -R | jq length)" ] && break
		sleep 0.1
	done
	echo "$crc_r"
}
