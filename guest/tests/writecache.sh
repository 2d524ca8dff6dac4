# shellcheck shell=sh
# dm-writecache with a pmem cache ("p" mode) over the virtio-blk disk: write
# through the cache, write everything back (cleaner mode), verify the origin.
# The writeback bios carry the pmem's struct pages to virtio-blk.  A raw
# namespace (no struct pages) is tested in pfn-io.sh.

origin=$(readlink -f /dev/disk-target)
dd if=/dev/urandom of=/tmp/wc.data bs=1M count=32 2>/dev/null

for map in dev mem; do
	pmem_reset
	if ! js=$(ns_create -m fsdax --map=$map -s "$GiB"); then
		not_ok "map=$map: create: $(cat /tmp/ndctl.err)"
		continue
	fi
	cache=/dev/$(echo "$js" | jq -r .blockdev)
	dd if=/dev/zero of="$origin" bs=1M count=64 oflag=direct 2>/dev/null
	# a fresh cache: zero dm-writecache's superblock.  map=mem's data start where the
	# map=dev namespace before kept its memmap: stale struct pages, or on a DEBUG_VM
	# kernel the 0xff poison of page_init_poison(), would be an "Invalid magic"
	dd if=/dev/zero of="$cache" bs=1M count=1 oflag=direct 2>/dev/null
	if ! dmsetup create wc --table "$(wc_table "$cache")"; then
		not_ok "map=$map: dmsetup create writecache"
		continue
	fi
	ok "map=$map: writecache table loaded"
	check "map=$map: 32 MiB written through the cache" \
		dd if=/tmp/wc.data of=/dev/mapper/wc bs=1M oflag=direct seek=8
	check "map=$map: flush" dmsetup message wc 0 flush
	dmsetup message wc 0 cleaner
	check "map=$map: cache written back to the origin" wc_wait_clean
	dmsetup remove wc
	check "map=$map: data on the origin device" \
		cmp -n $((32 << 20)) /tmp/wc.data "$origin" 0 $((8 << 20))
done

pmem_reset
