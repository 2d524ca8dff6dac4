# shellcheck shell=sh
# /dev/mem and a lazy memmap (lazy-memmap patch 17): a /dev/mem mapping of pmem
# is VM_PFNMAP, seen by no choke point, yet KVM and VFIO turn its pfns into struct
# pages.  So where /dev/mem may map a namespace's data (booted with iomem=relaxed),
# its memmap must be eager; where it may not (IO_STRICT_DEVMEM, a driver's claim),
# the memmap is lazy and the mapping is refused.  Run in both boots (groups
# namespaces and devmem-relaxed).

relaxed=
case " $(cat /proc/cmdline) " in *" iomem=relaxed "*) relaxed=1 ;; esac
pmem_reset
for mode in fsdax devdax; do
	if ! js=$(ns_create -m "$mode" --map=dev -s "$GiB"); then
		not_ok "$mode: create: $(cat /tmp/ndctl.err)"
		continue
	fi
	ns=$(echo "$js" | jq -r .dev)
	dev=$(echo "$js" | jq -r '.blockdev // .daxregion.devices[0].chardev')
	data=$(ns_data_start "$ns")
	# 64 MiB into the data: a chunk nothing has touched
	addr=$(printf '0x%x' $((data + 64 * MiB)))
	if [ -n "$relaxed" ]; then
		is "$(memmap_attr "$dev" policy)/$(memmap_attr "$dev" complete)" eager/1 \
			"$mode, iomem=relaxed: /dev/mem may map it, so the memmap is eager"
		check "$mode, iomem=relaxed: /dev/mem maps its data ($addr)" devmem "$addr"
	else
		is "$(memmap_attr "$dev" policy)/$(memmap_attr "$dev" complete)" lazy/0 \
			"$mode: the memmap is lazy"
		expect_fail "$mode: /dev/mem refuses to map its data ($addr)" \
			"not permitted|denied" devmem "$addr"
	fi
	ndctl destroy-namespace -f "$ns" >/dev/null 2>&1
done
if [ -n "$relaxed" ]; then
	if dmesg | grep -q '/dev/mem can map device memory'; then
		ok "the kernel says why the memmap is eager"
	else
		not_ok "no message that /dev/mem made the memmap eager"
	fi
fi
pmem_reset
