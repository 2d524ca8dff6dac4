# shellcheck shell=sh
# ext4 -o dax on an fsdax namespace (map=dev and map=mem): files are really DAX.

for map in dev mem; do
	pmem_reset
	if ! js=$(ns_create -m fsdax --map=$map -s "$GiB"); then
		not_ok "map=$map: create: $(cat /tmp/ndctl.err)"
		continue
	fi
	dev=$(echo "$js" | jq -r .blockdev)
	check "map=$map: mkfs.ext4 + mount -o dax" mount_dax "$dev"
	dd if=/dev/zero of=/mnt/dax/file bs=1M count=4 2>/dev/null
	check "map=$map: statx reports STATX_ATTR_DAX" statx-dax /mnt/dax/file
	umount /mnt/dax
done
pmem_reset
