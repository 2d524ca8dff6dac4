# shellcheck shell=sh
# Persistence, second boot on the same backing file: the namespace came back
# from its labels and the file written in the first boot is intact.

js=$(ns_json "$(ndctl list -N | jq -r '.[0].dev // .dev')")
is "$(echo "$js" | jq -r .mode)/$(echo "$js" | jq -r .map)" fsdax/dev "namespace back after reboot"
dev=$(echo "$js" | jq -r .blockdev)
lazy_again "$dev" "at boot"
mkdir -p /mnt/dax
check "mount -o dax" mount -o dax "/dev/$dev" /mnt/dax
check "file read back through a DAX mapping" dax-rw -S 42 verify /mnt/dax/persist
check "checksum of the first boot" sha256sum -c /mnt/dax/persist.sha256
umount /mnt/dax
