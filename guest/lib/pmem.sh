# shellcheck shell=sh
# Namespace helpers for the guest tests.

MiB=$((1 << 20))
GiB=$((1 << 30))

# Remove every namespace of every region: each test starts from an empty region.
pmem_reset() {
	ndctl disable-namespace all >/dev/null 2>&1 || true
	ndctl destroy-namespace -f all >/dev/null 2>&1 || true
}

# ns_create ARGS...: create a namespace, print its ndctl JSON on one line
ns_create() {
	ndctl create-namespace "$@" 2>/tmp/ndctl.err | jq -c .
}

# region_size: available capacity of region0 in bytes
region_size() {
	ndctl list -R -r region0 | jq '.[0].size // .size'
}

# mem_free_kb: MemFree from /proc/meminfo
mem_free_kb() { awk '/^MemFree:/ { print $2 }' /proc/meminfo; }

# Format and mount an fsdax namespace's block device with -o dax at /mnt/dax.
mount_dax() {
	mkdir -p /mnt/dax
	mkfs.ext4 -q -F -b 4096 "/dev/$1" && mount -o dax "/dev/$1" /mnt/dax
}
