# shellcheck shell=sh
# The host must agree with the lazy counters: enable a map=dev devdax namespace filling
# the (fresh, sparse) NVDIMM, touch 16 scattered pages, and ask tools/run-tests to count
# the written blocks of the backing file in the namespace's memmap area afterwards: at
# most one chunk of struct pages for the enable and one per touched page.  The struct
# pages of the memmap's own pfns are not written either (lazy-memmap patch 11).  Run it
# alone in its boot, on new backing files, and leave the namespace in place.

TOUCHED=16
pmem_reset
size=$(( $(cat /sys/bus/nd/devices/region0/size) ))
memmap0=$(vmstat nr_memmap_pages)
js=$(ns_create -m devdax -s "$size") || not_ok "create: $(cat /tmp/ndctl.err)"
ns=$(echo "$js" | jq -r .dev)
dax=$(echo "$js" | jq -r '.daxregion.devices[0].chardev')
chunk=$(memmap_attr "$dax" chunk_bytes)
# Aligned to 2 MiB, its memmap is deduplicated (patches/compound-altmap, checked by
# devdax-dedup): a chunk's struct pages are then 2 vmemmap pages, not 8
chunk_written=$chunk
if [ $(( $(vmstat nr_memmap_pages) - memmap0 )) = "$(memmap_pages_dedup "$size")" ]; then
	chunk_written=$((2 * 4096))
fi
diag "struct pages of a chunk: $chunk bytes, $chunk_written of them in the memmap area"
check "$TOUCHED random pages touched" dax-touch -a 2M -r "$TOUCHED" -S 5 -w "/dev/$dax"
done1=$(memmap_attr "$dax" initialized_bytes)
max=$(( (1 + TOUCHED) * chunk ))
if [ "$done1" -le "$max" ]; then ok "initialised $done1 bytes, at most $((1 + TOUCHED)) chunks"; else not_ok "initialised $done1 bytes > $max"; fi

# The memmap lies between the info block and the start of the pfn device's data.
area=$(memmap_area "$ns")
off=${area% *} len=${area#* }
total=$(memmap_attr "$dax" total_bytes)
# The struct pages of the pfns that hold the memmap itself (the altmap's, after the
# 8 KiB reserve) are in the memmap area too; eager writes them at enable
# (move_pfn_range_to_zone), lazy leaves them alone.
self=$(( (len >> 12) * STRUCT_PAGE ))
diag "$((size >> 30)) GiB devdax $ns: memmap area: file bytes [$off, +$len)"
diag "struct pages of the data: $total bytes, initialised $done1; of the memmap's own pfns: $self"
if [ "$len" -ge $((total + self)) ]; then
	ok "memmap area ($len bytes) holds the memmap ($((total + self)))"
else
	not_ok "memmap area of $len bytes < memmap total $((total + self))"
fi
sync
# written bytes the host may find: one chunk of struct pages per touch and for the
# enable
host_written 0 "$off" "$len" "max=$(( (1 + TOUCHED) * chunk_written ))"
