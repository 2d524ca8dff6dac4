# shellcheck shell=sh
# The __pfn_t cover letter's workload: O_DIRECT from a DAX-mapped pmem buffer to
# the virtio-blk disk and back into DAX, compared byte for byte.  A raw
# namespace has no DAX: mounting it with -o dax must be refused cleanly.

target=$(readlink -f /dev/disk-target)
for map in dev mem; do
	pmem_reset
	if ! js=$(ns_create -m fsdax --map=$map -s "$GiB"); then
		not_ok "map=$map: create: $(cat /tmp/ndctl.err)"
		continue
	fi
	if ! mount_dax "$(echo "$js" | jq -r .blockdev)"; then
		not_ok "map=$map: mount -o dax"
		continue
	fi
	check "map=$map: O_DIRECT DAX -> virtio-blk -> DAX, 16 MiB, data identical" \
		dax-dio -s 16M /mnt/dax/buf "$target"
	umount /mnt/dax
done

pmem_reset
js=$(ns_create -m raw -s "$GiB")
dev=$(echo "$js" | jq -r .blockdev)
mkfs.ext4 -q -F "/dev/$dev"
mkdir -p /mnt/dax
expect_fail "raw: mount -o dax refused" "invalid|not supported|unsupported|dax" \
	mount -o dax "/dev/$dev" /mnt/dax
umount /mnt/dax 2>/dev/null
pmem_reset
