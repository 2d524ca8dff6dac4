# shellcheck shell=bash
# The main stage (sourced by bench/run): per size of BENCH_SIZES, one boot with
# an NVDIMM of that size per approach of the stage (bench/approaches): enable
# time (wall, and kernel side: the bind write), DRAM used, pmem reserved, memmap
# bytes initialised at enable (sysfs) and written (host_pmem_written_bytes,
# counted by the host in the backing files), the memset references; then one
# boot onto each approach's namespace (boot_userspace_s, boot_ns_ready_s: when the
# block device of that namespace appeared).
# Guest side: guest.sh here.  Rendered by bench/render: enable, memory, boot,
# cover-enable, cover-boot.
# The NVDIMMs of these boots are sparse files: one of SIZE per approach does not
# fit in RAM, what the approaches write does up to some size (eager and
# background write SIZE/64 each).  On tmpfs a guest store into pmem costs a host
# page fault at most; on disk, the host's writeback of that much dirty page cache
# throttles the guest's stores, and the enable time measures the host (eager
# at 256 GiB: an order of magnitude slower on disk; docs/results.md).  So tmpfs
# where it fits (auto), with the guest's RAM and 4 GiB to spare.
stage_host() {
	bench_vm_dir=$VM_DIR
	for s in $sizes; do
		bytes=$(to_bytes "$s")
		list=$(stage_approaches main)
		ram=2
		dram_ram=$(( 2 + $(gib $((bytes * 5 / 256))) ))
		if [ $((dram_ram << 30)) -gt $((host_mem - (4 << 30))) ]; then
			list=$(echo " $list " | sed 's/ dram / /; s/^ //; s/ $//')
			status dram enable_wall_s "$bytes" skipped "struct pages in DRAM need a ${dram_ram} GiB guest; the host has $(gib "$host_mem") GiB available"
		else
			ram=$dram_ram
		fi
		n=$(wc -w <<< "$list")
		written=$(( 2 * bytes / 64 + (1 << 30) ))
		backing=disk
		if [ "$main_backing" = tmpfs ] || { [ "$main_backing" = auto ] && [ -d /dev/shm ] &&
			[ $(( $(df -B1 --output=avail /dev/shm | tail -n 1) )) -ge "$written" ] &&
			[ $(( written + (ram << 30) + (4 << 30) )) -le "$host_mem" ]; }; then
			backing=tmpfs
		fi
		printf 'main_backing_%s\t%s\n' "$s" "$backing" >> "$out/meta.tsv"
		if [ "$backing" = tmpfs ]; then export VM_DIR=$shm_dir; else export VM_DIR=$bench_vm_dir; fi
		progress "size $s: one boot, $n NVDIMMs of $s (one per approach, sparse files on $backing), ${ram} GiB RAM"
		opts="-P bench -p ${n}x$s -m ${ram}G"
		# shellcheck disable=SC2086 # list is a word list
		run_vm "bench-main-$s" "$bytes" "$list" "$opts" main "$reps" $list || continue
		# pmem bytes written, seen from the host: non-zero blocks of each region
		"$TOP/tools/vm" --written "$out/host-written.bench-main-$s" |
			while read -r _ _ _ written _ a; do
				record "$a" host_pmem_written_bytes "$bytes" "$written" B
			done
		# boot onto the namespace the main boot left configured, per approach
		i=0
		for a in $list; do
			policy=$(approach_field "$a" memmap_init)
			# the NVDIMM in the same slot (the labels' interleave-set cookie
			# depends on its address), the slots before it empty (tools/vm -k
			# creates the missing backing files)
			mkdir -p "$VM_DIR/boot"
			rm -f "$VM_DIR/boot"/pmem*.img
			ln -f "$VM_DIR/pmem$i.img" "$VM_DIR/boot/pmem$i.img"
			for rep in $(seq "$boot_reps"); do
				progress "size $s: boot onto the $a namespace ($rep/$boot_reps)"
				opts="-P bench -k -p $((i + 1))x$s -m ${ram}G -a zone_device.memmap_init=$policy"
				if VM_DIR=$VM_DIR/boot run_vm "bench-boot-$a-$s" "$bytes" "$a" "$opts" main boot "$a" "$bytes" "$i"; then
					t=$(sed -n 's/^\[ *\([0-9.]*\)\] Run \/init as init process.*/\1/p' "$LOGS/bench-boot-$a-$s.log")
					[ -z "$t" ] || record "$a" boot_userspace_s "$bytes" "$t" s
				fi
			done
			i=$((i + 1))
		done
		rm -f "$VM_DIR/boot"/pmem*.img "$VM_DIR"/pmem*.img
		[ "$backing" = disk ] || rm -rf "$shm_dir"
	done
	export VM_DIR=$bench_vm_dir
}
