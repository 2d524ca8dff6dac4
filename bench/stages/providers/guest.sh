# shellcheck shell=sh
# Guest side of the providers stage (sourced by bench/guest.sh):
#   providers REPS APPROACH KIND   enable time of a namespace over all of the one
#                                  device of KIND (a CXL one: a region first)
#   providers boot APPROACH KIND   after a boot onto that namespace (virtio-pmem)
providers_enable() {
	reps=$1 a=$2 kind=$3 k=${3%-pmem}
	if [ "$kind" = cxl-pmem ] && ! cxl_region_create mem0 >/dev/null; then
		unsup "$a" "${k}_enable_wall_s" 0 "cxl create-region: $(cat /tmp/cxl.err)"
		return 0
	fi
	r=$(provider_regions "$kind" | head -n 1)
	size=$(( $(cat "/sys/bus/nd/devices/$r/size") ))
	set_policy "$a"
	progress "$a: enable an fsdax namespace filling the $kind region ($((size >> 30)) GiB), $reps repetitions"
	for _ in $(seq "$reps"); do
		pmem_reset
		t0=$(up)
		# shellcheck disable=SC2046 # word list of ndctl options
		if ! js=$(ns_create $(approach_ns_args "$a" fsdax) -r "$r"); then
			unsup "$a" "${k}_enable_wall_s" "$size" "ndctl create-namespace: $(cat /tmp/ndctl.err)"
			return 0
		fi
		rec "$a" "${k}_enable_wall_s" "$size" "$(elapsed "$t0" "$(up)")" s
		blk=$(echo "$js" | jq -r .blockdev)
		if s=$(rebind nd_pmem "$(bound_dev "$blk")"); then
			rec "$a" "${k}_enable_kernel_s" "$size" "$s" s
		else
			unsup "$a" "${k}_enable_kernel_s" "$size" "rebind: $s"
		fi
		# (the raw namespace of a label-less region, dram's, has no lazy memmap)
		[ ! -e "/sys/block/$blk/memmap/initialized_bytes" ] ||
			rec "$a" "${k}_memmap_init_at_enable_bytes" "$size" "$(memmap_attr "$blk" initialized_bytes)" B
	done
	# the host counts what was written into the backing file (all of the device)
	host_written "${kind}0" 0 "$size" "$a"
}

# providers_boot APPROACH KIND: the uptime at which the block device of the
# namespace on the device (the only pmem) is there, fsdax (libnvdimm finds its
# info block and enables it at boot) or, dram, raw, and what the kernel
# initialised of its memmap by then
providers_boot() {
	k=${2%-pmem} blk=''
	for _ in $(seq 1200); do
		for b in /sys/block/pmem*; do
			[ -e "$b" ] && blk=${b##*/} && break 2
		done
		sleep 0.1
	done
	size=$(awk -v k="$2" '$1 == k { print $3; exit }' "$MANIFEST")
	if [ -n "$blk" ]; then
		rec "$1" "${k}_boot_ns_ready_s" "$size" "$(up)" s
		if [ -e "/sys/block/$blk/memmap/total_bytes" ]; then
			echo "I boot $2 $blk policy=$(memmap_attr "$blk" policy) initialized=$(memmap_attr "$blk" initialized_bytes) total=$(memmap_attr "$blk" total_bytes)"
		else
			echo "I boot $2 $blk no-memmap"
		fi
	else
		unsup "$1" "${k}_boot_ns_ready_s" "$size" "no pmem block device with a memmap 120 s after boot"
	fi
}

stage_guest() {
	if [ "$1" = boot ]; then
		shift
		providers_boot "$@"
	else
		providers_enable "$@"
	fi
}
