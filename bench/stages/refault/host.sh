# shellcheck shell=bash
# The refault stage (sourced by bench/run): the fault path once the struct pages
# are initialised.  One boot, an NVDIMM of BENCH_TOUCH_SIZE per approach of the
# stage; every namespace touched once, then BENCH_REFAULT_ROUNDS rounds of the
# same touches, approaches interleaved.  Guest side: guest.sh here.  Rendered by
# bench/render: refault.
stage_host() { workload_boot refault "$touch_size" "$refault_rounds"; }
