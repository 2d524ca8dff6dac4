# shellcheck shell=sh
# A --map=dev devdax namespace reconfigured to system-ram (dax_kmem) and back,
# under the lazy and the eager policy: the memory is onlined into the region's
# target node (the NVDIMMs' own NUMA node), used through a tmpfs bound to that
# node, offlined again, and the devdax instance that comes back has a memmap of
# the policy in force, lazy from its first chunk again, and works.  The memmap
# counters of /proc/vmstat follow the pagemap going away and coming back:
# nr_memmap_pages counts the vmemmap of the pagemap's whole range (in 6.12 also
# what the altmap provides; deduplicated, patches/compound-altmap), then that of
# the onlined memory blocks.

# node_kb NODE FIELD: a field of /sys/devices/system/node/nodeNODE/meminfo, in kB
node_kb() {
	awk -v f="$2:" '$3 == f { print $4 }' "/sys/devices/system/node/node$1/meminfo" 2>/dev/null
}
kmem_blocks() { daxctl list -d "$1" | jq -r '.[0] | "\(.online_memblocks // 0)/\(.total_memblocks // 0)"'; }
block_bytes=$(( 0x$(cat /sys/devices/system/memory/block_size_bytes) ))

policy_before=$(cat /sys/module/zone_device/parameters/memmap_init)
for policy in lazy eager; do
	pmem_reset
	memmap_policy "$policy"
	base_pending=$(vmstat nr_memmap_lazy_pending)
	base_memmap=$(vmstat nr_memmap_pages)
	if ! js=$(ns_create -m devdax --map=dev -a 2M -s "$GiB"); then
		not_ok "$policy: create: $(cat /tmp/ndctl.err)"
		continue
	fi
	dax=$(echo "$js" | jq -r '.daxregion.devices[0].chardev')
	node=$(cat "/sys/bus/dax/devices/$dax/target_node")
	is "$(memmap_attr "$dax" policy)" "$policy" "$policy: $dax has a $policy memmap"
	pending=$(vmstat nr_memmap_lazy_pending)
	memmap_pages=$(vmstat nr_memmap_pages)
	is "$memmap_pages" $((base_memmap + $(memmap_pages_dedup "$GiB"))) \
		"$policy: vmstat: nr_memmap_pages counts the deduplicated vmemmap of the namespace"
	total_kb=$(mem_total_kb)

	if ! out=$(daxctl reconfigure-device --mode=system-ram "$dax" 2>&1); then
		not_ok "$policy: reconfigure $dax to system-ram"
		printf '%s\n' "$out" | sed 's/^/#   /'
		continue
	fi
	ok "$policy: reconfigure $dax to system-ram"
	blocks=$(kmem_blocks "$dax")
	case $blocks in
	0/*|*/0) not_ok "$policy: memory blocks online: $blocks" ;;
	*) is "${blocks%/*}" "${blocks#*/}" "$policy: every memory block of $dax online ($blocks)" ;;
	esac
	if [ -d "/sys/bus/dax/devices/$dax/memmap" ]; then
		not_ok "$policy: the memmap group is still there under kmem"
	else
		ok "$policy: no memmap group without device_dax"
	fi
	is "$(vmstat nr_memmap_lazy_pending)" "$base_pending" \
		"$policy: vmstat: the pagemap's pending pages are gone"
	is "$(vmstat nr_memmap_pages)" \
		$((base_memmap + $(memmap_pages $((${blocks#*/} * block_bytes))))) \
		"$policy: vmstat: nr_memmap_pages counts the vmemmap of the ${blocks#*/} memory blocks instead"
	if [ "$(mem_total_kb)" -gt $((total_kb + 512 * 1024)) ]; then
		ok "$policy: MemTotal grew by more than 512 MiB"
	else
		not_ok "$policy: MemTotal $total_kb -> $(mem_total_kb) kB"
	fi
	node_total=$(node_kb "$node" MemTotal)
	if [ "${node_total:-0}" -gt $((512 * 1024)) ]; then
		ok "$policy: the memory is in node $node, the target node (${node_total} kB)"
	else
		not_ok "$policy: node $node has MemTotal '${node_total}' kB"
	fi

	# Use it: 256 MiB of tmpfs pages bound to that node, written and read back.
	mkdir -p /mnt/kmem
	head -c "$MiB" /dev/urandom > /tmp/kmem.pat
	shmem=$(node_kb "$node" Shmem)
	if mount -t tmpfs -o "size=300M,mpol=bind:$node" tmpfs /mnt/kmem; then
		i=0
		while [ $i -lt 256 ]; do cat /tmp/kmem.pat; i=$((i + 1)); done > /mnt/kmem/data
		# (node counters lag behind by their per-cpu deltas)
		used=$(( $(node_kb "$node" Shmem) - shmem ))
		if [ "$used" -ge $((250 * 1024)) ]; then
			ok "$policy: 256 MiB of tmpfs data in node $node"
		else
			not_ok "$policy: node $node Shmem grew by $used kB only"
		fi
		bad=0
		i=0
		while [ $i -lt 256 ]; do
			dd if=/mnt/kmem/data bs=1M skip=$i count=1 2>/dev/null | cmp -s - /tmp/kmem.pat || bad=$((bad + 1))
			i=$((i + 1))
		done
		is "$bad" 0 "$policy: the data reads back (MiB that differ)"
		umount /mnt/kmem
	else
		not_ok "$policy: tmpfs with mpol=bind:$node"
	fi

	if ! out=$(daxctl reconfigure-device --mode=devdax -f "$dax" 2>&1); then
		not_ok "$policy: reconfigure $dax back to devdax"
		printf '%s\n' "$out" | sed 's/^/#   /'
		continue
	fi
	ok "$policy: reconfigure $dax back to devdax"
	is "$(vmstat nr_memmap_pages)" "$memmap_pages" \
		"$policy: vmstat: nr_memmap_pages back to the namespace's"
	is "$(memmap_attr "$dax" policy)" "$policy" "$policy: the devdax memmap is $policy again"
	if [ "$policy" = lazy ]; then
		is "$(memmap_attr "$dax" initialized_bytes)" "$(memmap_attr "$dax" chunk_bytes)" \
			"lazy: only the first chunk is initialised again"
		is "$(vmstat nr_memmap_lazy_pending)" "$pending" "lazy: vmstat: as many pending pages as before"
	else
		is "$(memmap_attr "$dax" complete)" 1 "eager: the memmap is complete"
	fi
	check "$policy: write through mmap of /dev/$dax" dax-rw -a 2M -s 64M -S 11 write "/dev/$dax"
	check "$policy: read it back" dax-rw -a 2M -s 64M -S 11 verify "/dev/$dax"
done
rm -f /tmp/kmem.pat
memmap_policy "$policy_before"
pmem_reset
