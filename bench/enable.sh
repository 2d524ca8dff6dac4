# shellcheck shell=sh
# Guest side of bench/run: enable time of one map=dev namespace filling the
# region, per policy, REPS times; one line per measurement:
#   policy size_bytes seconds initialized_bytes total_bytes
# shellcheck source=../guest/lib/pmem.sh
. /usr/share/pmem-tests/lib/pmem.sh
reps=${1:-3}
size=$(( $(cat /sys/bus/nd/devices/region0/size) ))
for policy in eager lazy; do
	memmap_policy "$policy"
	for _ in $(seq "$reps"); do
		pmem_reset
		t0=$(cut -d' ' -f1 /proc/uptime)
		name=$(ndctl create-namespace -m fsdax --map=dev -s "$size" | jq -r .blockdev)
		t1=$(cut -d' ' -f1 /proc/uptime)
		echo "$policy $size $(awk "BEGIN { print $t1 - $t0 }") $(memmap_attr "$name" initialized_bytes) $(memmap_attr "$name" total_bytes)"
	done
done
