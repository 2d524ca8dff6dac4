# shellcheck shell=sh
# The pmem of another provider (virtio-pmem, CXL, legacy e820: provider_kind)
# in every memmap policy, through the namespace tools/vm's other tests use
# (ns_create: on a label-less region, the whole region converted in place):
# an fsdax --map=dev namespace whose memmap counters say what the policy does,
# ext4 -o dax on it, O_DIRECT from a DAX mapping to virtio-blk and back; a
# devdax --map=dev namespace written and read through its mapping; each torn
# down in time, and nothing leaked by the lot.

kind=$(provider_kind)
[ -n "$kind" ] || { not_ok "no virtio-pmem, CXL or e820 pmem in $MANIFEST"; exit 1; }
region=$(provider_regions "$kind" | head -n 1)
[ -n "$region" ] || { not_ok "$kind: no libnvdimm region"; exit 1; }
diag "$kind: $region, $(cat "/sys/bus/nd/devices/$region/size") bytes"
target=$(readlink -f /dev/disk-target)

# policy_counters POLICY DEV: the memmap statistics of DEV are what POLICY does
# at enable: eager all of it, lazy at most the first chunk, background all of
# it soon after (its worker)
policy_counters() {
	pc_total=$(memmap_attr "$2" total_bytes)
	is "$(memmap_attr "$2" policy)" "$1" "$1 $2: memmap policy $1"
	case $1 in
	lazy)
		pc_done=$(memmap_attr "$2" initialized_bytes)
		if [ "$(memmap_attr "$2" complete)" = 0 ] && [ "$pc_done" -le "$(memmap_attr "$2" chunk_bytes)" ]; then
			ok "lazy $2: $pc_done of $pc_total memmap bytes initialised at enable (one chunk at most)"
		else
			not_ok "lazy $2: complete $(memmap_attr "$2" complete), $pc_done of $pc_total bytes initialised at enable"
		fi ;;
	*)
		for _ in $(seq 600); do
			[ "$(memmap_attr "$2" complete)" = 1 ] && break
			sleep 0.1
		done
		is "$(memmap_attr "$2" complete)/$(memmap_attr "$2" initialized_bytes)" "1/$pc_total" \
			"$1 $2: the memmap is complete ($pc_total bytes)" ;;
	esac
}

pmem_reset
settled=$(mem_settled)
for policy in eager lazy background; do
	memmap_policy "$policy"
	if ! js=$(ns_create -m fsdax --map=dev -s "$GiB"); then
		not_ok "$policy: fsdax create: $(cat /tmp/ndctl.err)"
		continue
	fi
	dev=$(echo "$js" | jq -r .blockdev)
	policy_counters "$policy" "$dev"
	if mount_dax "$dev"; then
		# shellcheck disable=SC2046 # dio_args: options
		check "$policy $dev: O_DIRECT DAX -> virtio-blk -> DAX, $(dio_what), data identical" \
			dax-dio $(dio_args) /mnt/dax/buf "$target"
		check "$policy $dev: the buffer file is DAX (statx)" statx-dax /mnt/dax/buf
		umount /mnt/dax
	else
		not_ok "$policy $dev: mkfs.ext4 + mount -o dax"
	fi
	teardown "$policy fsdax"

	if ! js=$(ns_create -m devdax --map=dev -s "$GiB"); then
		not_ok "$policy: devdax create: $(cat /tmp/ndctl.err)"
		continue
	fi
	dax=$(echo "$js" | jq -r '.daxregion.devices[0].chardev')
	policy_counters "$policy" "$dax"
	dax-rw -a 2M -s 64M -S 5 write "/dev/$dax" >/dev/null
	check "$policy $dax: 64 MiB written and read back through the mapping" \
		dax-rw -a 2M -s 64M -S 5 verify "/dev/$dax"
	teardown "$policy devdax"
done
memmap_policy lazy
is "$(vmstat_val nr_memmap_lazy_pending)" 0 "no pending pages left in vmstat"
no_leak "6 namespaces on $kind" "$settled"
pmem_reset
