# shellcheck shell=sh
# The background policy completes the memmap; disabling a namespace while its
# worker runs is clean and leaks nothing.

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

before=$(mem_free_kb)
size=$(( $(cat /sys/bus/nd/devices/region0/size) ))
for i in 1 2 3; do
	js=$(ns_create -m fsdax --map=dev -s "$size") || { not_ok "create $i: $(cat /tmp/ndctl.err)"; break; }
	ndctl disable-namespace all >/dev/null 2>&1 || not_ok "disable $i"
	ndctl destroy-namespace -f all >/dev/null 2>&1
done
ok "3 enable/disable cycles with the worker running"
pending=$(vmstat nr_memmap_lazy_pending)
is "$pending" 0 "no pending pages left in vmstat"
# shellcheck disable=SC2009 # busybox has no pgrep here
if ps -o comm | grep -q "^memmap_init"; then not_ok "a worker thread survived"; else ok "no worker thread left"; fi
after=$(mem_free_kb)
if [ $(( (before - after) * 100 )) -le "$before" ]; then ok "MemFree back within 1%"; else not_ok "MemFree $before -> $after kB"; fi
memmap_policy lazy
pmem_reset
