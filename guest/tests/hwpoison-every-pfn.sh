# shellcheck shell=sh
# A media error can hit any pfn of a namespace: memory failure on the info
# block, the memmap area, the first, a never-touched and the last data pfn of
# fsdax and devdax namespaces (map=dev and map=mem; devdax aligned to 4 KiB,
# 2 MiB and 1 GiB), over a memmap area that holds garbage, in every policy.  No oops (tools/vm fails the group on one),
# and for each pfn the result memory_failure() reports is eager's.  A data
# pfn is counted on the node of its region: the node id in the lazily
# initialised struct page is right.

# mf_total: memory failures counted on every node, one number per node
mf_total() { cat /sys/devices/system/node/node*/memory_failure/total | tr '\n' ' '; }

# one_namespace POLICY MODE MAP [ALIGN [SIZE]]: one namespace (1 GiB, the mode's
# default alignment) over garbage, five pfns
one_namespace() {
	policy=$1 mode=$2 map=$3 align=${4:-} size=${5:-$GiB}
	key=$2_$3${4:+_$4}
	garbage_fill "$size" || { not_ok "$policy $key: garbage not written to the region"; return; }
	memmap_policy "$policy"
	js=$(ns_create -m "$mode" --map="$map" ${align:+-a "$align"} -s "$size") ||
		{ not_ok "$policy $key: create: $(cat /tmp/ndctl.err)"; return; }
	ns=$(echo "$js" | jq -r .dev)
	# map=mem has no memmap area: its first data pfns are over the garbage
	[ "$map" = mem ] || out=$(garbage_covers "$ns") ||
		not_ok "$policy $key: garbage not in the memmap area ($out)"
	# the device of the data: a pfn-mode namespace's pfn or dax device; on a
	# label-less region fsdax map=mem is the raw namespace itself (struct pages
	# in RAM, no info block: its "info" and "memmap" pfns are data too)
	holder=$(cat "/sys/bus/nd/devices/$ns/holder")
	holder=/sys/bus/nd/devices/${holder:-$ns}
	ns_start=$(($(cat "/sys/bus/nd/devices/$ns/resource")))
	data=$(($(cat "$holder/resource") >> 12))
	end=$(( ($(cat "$holder/resource") + $(cat "$holder/size")) >> 12 ))
	node=$(cat "/sys/bus/nd/devices/$(basename "$(readlink -f "/sys/bus/nd/devices/$ns/..")")/numa_node")
	results=
	for what in info:$(( (ns_start >> 12) + 1 )) memmap:$(( (ns_start >> 12) + 16 )) \
		first:$data untouched:$(( (data + end) / 2 )) last:$((end - 1)); do
		name=${what%%:*} pfn=${what#*:}
		before=$(cat "/sys/devices/system/node/node$node/memory_failure/total")
		r=$(hwpoison_inject "$pfn")
		after=$(cat "/sys/devices/system/node/node$node/memory_failure/total")
		diag "$policy $key $name pfn $pfn: '$r', node$node total $before -> $after"
		[ -n "$r" ] || not_ok "$policy $key $name: no result from memory_failure()"
		results="$results $name=$r"
		case $name in
		first|untouched|last)
			[ "$after" = $((before + 1)) ] ||
				not_ok "$policy $key $name: not counted on node $node ($before -> $after; all: $(mf_total))" ;;
		esac
	done
	if [ "$policy" = eager ]; then
		eval "eager_$key=\"\$results\""
		ok "eager $key:$results"
	else
		eval "want=\$eager_$key"
		# shellcheck disable=SC2154 # set by eval
		is "$results" "$want" "$policy $key: every pfn handled as eager handles it"
	fi
}

for policy in eager lazy background; do
	one_namespace "$policy" fsdax dev
	one_namespace "$policy" fsdax mem
	one_namespace "$policy" devdax dev
	one_namespace "$policy" devdax dev 4K
	one_namespace "$policy" devdax dev 1G $((3 * GiB))
done
memmap_policy lazy
pmem_reset
