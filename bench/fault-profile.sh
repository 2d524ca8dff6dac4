# shellcheck shell=sh
# Guest side of bench/fault-profile (busybox sh): sh fault-profile.sh ROUNDS
# shellcheck source=../guest/lib/pmem.sh
. /usr/share/pmem-tests/lib/pmem.sh

rounds=$1
T=/sys/kernel/tracing
[ -e $T/function_profile_enabled ] || mount -t tracefs nodev $T
: > $T/set_ftrace_filter
for f in handle_mm_fault lock_vma_under_rcu dax_set_mapping __pgmap_memmap_ensure; do
	echo "$f" >> $T/set_ftrace_filter || { echo "$f cannot be traced"; exit 1; }
done
echo 1 > $T/options/graph-time
pmem_reset
memmap_policy eager
js=$(ndctl create-namespace -m devdax --map=dev -a 4K -s 512M -r region0) || exit 1
dax=$(echo "$js" | jq -r '.daxregion.devices[0].chardev')
nd=$(basename /sys/bus/nd/drivers/dax_pmem/dax0.*)
for round in $(seq "$rounds"); do
	if [ $((round % 2)) = 1 ]; then order="lazy eager"; else order="eager lazy"; fi
	for policy in $order; do
		memmap_policy "$policy"
		echo "$nd" > /sys/bus/nd/drivers/dax_pmem/unbind
		echo "$nd" > /sys/bus/nd/drivers/dax_pmem/bind
		for _ in $(seq 50); do [ -c "/dev/$dax" ] && break; sleep 0.1; done
		# -P: the profiler on for the touch pass only; enabling it resets it
		dax-touch -P $T/function_profile_enabled -a 4K "/dev/$dax" > /dev/null || exit 1
		cat $T/trace_stat/function* |
			awk -v r="$round" -v p="$policy" 'NF >= 3 && $2 ~ /^[0-9]+$/ { n[$1] += $2; t[$1] += $3 }
				END { for (f in n) printf "round %d %-5s %-22s %7d calls %8.1f ms %7.1f ns/call\n",
					r, p, f, n[f], t[f] / 1000, t[f] * 1000 / n[f] }' | sort -k4
	done
done
memmap_policy lazy
