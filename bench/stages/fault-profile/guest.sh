# shellcheck shell=sh
# Guest side of the fault-profile stage (sourced by bench/guest.sh):
#   fault-profile ROUNDS  where a lazy first touch spends its kernel time against
#                         an eager one, function by function

# prof_records APPROACH PHASE: the last profile, as records of APPROACH at size:
# profile_PHASE_FUNCTION_calls and profile_PHASE_FUNCTION_ms per function
prof_records() {
	cat "$TRACING"/trace_stat/function* |
		awk -v a="$1" -v ph="$2" -v s="$size" 'NF >= 3 && $2 ~ /^[0-9]+$/ { n[$1] += $2; t[$1] += $3 }
			END { for (f in n) printf "R %s profile_%s_%s_calls %d %d n\nR %s profile_%s_%s_ms %d %.3f ms\n",
				a, ph, f, s, n[f], a, ph, f, s, t[f] / 1000 }'
}

# fault_profile ROUNDS: a 512 MiB devdax namespace with 4 KiB mappings, rebound
# and touched once per approach (pmem-eager, pmem-lazy) in each round, their
# order alternating.  Per bind (phase "enable") and per touch pass (phase
# "touch"), the profiler's calls and time of handle_mm_fault(),
# lock_vma_under_rcu() (which no lazy code runs: the pass's drift),
# dax_set_mapping() (the in-line ready test), __pgmap_memmap_ensure() and
# memmap_init_zone_device_range(): eager's one call at enable against lazy's
# one per chunk in the faults, the same struct pages written.
fault_profile() {
	prof_setup handle_mm_fault lock_vma_under_rcu dax_set_mapping __pgmap_memmap_ensure \
		memmap_init_zone_device_range
	size=$((512 * MiB))
	if [ -z "$prof" ]; then
		unsup pmem-lazy profile_touch_handle_mm_fault_ms "$size" "no function profiler in this kernel"
		return 0
	fi
	pmem_reset
	memmap_policy eager
	if ! js=$(ndctl create-namespace -m devdax --map=dev -a 4K -s "$size" -r region0 2>&1); then
		unsup pmem-lazy profile_touch_handle_mm_fault_ms "$size" "ndctl create-namespace: $js"
		return 0
	fi
	dax=$(echo "$js" | jq -r '.daxregion.devices[0].chardev')
	nd=$(basename /sys/bus/nd/drivers/dax_pmem/dax0.*)
	for round in $(seq "$1"); do
		progress "fault profile: round $round/$1"
		for a in $(rotate "$round" pmem-eager pmem-lazy); do
			set_policy "$a"
			echo 1 > "$TRACING"/function_profile_enabled
			if ! err=$(rebind dax_pmem "$nd"); then
				unsup "$a" profile_enable_memmap_init_zone_device_range_ms "$size" "rebind $nd: $err"
				return 0
			fi
			echo 0 > "$TRACING"/function_profile_enabled
			prof_records "$a" enable
			for _ in $(seq 50); do [ -c "/dev/$dax" ] && break; sleep 0.1; done
			# shellcheck disable=SC2086 # two words
			if ! err=$(dax-touch $prof -a 4K "/dev/$dax" 2>&1); then
				unsup "$a" profile_touch_handle_mm_fault_ms "$size" "dax-touch: $err"
				return 0
			fi
			prof_records "$a" touch
		done
	done
	memmap_policy lazy
}

stage_guest() { fault_profile "$@"; }
