# shellcheck shell=bash
# The stock stage (sourced by bench/run; not in the default BENCH_STAGES): the
# kernel-side enable time (nd_pmem bind write) of an eager --map=dev namespace on
# Debian's 6.12 without the series (build/obj/stock, from
# kernel-config/base.config: the series' KUnit options are the only difference)
# against the kernel with it, in eager mode: mainline's own cost, and what the
# series' template copy (lazy-memmap 0003) changes in it.  BENCH_STOCK_ROUNDS
# rounds (3) of one boot per kernel and size of BENCH_STOCK_SIZES (4G 64G), the
# kernels alternating, BENCH_REPS enables per boot.  Records
# enable_kernel_vs_stock_s of rows stock-$KERNEL and pmem-eager.  Guest side: the
# main stage's, pmem-eager only.  Rendered by bench/render: stock.

# stock_record APPROACH MEASURE SIZE VALUE UNIT (run_vm's record_fn): the main
# stage's enable_kernel_s of the boot's kernel, as enable_kernel_vs_stock_s of
# its row
stock_record() {
	[ "$2" = enable_kernel_s ] && record "$stock_row" enable_kernel_vs_stock_s "$3" "$4" "$5"
	return 0
}

stage_host() {
	local round kernel s
	if [ -z "$(series_patches)" ]; then
		status "stock-$KERNEL" enable_kernel_vs_stock_s 0 skipped "$KERNEL has no series: its kernel is stock"
		return 0
	fi
	progress "stock: building Debian's 6.12 without the series (build/obj/stock) if needed"
	if ! build_commit stock pristine "$TOP/kernel-config/base.config" > "$LOGS/bench-stock-build.log" 2>&1; then
		status "stock-$KERNEL" enable_kernel_vs_stock_s 0 failed "building ${KOBJ#"$TOP"/}/stock failed: ${LOGS#"$TOP"/}/bench-stock-build.log"
		return 0
	fi
	for round in $(seq "$stock_rounds"); do
		for kernel in stock default; do
			stock_row=pmem-eager
			[ "$kernel" = default ] || stock_row=stock-$KERNEL
			for s in $stock_sizes; do
				progress "stock: round $round/$stock_rounds, $kernel kernel, $s"
				rm -f "$VM_DIR"/pmem*.img
				opts="-P bench -K $kernel -p 1x$s"
				record_fn=stock_record run_vm "bench-stock-$kernel-$s" "$(to_bytes "$s")" "$stock_row" "$opts" \
					main "$reps" pmem-eager || true
			done
		done
	done
	rm -f "$VM_DIR"/pmem*.img
}
