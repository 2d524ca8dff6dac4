# shellcheck shell=sh
# Racing first touches through an fs-dax file on a lazy namespace.

pmem_reset
js=$(ns_create -m fsdax --map=dev -s $((2 * GiB))) || not_ok "create: $(cat /tmp/ndctl.err)"
dev=$(echo "$js" | jq -r .blockdev)
mount_dax "$dev" || not_ok "mount -o dax"
fallocate -l 256M /mnt/dax/f
check "8 threads race first touches of a 256 MiB DAX file, data right" \
	dax-touch -a 2M -t 8 -w /mnt/dax/f
umount /mnt/dax
pmem_reset
