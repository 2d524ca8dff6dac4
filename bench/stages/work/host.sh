# shellcheck shell=bash
# The work stage (sourced by bench/run): one boot, an NVDIMM of BENCH_TOUCH_SIZE
# per approach of the stage and a virtio-blk disk: first touch (devdax and a DAX
# file, 4 KiB and 2 MiB mappings, with enable; wall and kernel time of the
# faults), O_DIRECT from a DAX mapping to the disk, and dm-writecache with a
# pmem cache (fio).  Guest side: guest.sh here.  Rendered by bench/render:
# touch, dio, writecache.
stage_host() {
	work_approaches=$(stage_approaches work)
	if [ -n "$work_approaches" ]; then
		n=$(wc -w <<< "$work_approaches")
		progress "workloads: one boot, $n NVDIMMs of $touch_size, 1 GiB virtio-blk disk"
		opts="$(pmem_backing $((n * $(to_bytes "$touch_size")))) -P bench -p ${n}x$touch_size -d 1G"
		# shellcheck disable=SC2086 # a word list
		run_vm bench-work "$(to_bytes "$touch_size")" "$work_approaches" "$opts" work "$reps" $work_approaches || true
		rm -f "$VM_DIR"/pmem*.img "$VM_DIR/target.img"
	fi
}
