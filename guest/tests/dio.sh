# shellcheck shell=sh
# The __pfn_t cover letter's workload: O_DIRECT from a DAX-mapped pmem buffer to
# the virtio-blk disk and back into DAX, compared byte for byte, on a mount
# that is DAX indeed (dax=always in /proc/mounts, STATX_ATTR_DAX on the file).
# A raw namespace has no DAX: mounting it with -o dax must be refused cleanly,
# for that reason (ext4 says so), and the same file system mounts without it;
# but that of a label-less region (virtio-pmem, e820) has DAX, struct pages in RAM.

target=$(readlink -f /dev/disk-target)
for map in dev mem; do
	pmem_reset
	if ! js=$(ns_create -m fsdax --map=$map -s "$GiB"); then
		not_ok "map=$map: create: $(cat /tmp/ndctl.err)"
		continue
	fi
	dev=$(echo "$js" | jq -r .blockdev)
	if ! mount_dax "$dev"; then
		not_ok "map=$map: mount -o dax"
		continue
	fi
	check "map=$map: /dev/$dev mounted with dax=always" \
		grep -q "^/dev/$dev /mnt/dax ext4 [^ ]*dax=always" /proc/mounts
	# shellcheck disable=SC2046 # dio_args: options
	check "map=$map: O_DIRECT DAX -> virtio-blk -> DAX, $(dio_what), data identical" \
		dax-dio $(dio_args) /mnt/dax/buf "$target"
	check "map=$map: the buffer file is DAX (statx)" statx-dax /mnt/dax/buf
	umount /mnt/dax
done

pmem_reset
mkdir -p /mnt/dax
if label_less; then
	# the raw namespace of a label-less region has struct pages in RAM and DAX
	js=$(ns_create -m raw -s "$GiB") || not_ok "raw: create: $(cat /tmp/ndctl.err)"
	dev=$(echo "$js" | jq -r .blockdev)
	mkfs.ext4 -q -F "/dev/$dev" || not_ok "raw: mkfs.ext4 /dev/$dev"
	check "raw: label-less $(provider_kind) region: mount -o dax works" mount -o dax "/dev/$dev" /mnt/dax
	umount /mnt/dax 2>/dev/null
elif ! js=$(ns_create -m raw -s "$GiB"); then
	not_ok "raw: create: $(cat /tmp/ndctl.err)"
elif dev=$(echo "$js" | jq -r .blockdev) && ! mkfs.ext4 -q -F "/dev/$dev"; then
	not_ok "raw: mkfs.ext4 /dev/$dev"
else
	dmesg -c >/dev/null
	# EINVAL: the pattern cannot be "dax", which the mount point's name matches
	expect_fail "raw: mount -o dax refused" "invalid argument" \
		mount -o dax "/dev/$dev" /mnt/dax
	umount /mnt/dax 2>/dev/null
	check "raw: refused because /dev/$dev has no DAX (ext4's message)" \
		sh -c "dmesg | grep -F 'EXT4-fs ($dev): DAX unsupported by block device'"
	check "raw: the same file system mounts without -o dax" mount "/dev/$dev" /mnt/dax
	umount /mnt/dax 2>/dev/null
fi
pmem_reset
