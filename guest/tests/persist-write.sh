# shellcheck shell=sh
# Persistence, first boot: an fsdax map=dev namespace with ext4 and a file
# written through a DAX mapping.  persist-verify reads it in the next boot.

pmem_reset
js=$(ns_create -m fsdax --map=dev -s "$GiB") || not_ok "create: $(cat /tmp/ndctl.err)"
dev=$(echo "$js" | jq -r .blockdev)
check "mkfs.ext4 + mount -o dax" mount_dax "$dev"
dd if=/dev/zero of=/mnt/dax/persist bs=1M count=32 2>/dev/null
check "32 MiB written through a DAX mapping" dax-rw -S 42 write /mnt/dax/persist
sha256sum /mnt/dax/persist > /tmp/sum
cp /tmp/sum /mnt/dax/persist.sha256
umount /mnt/dax
