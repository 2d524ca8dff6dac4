# shellcheck shell=sh
# Guest side of the memmap-bytes stage (sourced by bench/guest.sh):
#   memmap-bytes CELL...  where the memmap of devdax namespaces is, for the host
#                         to count
# memmap_bytes CELL...: CELL number i, POLICY:ALIGN:PHASE,
# on the fresh NVDIMM of slot i: a devdax --map=dev namespace of POLICY filling
# the region, aligned to ALIGN, and for PHASE touch every page read once with
# ALIGN mappings.  Per cell, asks the host to count the bytes written into the
# memmap area (host_written, memmap_area), tagged reserved=BYTES, the pmem the
# namespace reserves.
memmap_bytes() {
	pmem_reset
	i=0
	for cell; do
		policy=${cell%%:*} align=${cell#*:} phase=${align#*:} align=${align%%:*}
		r=$(region_of_slot $i)
		# a kernel without the series has no policy: eager
		memmap_policy "$policy" 2>/dev/null || true
		progress "slot $i: devdax $policy, align $align, $phase"
		if ! js=$(ndctl create-namespace -m devdax --map=dev -a "$align" -r "region$r" 2>&1); then
			echo "U $cell memmap_area 0 unsupported ndctl create-namespace: $js"
			i=$((i + 1))
			continue
		fi
		ns=$(echo "$js" | jq -r .dev)
		dax=/dev/$(echo "$js" | jq -r '.daxregion.devices[0].chardev')
		[ "$phase" = enable ] || dax-touch -a "$align" "$dax" > /dev/null ||
			echo "U $cell memmap_area 0 failed dax-touch $dax"
		raw=$(cat "/sys/bus/nd/devices/$ns/size")
		# shellcheck disable=SC2046 # OFFSET LENGTH
		host_written "$i" $(memmap_area "$ns") "reserved=$((raw - $(echo "$js" | jq -r .size)))"
		i=$((i + 1))
	done
	sync
}

stage_guest() { memmap_bytes "$@"; }
