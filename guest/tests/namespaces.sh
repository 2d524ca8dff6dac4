# shellcheck shell=sh
# Namespace creation in every mode the project compares; sizes and the memmap
# reservation as ndctl reports them.  Needs an NVDIMM of at least 2 GiB.

pmem_reset
size="$GiB"
for spec in "fsdax dev" "fsdax mem" "devdax dev" "raw -"; do
	# shellcheck disable=SC2086 # split "mode map"
	set -- $spec
	mode=$1 map=$2 what=$1
	args="-m $mode -s $size"
	[ "$map" = - ] || { args="$args --map=$map"; what="$mode map=$map"; }
	# shellcheck disable=SC2086
	if ! js=$(ns_create $args); then
		not_ok "create $what: $(cat /tmp/ndctl.err)"
		continue
	fi
	is "$(echo "$js" | jq -r .mode)" "$mode" "$what: mode"
	usable=$(echo "$js" | jq .size)
	raw=$(echo "$js" | jq .raw_size)
	reserved=$((raw - usable))
	diag "$what: raw_size=$raw size=$usable reserved=$reserved"
	is "$raw" "$size" "$what: raw size is the requested size"
	case $map in
	dev)
		# 64 bytes of struct page per 4 KiB of data, plus info block and alignment
		memmap=$((usable * STRUCT_PAGE / 4096))
		if [ "$reserved" -ge "$memmap" ] && [ "$reserved" -le $((memmap + 4 * MiB)) ]; then
			ok "$mode map=dev: reserves the memmap in pmem ($reserved bytes)"
		else
			not_ok "$mode map=dev: reserved $reserved, memmap needs $memmap"
		fi ;;
	mem)
		if [ "$reserved" -le $((4 * MiB)) ]; then
			ok "fsdax map=mem: no memmap in pmem ($reserved bytes reserved)"
		else
			not_ok "fsdax map=mem: reserved $reserved bytes"
		fi ;;
	-)
		is "$reserved" 0 "raw: nothing reserved" ;;
	esac
	ndctl destroy-namespace -f all >/dev/null 2>&1
done
