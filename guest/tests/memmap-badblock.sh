# shellcheck shell=sh
# A media error in the memmap area found after enable (patches 18-19): the
# struct pages still to be initialised there must not be written over it and
# read back in the kernel; a fault on such a page gets SIGBUS instead, while
# pages whose struct pages were initialised before keep working.
#
# The error is reported as a platform reports one: a machine check with the
# address (the kernel's mce-inject, software injection: the notifier chain
# decodes it as a real one), which nfit_handle_mce() adds to the bus's bad
# ranges before it revalidates the region's badblocks and notifies the
# namespaces.  QEMU's memory holds no poison, so the test sees what the kernel
# decides, not a consumed error.  An fsdax namespace per policy, each on a
# region of its own: the bad range stays with the bus for the boot, and a new
# enable over it fails (QEMU's NFIT cannot clear poison).

mce=/sys/kernel/debug/mce-inject
# AMD legacy bank 4, extended error code 8 (the DRAM ECC error that
# mce_is_memory_error() recognises on the family QEMU's CPU reports), valid,
# uncorrected, enabled, address valid; MCi_MISC: the address is physical, its
# least significant valid bit 12 (nfit_handle_mce() marks 4 KiB bad)
MCE_STATUS=0xbc0000000008009f
MCE_MISC=0x8c

# mce_report ADDR: report an uncorrected memory error at physical address ADDR
mce_report() {
	echo sw > $mce/flags &&
		echo $MCE_STATUS > $mce/status &&
		echo $MCE_MISC > $mce/misc &&
		printf '0x%x\n' "$1" > $mce/addr &&
		echo 4 > $mce/bank
}

# bad_sectors REGION: the region's badblocks, "SECTOR COUNT" per line
bad_sectors() { cat "/sys/bus/nd/devices/$1/badblocks"; }

# touch_at FILE OFFSET: fault in one page of FILE at OFFSET through a DAX
# mapping, writing (a read fault on an unwritten extent maps the zero page, no
# pfn of the device); prints the exit status (135: killed by SIGBUS)
touch_at() {
	dax-touch -w -o "$2" -s 4096 "$1" >/dev/null 2>&1
	echo $?
}

# run POLICY REGION
run() {
	policy=$1 region=$2
	memmap_policy "$policy"
	js=$(ns_create -m fsdax --map=dev -r "$region" -s $((512 * MiB))) ||
		{ not_ok "$policy: create a namespace on $region: $(cat /tmp/ndctl.err)"; return; }
	ns=$(echo "$js" | jq -r .dev)
	dev=$(echo "$js" | jq -r .blockdev)
	mount_dax "$dev" || { not_ok "$policy: mkfs and mount -o dax"; return; }
	file=/mnt/dax/data
	# one file over most of the namespace: its blocks cover chunks never touched
	if ! fallocate -l $((384 * MiB)) $file || ! dax-touch -w -s $((2 * MiB)) $file >/dev/null; then
		not_ok "$policy: a file, its first 2 MiB touched"
		umount /mnt/dax
		return
	fi
	before=$(memmap_attr "$dev" initialized_bytes)
	start=$(( $(cat "/sys/bus/nd/devices/$ns/resource") ))
	data=$(ns_data_start "$ns")
	# the middle of the memmap area, between the info block and the data
	addr=$(( (start + 8192 + (data - start - 8192) / 2) & ~4095 ))
	dmesg -c >/dev/null
	if ! mce_report $addr; then
		not_ok "$policy: report a machine check at $(printf 0x%x $addr) (mce-inject)"
		umount /mnt/dax
		return
	fi
	sector=$(( (addr - $(cat "/sys/bus/nd/devices/$region/resource")) / 512 ))
	for _ in $(seq 100); do
		bad_sectors "$region" | grep -q "^$sector 8" && break
		sleep 0.1
	done
	is "$(bad_sectors "$region" | grep -c "^$sector 8")" 1 \
		"$policy: the error in the memmap area is in $region's badblocks (sector $sector, 8)"
	# the namespaces are notified after the region: wait for the warning
	for _ in $(seq 30); do
		dmesg | grep -q "media error in the memmap area" && break
		sleep 0.1
	done
	warned=$(dmesg | grep -c "media error in the memmap area")
	far=$(touch_at $file $((256 * MiB)))
	near=$(touch_at $file 4096)
	after=$(memmap_attr "$dev" initialized_bytes)
	diag "$policy: memmap initialised $before -> $after bytes, warnings $warned, touch at 256 MiB: $far, at 4 KiB: $near"
	if [ "$policy" = eager ]; then
		is "$warned" 0 "eager: every struct page was written at enable: nothing refused"
		is "$far" 0 "eager: an untouched page faults in as before"
	else
		is "$warned" 1 "$policy: the driver refuses the rest of the memmap, once"
		is "$far" 135 "$policy: a page whose struct pages are not initialised gets SIGBUS"
		is "$after" "$before" "$policy: and nothing more of the memmap is initialised"
		check "$policy: read() of that page still works (no struct page needed)" \
			dd if=$file of=/dev/null bs=4096 skip=$((256 * 256)) count=1
	fi
	is "$near" 0 "$policy: a page whose struct pages were initialised before still faults in"
	umount /mnt/dax
	check "$policy: the namespace is destroyed" ndctl destroy-namespace -f "$ns"
}

pmem_reset
if [ ! -d $mce ]; then
	not_ok "no $mce (CONFIG_X86_MCE_INJECT)"
else
	run eager region0
	run lazy region1
fi
memmap_policy lazy
