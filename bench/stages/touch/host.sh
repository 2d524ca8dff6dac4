# shellcheck shell=bash
# The touch stage (sourced by bench/run): the work stage's first touches again at
# BENCH_TOUCH_SIZE_LARGE, skipped when that equals BENCH_TOUCH_SIZE.  Guest side:
# guest.sh here.  Rendered by bench/render: touch.
stage_host() {
	touch_approaches=$(stage_approaches touch)
	if [ -n "$touch_approaches" ] && [ "$(to_bytes "$touch_size_large")" != "$(to_bytes "$touch_size")" ]; then
		n=$(wc -w <<< "$touch_approaches")
		progress "first touch at $touch_size_large: one boot, $n NVDIMMs ($touch_approaches)"
		opts="$(pmem_backing $((n * $(to_bytes "$touch_size_large")))) -P bench -p ${n}x$touch_size_large"
		# shellcheck disable=SC2086 # a word list
		run_vm bench-touch-large "$(to_bytes "$touch_size_large")" "$touch_approaches" "$opts" touch "$reps" $touch_approaches || true
		rm -f "$VM_DIR"/pmem*.img
	fi
}
