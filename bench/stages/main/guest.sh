# shellcheck shell=sh
# Guest side of the main stage (sourced by bench/guest.sh):
#   main REPS APPROACH...   enable time and memory at the NVDIMM size, and the
#                           memset references
#   main boot APPROACH SIZE SLOT
#                           after a boot onto the namespace configured in SLOT
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

# slot_blockdev SLOT: the pmem block device of the namespace in the region of the
# NVDIMM in QEMU slot SLOT, once the kernel has enabled it
slot_blockdev() {
	sb_r=$(region_of_slot "$1") || return 1
	for sb in /sys/block/pmem*; do
		[ -e "$sb" ] || continue
		case $(bound_dev "${sb##*/}") in
		namespace"$sb_r".*|pfn"$sb_r".*) echo "${sb##*/}"; return 0 ;;
		esac
	done
	return 1
}

# boot APPROACH SIZE SLOT, after booting onto the namespace configured on the
# NVDIMM in QEMU slot SLOT (the others are empty): the uptime at which its block
# device is there (libnvdimm enables it asynchronously, also after /init), and
# what the kernel did at boot
boot() {
	blk=''
	for _ in $(seq 1200); do
		blk=$(slot_blockdev "$3") && break
		sleep 0.1
	done
	if [ -n "$blk" ]; then
		rec "$1" boot_ns_ready_s "$2" "$(up)" s
	else
		unsup "$1" boot_ns_ready_s "$2" "no block device of the namespace in slot $3 120 s after boot"
	fi
	for b in /sys/block/pmem*; do
		[ -e "$b" ] || continue
		b=${b##*/}
		if [ -e "/sys/block/$b/memmap/total_bytes" ]; then
			echo "I boot $b policy=$(memmap_attr "$b" policy) initialized=$(memmap_attr "$b" initialized_bytes) total=$(memmap_attr "$b" total_bytes) complete=$(memmap_attr "$b" complete)"
		else
			echo "I boot $b no-memmap"
		fi
	done
	echo "I boot uptime $(up)"
}

stage_guest() {
	if [ "$1" = boot ]; then
		shift
		boot "$@"
	else
		main "$@"
	fi
}
