# shellcheck shell=sh
# Memory failure on a never-touched page is handled as with eager: inject on
# a pfn in the middle of a fresh namespace through hwpoison-inject, once per
# policy, and compare what memory_failure() reports.

inject() {
	policy=$1
	pmem_reset
	memmap_policy "$policy"
	js=$(ns_create -m fsdax --map=dev -s "$GiB") || { not_ok "$policy: create"; return; }
	ns=$(echo "$js" | jq -r .dev)
	dev=$(echo "$js" | jq -r .blockdev)
	pfn_dev=$(cat "/sys/bus/nd/devices/$ns/holder")
	start=$(cat "/sys/bus/nd/devices/$pfn_dev/resource")
	pfn=$(( (start >> 12) + 100000 ))
	before=$(memmap_attr "$dev" initialized_bytes)
	dmesg -c >/dev/null
	echo "$pfn" > /sys/kernel/debug/hwpoison/corrupt-pfn 2>/dev/null
	result=$(dmesg | grep -o "recovery action for dax page: [A-Za-z]*" | head -n 1)
	after=$(memmap_attr "$dev" initialized_bytes)
	diag "$policy: pfn $pfn: '$result', memmap initialised $before -> $after"
	eval "result_$policy=\"\$result\""
	if [ "$policy" = lazy ]; then
		is "$after" $((before + $(memmap_attr "$dev" chunk_bytes))) "lazy: memory_failure initialised the page's chunk first"
	fi
}
inject eager
inject lazy
# shellcheck disable=SC2154 # set by eval in inject
if [ -n "$result_eager" ] && [ "$result_lazy" = "$result_eager" ]; then
	ok "lazy handles it as eager does: $result_lazy"
else
	not_ok "eager: '$result_eager', lazy: '$result_lazy'"
fi
pmem_reset
