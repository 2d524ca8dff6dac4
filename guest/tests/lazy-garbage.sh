# shellcheck shell=sh
# Garbage in the memmap area: fill the start of the region with random bytes
# through a raw namespace, then create a lazy map=dev namespace on top of it,
# so its memmap reservation holds garbage (checked: read back from the media,
# and where the namespace's memmap area is).  dm-writecache puts the pmem's
# struct pages into its writeback bios; O_DIRECT pins them: all must work.

# over_garbage WHAT: js = a lazy fsdax map=dev namespace of 1 GiB over garbage
# (garbage_fill); fails unless the garbage is in its memmap area
over_garbage() {
	garbage_fill "$GiB" || { not_ok "$1: garbage not written to the region"; return 1; }
	js=$(ns_create -m fsdax --map=dev -s "$GiB") || { not_ok "$1: create: $(cat /tmp/ndctl.err)"; return 1; }
	if out=$(garbage_covers "$(echo "$js" | jq -r .dev)"); then
		ok "$1: garbage in the memmap area ($out)"
	else
		not_ok "$1: garbage not in the memmap area ($out)"
		return 1
	fi
}

origin=$(readlink -f /dev/disk-target)
if over_garbage writecache; then
	cache=/dev/$(echo "$js" | jq -r .blockdev)
	is "$(memmap_attr "${cache#/dev/}" policy)" lazy "namespace over garbage is lazy"
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
	rm -f /tmp/wc.data
fi

if over_garbage dio; then
	if mount_dax "$(echo "$js" | jq -r .blockdev)"; then
		check "O_DIRECT DAX <-> virtio-blk over a garbage memmap" dax-dio -s 16M /mnt/dax/buf "$origin"
		umount /mnt/dax
	else
		not_ok "mount -o dax"
	fi
fi
pmem_reset
