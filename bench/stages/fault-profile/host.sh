# shellcheck shell=bash
# The fault-profile stage (sourced by bench/run; not in the default
# BENCH_STAGES): where a lazy first touch spends its kernel time against an
# eager one.  One boot, one 512 MiB devdax namespace (--map=dev, -a 4K) on an
# NVDIMM in host RAM; BENCH_PROFILE_ROUNDS rounds (6), each rebinding it once
# per approach (pmem-eager, pmem-lazy) and touching every page, their order
# alternating from round to round.  The ftrace function profiler (graph time)
# sums per bind (phase enable) and per touch pass (phase touch):
# handle_mm_fault(); lock_vma_under_rcu(), which no lazy code touches (the
# pass's drift); dax_set_mapping(), where the in-line ready test is;
# __pgmap_memmap_ensure(), the out-of-line call;
# memmap_init_zone_device_range(), which writes the struct pages: once for the
# whole namespace in eager's bind, once per chunk in lazy's faults.  Records
# profile_PHASE_FUNCTION_ms and _calls.  Guest side: guest.sh here.  Rendered
# by bench/render: fault-profile.

stage_host() {
	progress "fault profile: one boot, a 512 MiB devdax namespace, $profile_rounds rounds"
	opts="-P bench --pmem-in-ram -p 1x1G"
	run_vm bench-fault-profile $((512 << 20)) "pmem-eager pmem-lazy" "$opts" fault-profile "$profile_rounds" || true
	rm -f "$VM_DIR"/pmem*.img
}
