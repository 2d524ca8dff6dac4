# shellcheck shell=sh
# The background policy completes the memmap; disabling a namespace while its
# worker runs is clean and leaks nothing.  To be sure the disable comes while
# the worker runs, busy loops slow the nice-19 worker down meanwhile
# (cpu_hogs_start), and each cycle checks the worker and the memmap's counters
# right before it (and is tried again if the worker was done first).

pmem_reset
memmap_policy background
js=$(ns_create -m fsdax --map=dev -s $((2 * GiB))) || not_ok "create: $(cat /tmp/ndctl.err)"
dev=$(echo "$js" | jq -r .blockdev)
is "$(memmap_attr "$dev" policy)" background "policy background"
for _ in $(seq 600); do
	[ "$(memmap_attr "$dev" complete)" = 1 ] && break
	sleep 0.1
done
is "$(memmap_attr "$dev" complete)" 1 "the worker completed the memmap"
is "$(memmap_attr "$dev" initialized_bytes)" "$(memmap_attr "$dev" total_bytes)" "initialised = total"
pmem_reset

settled=$(mem_settled)
size=$(( $(cat /sys/bus/nd/devices/region0/size) ))
js=$(ns_create -m fsdax --map=dev -s "$size") || not_ok "create: $(cat /tmp/ndctl.err)"
ns=$(echo "$js" | jq -r .dev)
ndctl disable-namespace "$ns" >/dev/null 2>&1
for i in 1 2 3; do
	# a cycle that missed the worker is tried again, twice at most
	for try in 1 2 3; do
		cpu_hogs_start
		ndctl enable-namespace "$ns" >/dev/null 2>&1 || not_ok "enable $i"
		dev=$(ls "/sys/bus/nd/devices/$(cat "/sys/bus/nd/devices/$ns/holder")/block")
		# Right before the disable: the worker is alive, then the memmap is still
		# incomplete (so the worker, which only ends once it is complete, still runs)
		worker=$(memmap_worker "$ns")
		state="$(memmap_attr "$dev" complete) $(memmap_attr "$dev" initialized_bytes) $(memmap_attr "$dev" total_bytes)"
		ndctl disable-namespace "$ns" >/dev/null 2>&1 || not_ok "disable $i"
		cpu_hogs_stop
		# shellcheck disable=SC2086 # three numbers
		set -- $state
		[ -n "$worker" ] && [ "$1" = 0 ] && [ "$2" -lt "$3" ] && break
		diag "cycle $i, try $try: worker '$worker', complete $1, $2 of $3 bytes: the worker was done first"
	done
	if [ -n "$worker" ] && [ "$1" = 0 ] && [ "$2" -lt "$3" ]; then
		ok "cycle $i: disabled while $worker ran ($2 of $3 bytes of the memmap initialised)"
	else
		not_ok "cycle $i: not disabled during background init in 3 tries"
	fi
done
ndctl destroy-namespace -f all >/dev/null 2>&1
is "$(vmstat_val nr_memmap_lazy_pending)" 0 "no pending pages left in vmstat"
if grep -l '^memmap_init/' /proc/[0-9]*/comm >/dev/null 2>&1; then
	not_ok "a worker thread survived"
else
	ok "no worker thread left"
fi
no_leak "3 enable/disable cycles during background init" "$settled"
memmap_policy lazy
pmem_reset
