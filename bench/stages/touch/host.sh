# shellcheck shell=bash
# The touch stage (sourced by bench/run): the work stage's first touches again at
# BENCH_TOUCH_SIZE_LARGE, skipped when that equals BENCH_TOUCH_SIZE.  Guest side:
# guest.sh here.  Rendered by bench/render: touch.
stage_host() {
	[ "$(to_bytes "$touch_size_large")" != "$(to_bytes "$touch_size")" ] || return 0
	workload_boot touch "$touch_size_large" "$reps"
}
