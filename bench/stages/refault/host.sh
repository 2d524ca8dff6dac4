# shellcheck shell=bash
# The refault stage (sourced by bench/run): the fault path once the struct pages
# are initialised.  One boot, an NVDIMM of BENCH_TOUCH_SIZE per approach of the
# stage; every namespace touched once, then BENCH_REFAULT_ROUNDS rounds of the
# same touches, approaches interleaved.  Guest side: guest.sh here.  Rendered by
# bench/render: refault.
stage_host() {
	refault_approaches=$(stage_approaches refault)
	if [ -n "$refault_approaches" ]; then
		n=$(wc -w <<< "$refault_approaches")
		progress "refault: one boot, $n NVDIMMs of $touch_size ($refault_approaches), $refault_rounds rounds"
		opts="$(pmem_backing $((n * $(to_bytes "$touch_size")))) -P bench -p ${n}x$touch_size"
		# shellcheck disable=SC2086 # a word list
		run_vm bench-refault "$(to_bytes "$touch_size")" "$refault_approaches" "$opts" refault "$refault_rounds" $refault_approaches || true
		rm -f "$VM_DIR"/pmem*.img
	fi
}
