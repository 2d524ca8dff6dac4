# shellcheck shell=sh
# A CXL pmem region torn down under a lazy fsdax --map=dev namespace (enabled,
# part of its memmap initialised) and assembled again: the teardown ends in
# time and leaks nothing, and the namespace comes back from the labels on the
# device, lazy again, with the data written through DAX before.

pmem_reset
settled=$(mem_settled)
js=$(ns_create -m fsdax --map=dev -s "$GiB") || not_ok "create: $(cat /tmp/ndctl.err)"
dev=$(echo "$js" | jq -r .blockdev)
uuid=$(echo "$js" | jq -r .uuid)
check "mkfs.ext4 + mount -o dax" mount_dax "$dev"
check "32 MiB written through a DAX mapping" dax-rw -S 9 -s 32M write /mnt/dax/f
umount /mnt/dax
diag "before the teardown: $(memmap_attr "$dev" initialized_bytes) of $(memmap_attr "$dev" total_bytes) memmap bytes initialised"
cxlr=$(cxl list -R | jq -r '.[0].region')
mem=$(cxl list -M | jq -r '.[0].memdev')
check "cxl disable-region $cxlr under the enabled namespace, within 60 s" \
	timeout 60 cxl disable-region "$cxlr"
is "$(provider_regions cxl-pmem)" "" "its libnvdimm region is gone"
check "cxl destroy-region $cxlr" cxl destroy-region "$cxlr"
is "$(vmstat_val nr_memmap_lazy_pending)" 0 "no pending pages left in vmstat"
no_leak "region teardown" "$settled"

if r=$(cxl_region_create "$mem"); then
	ok "$mem: region assembled again: $r"
else
	not_ok "$mem: cxl create-region: $(cat /tmp/cxl.err)"
fi
for _ in $(seq 300); do
	dev=$(ndctl list -N | jq -r --arg u "$uuid" '[.[]? // .] | map(select(.uuid == $u)) | .[0].blockdev // empty')
	[ -n "$dev" ] && break
	sleep 0.1
done
if [ -n "$dev" ]; then
	ok "namespace $uuid back from the labels: $dev"
	lazy_again "$dev" "when the region came back"
	mkdir -p /mnt/dax
	check "mount -o dax" mount -o dax "/dev/$dev" /mnt/dax
	check "the data read back through a DAX mapping" dax-rw -S 9 verify /mnt/dax/f
	umount /mnt/dax
else
	not_ok "namespace $uuid not back within 30 s: $(ndctl list -RN | jq -c .)"
fi
pmem_reset
