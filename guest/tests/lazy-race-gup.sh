# shellcheck shell=sh
# Racing first touches through GUP: the kernel's own gup_test (CONFIG_GUP_TEST,
# tools/testing/selftests/mm) has 8 threads (-j) pin or get the pages of the same
# never-touched 64 MiB MAP_SHARED mapping at once, faulting them in inside GUP (-z),
# through an fs-dax file and through /dev/daxX.Y.  The data (a seeded stream written
# by write()/block I/O before, which initialises no struct page) must read back through
# a mapping, every pin must be released (vmstat, and the namespace can be torn down),
# and each chunk must be initialised at most once.  tools/vm fails the run on any
# kernel warning.

SIZE_MB=$GUP_MB

# chunks_in DEV: how many of DEV's memmap chunks SIZE_MB of its data spans, aligned
chunks_in() {
	echo $(( (SIZE_MB * MiB >> 12) * STRUCT_PAGE / $(memmap_attr "$1" chunk_bytes) ))
}

# chunks_once WHAT DEV BEFORE AFTER MAXCHUNKS: the race initialised something, and at
# most one chunk's struct pages of DEV per chunk it touched
chunks_once() {
	co_max=$(($5 * $(memmap_attr "$2" chunk_bytes)))
	if [ "$4" -gt "$3" ] && [ "$4" -le $(($3 + co_max)) ]; then
		ok "$1: initialised bytes $3 -> $4, at most $5 chunks"
	else
		not_ok "$1: initialised bytes $3 -> $4 (want more, and at most $5 chunks: $co_max)"
	fi
}

pmem_reset
dax-rw -s "${SIZE_MB}M" -S 7 write /tmp/pattern >/dev/null
settled=$(mem_settled)

# --- fs-dax file: one FOLL_PIN race, one FOLL_GET race, each on its own file
js=$(ns_create -m fsdax --map=dev -s $((2 * GiB))) || not_ok "fsdax create: $(cat /tmp/ndctl.err)"
dev=$(echo "$js" | jq -r .blockdev)
mount_dax "$dev" || not_ok "mount -o dax"
for f in pinned got; do
	dd if=/tmp/pattern of=/mnt/dax/$f bs=1M conv=fsync 2>/dev/null || not_ok "write /mnt/dax/$f"
done
i0=$(memmap_attr "$dev" initialized_bytes)
diag "fsdax: memmap initialised after enable, mkfs and write(): $i0 bytes"
pins_mark
gup_race "fsdax: $GUP_THREADS threads pin (FOLL_PIN) a never-touched ${SIZE_MB} MiB file at once" \
	-a -f /mnt/dax/pinned
pins_released "fsdax"
gup_race "fsdax: $GUP_THREADS threads get (FOLL_GET) a never-touched ${SIZE_MB} MiB file at once" \
	-u -f /mnt/dax/got
i1=$(memmap_attr "$dev" initialized_bytes)
# an extent need not start on a 2 MiB boundary: one more chunk per file
chunks_once "fsdax" "$dev" "$i0" "$i1" $((2 * ($(chunks_in "$dev") + 1)))
check "fsdax: pinned file's data right through a mapping" dax-rw -S 7 verify /mnt/dax/pinned
check "fsdax: got file's data right through a mapping" dax-rw -S 7 verify /mnt/dax/got
umount /mnt/dax
teardown "fsdax"

# --- /dev/daxX.Y: the stream goes in through the block device of an fsdax
# namespace, which then becomes devdax (same info block geometry, same data offset)
pmem_reset
js=$(ns_create -m fsdax --map=dev -s "$GiB") || not_ok "devdax: create: $(cat /tmp/ndctl.err)"
ns=$(echo "$js" | jq -r .dev)
dd if=/tmp/pattern of="/dev/$(echo "$js" | jq -r .blockdev)" bs=1M oflag=direct 2>/dev/null ||
	not_ok "devdax: write the stream through the block device"
dax=$(ndctl create-namespace -f -e "$ns" -m devdax 2>/tmp/ndctl.err | jq -r '.daxregion.devices[0].chardev')
[ -c "/dev/$dax" ] || not_ok "devdax: reconfigure $ns: $(cat /tmp/ndctl.err)"
i0=$(memmap_attr "$dax" initialized_bytes)
diag "devdax: memmap initialised after enable: $i0 bytes"
pins_mark
gup_race "devdax: $GUP_THREADS threads pin (FOLL_PIN) never-touched ${SIZE_MB} MiB of /dev/$dax at once" \
	-a -f "/dev/$dax"
pins_released "devdax"
i1=$(memmap_attr "$dax" initialized_bytes)
chunks_once "devdax" "$dax" "$i0" "$i1" "$(chunks_in "$dax")"
check "devdax: data right through a mapping" dax-rw -s "${SIZE_MB}M" -S 7 verify "/dev/$dax"
teardown "devdax"

pending=$(vmstat_val nr_memmap_lazy_pending)
is "$pending" 0 "no pending struct pages left in vmstat"
no_leak "GUP races on fsdax and devdax" "$settled"
rm -f /tmp/pattern
pmem_reset
