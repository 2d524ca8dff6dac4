# shellcheck shell=sh
# Garbage in the memmap area: fill the start of the region with random bytes
# through a raw namespace, then create a lazy map=dev namespace on top of it,
# so its memmap reservation holds garbage.  dm-writecache puts the pmem's
# struct pages into its writeback bios; O_DIRECT pins them: all must work.

# garbage_under_memmap: random bytes over the first 32 MiB of the region,
# where the next map=dev namespace keeps its memmap
garbage_under_memmap() {
	pmem_reset
	js=$(ns_create -m raw -s "$GiB")
	dd if=/dev/urandom of="/dev/$(echo "$js" | jq -r .blockdev)" bs=1M count=32 2>/dev/null
	pmem_reset
}

garbage_under_memmap
js=$(ns_create -m fsdax --map=dev -s "$GiB") || not_ok "create: $(cat /tmp/ndctl.err)"
cache=/dev/$(echo "$js" | jq -r .blockdev)
is "$(memmap_attr "${cache#/dev/}" policy)" lazy "namespace over garbage is lazy"

origin=$(readlink -f /dev/disk-target)
dd if=/dev/urandom of=/tmp/wc.data bs=1M count=32 2>/dev/null
# a fresh cache: zero dm-writecache's superblock, in the data area, by block I/O
dd if=/dev/zero of="$cache" bs=1M count=1 oflag=direct 2>/dev/null
if dmsetup create wc --table "$(wc_table "$cache")"; then
	ok "writecache table over a lazy cache with a garbage memmap"
	check "32 MiB written through the cache" dd if=/tmp/wc.data of=/dev/mapper/wc bs=1M oflag=direct
	dmsetup message wc 0 flush
	dmsetup message wc 0 cleaner
	check "written back to the origin" wc_wait_clean
	dmsetup remove wc
	check "data on the origin device" cmp -n $((32 << 20)) /tmp/wc.data "$origin"
else
	not_ok "writecache table over a lazy cache with a garbage memmap"
fi
is "$(memmap_attr "${cache#/dev/}" complete)" 1 "writecache initialised the whole cache's memmap"

garbage_under_memmap
js=$(ns_create -m fsdax --map=dev -s "$GiB")
mount_dax "$(echo "$js" | jq -r .blockdev)" || not_ok "mount -o dax"
check "O_DIRECT DAX <-> virtio-blk over a garbage memmap" dax-dio -s 16M /mnt/dax/buf "$origin"
umount /mnt/dax
pmem_reset
