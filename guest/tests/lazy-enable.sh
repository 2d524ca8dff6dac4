# shellcheck shell=sh
# Enabling a big map=dev namespace initialises one chunk of struct pages;
# touching N scattered pages initialises at most N more; eager does it all.

pmem_reset
size=$(( $(cat /sys/bus/nd/devices/region0/size) ))
js=$(ns_create -m devdax -s "$size") || not_ok "create: $(cat /tmp/ndctl.err)"
dax=$(echo "$js" | jq -r '.daxregion.devices[0].chardev')
is "$(memmap_attr "$dax" policy)" lazy "policy is lazy by default"
total=$(memmap_attr "$dax" total_bytes)
done0=$(memmap_attr "$dax" initialized_bytes)
chunk=$(memmap_attr "$dax" chunk_bytes)
diag "$((size >> 30)) GiB devdax: memmap total $total bytes, initialised at enable $done0"
is "$total" $(( $(cat "/sys/bus/dax/devices/$dax/size") * STRUCT_PAGE / 4096 )) \
	"total_bytes: a struct page of $STRUCT_PAGE bytes per 4 KiB page of the device"
# a chunk is a 2 MiB subsection's pages, or a compound page's if larger
is "$chunk" $(((2 * MiB >> 12) * STRUCT_PAGE)) "a 2 MiB-aligned devdax initialises a chunk of 2 MiB of pages per first touch"
if [ "$done0" -le "$chunk" ]; then ok "enable initialised at most one chunk"; else not_ok "enable initialised $done0 bytes"; fi
is "$(memmap_attr "$dax" complete)" 0 "memmap not complete after enable"
pending=$(vmstat nr_memmap_lazy_pending)
if [ "$pending" -gt 0 ]; then ok "vmstat nr_memmap_lazy_pending = $pending"; else not_ok "vmstat pending $pending"; fi

check "16 random pages touched (2 MiB faults)" dax-touch -a 2M -r 16 -S 3 -w "/dev/$dax"
done1=$(memmap_attr "$dax" initialized_bytes)
diag "initialised after touching 16 pages: $done1"
if [ "$done1" -gt "$done0" ] && [ "$done1" -le $((done0 + 16 * chunk)) ]; then
	ok "touching 16 pages initialised at most 16 chunks"
else
	not_ok "touching 16 pages: initialised bytes $done0 -> $done1"
fi

# 8 threads race for the first touch of the same 64 MiB (32 chunks)
check "8 threads race first touches of 32 chunks, data right" \
	dax-touch -a 2M -s 64M -t 8 -w "/dev/$dax"
done2=$(memmap_attr "$dax" initialized_bytes)
if [ "$done2" -le $((done1 + 32 * chunk)) ]; then
	ok "racing touches initialised each chunk once ($done1 -> $done2)"
else
	not_ok "racing touches: $done1 -> $done2"
fi
ndctl destroy-namespace -f all >/dev/null 2>&1

memmap_policy eager
js=$(ns_create -m fsdax --map=dev -s $((4 * GiB))) || not_ok "create eager: $(cat /tmp/ndctl.err)"
dev=$(echo "$js" | jq -r .blockdev)
is "$(memmap_attr "$dev" policy)/$(memmap_attr "$dev" complete)" eager/1 "eager: complete at enable"
is "$(memmap_attr "$dev" chunk_bytes)" 0 "eager: no chunks"
memmap_policy lazy
pmem_reset
