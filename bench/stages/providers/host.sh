# shellcheck shell=bash
# The providers stage (sourced by bench/run): the other kinds of pmem, eager
# against lazy.  Per kind of BENCH_PROVIDERS (virtio-pmem, cxl-pmem, e820-pmem:
# tools/vm --virtio-pmem, --cxl-pmem, --e820-pmem) and size of
# BENCH_PROVIDER_SIZES, one boot per approach of the stage (bench/approaches)
# with one device of that kind and size, its backing file on tmpfs where it
# fits (as the main stage's): the enable time of an fsdax namespace over all of
# it (wall, and kernel side: the bind write), the memmap bytes initialised at
# enable (sysfs) and the pmem bytes written (the host counts the non-zero
# blocks of the backing file; dram: the memmap is in RAM).  Then, for virtio-pmem, one boot onto that
# namespace per approach and BENCH_BOOT_REPS: the guest of a VMM whose data
# disk is a large virtio-pmem device, which the kernel enables at every boot
# (boot_userspace_s: printk of Run /init; boot_ns_ready_s: its block device).
# Measures are named KIND_MEASURE (virtio_enable_kernel_s...).
# Guest side: guest.sh here.  Rendered by bench/render: providers.
stage_host() {
	local kind k s bytes a policy opts dev ram bench_vm_dir=$VM_DIR
	for kind in $providers; do
		k=${kind%-pmem}
		for s in $provider_sizes; do
			bytes=$(to_bytes "$s")
			dev="--$kind 1x$s"
			[ "$kind" != e820-pmem ] || dev="--$kind $s"
			export VM_DIR=$bench_vm_dir
			if [ -d /dev/shm ] && [ $(( $(df -B1 --output=avail /dev/shm | tail -n 1) )) -ge $(( bytes / 32 + (1 << 30) )) ]; then
				export VM_DIR=$shm_dir
			fi
			for a in $(stage_approaches providers); do
				policy=$(approach_field "$a" memmap_init)
				# struct pages in DRAM (dram): RAM for them, as in the main stage
				ram=2
				[ "$a" != dram ] || ram=$(( 2 + $(gib $((bytes * 5 / 256))) ))
				progress "providers: $kind of $s, $a (backing files in $VM_DIR, ${ram} GiB RAM)"
				opts="-P bench -m ${ram}G $dev -a zone_device.memmap_init=$policy"
				# shellcheck disable=SC2086 # opts is a word list
				run_vm "bench-$k-$a-$s" "$bytes" "$a" "$opts" providers "$reps" "$a" "$kind" || continue
				"$TOP/tools/vm" --written "$out/host-written.bench-$k-$a-$s" |
					while read -r _ _ _ written _ _; do
						record "$a" "${k}_pmem_written_bytes" "$bytes" "$written" B
					done
				if [ "$kind" = virtio-pmem ]; then
					for rep in $(seq "$boot_reps"); do
						progress "providers: boot onto the $a namespace of $s ($rep/$boot_reps)"
						if run_vm "bench-$k-boot-$a-$s" "$bytes" "$a" "-k $opts" providers boot "$a" "$kind"; then
							t=$(sed -n 's/^\[ *\([0-9.]*\)\] Run \/init as init process.*/\1/p' "$LOGS/bench-$k-boot-$a-$s.log")
							[ -z "$t" ] || record "$a" "${k}_boot_userspace_s" "$bytes" "$t" s
						fi
					done
				fi
				rm -f "$VM_DIR/$kind"*.img "$VM_DIR"/cxl-lsa*.img
			done
			[ "$VM_DIR" = "$bench_vm_dir" ] || rm -rf "$shm_dir"
		done
	done
	export VM_DIR=$bench_vm_dir
}
